// What =BIZ.JOBSTATUS(audienceId, jobId) shows: the job's state and progress, streamed into
// the cell until the job ends. Cells watching the same job share one poll (JobPoller.watch);
// the returned stop function ends this cell's share when Excel cancels the formula.
import { isUuid } from "../contract/index.js";
import { jobStatusText } from "./format.js";
import type { JobPoller } from "./poller.js";

export interface JobStatusProblem {
  /** Excel error the cell shows. */
  code: "#VALUE!" | "#N/A";
  message: string;
}

export interface JobStatusSink {
  value(text: string): void;
  problem(problem: JobStatusProblem): void;
}

/** Checks the arguments; a problem means nothing is polled. */
function jobStatusArgumentProblem(audienceId: unknown, jobId: unknown): JobStatusProblem | undefined {
  if (typeof audienceId !== "string" || !isUuid(audienceId.trim())) {
    return { code: "#VALUE!", message: "The audience id must look like 3f2b1c9e-1234-4abc-9def-0123456789ab." };
  }
  if (typeof jobId !== "string" || jobId.trim() === "") {
    return { code: "#VALUE!", message: "Give the job id shown when the enrichment started." };
  }
  return undefined;
}

/** Streams the job's status into `sink`; returns the function that stops (idempotent). */
export function streamJobStatus(poller: JobPoller, audienceId: unknown, jobId: unknown, sink: JobStatusSink): () => void {
  const bad = jobStatusArgumentProblem(audienceId, jobId);
  if (bad) {
    sink.problem(bad);
    return () => {};
  }
  let shown = false;
  let stopped = false;
  // The listener may run before watch() returns, so the unwatch function is read late.
  const handle: { unwatch?: () => void } = {};
  const stop = () => {
    if (stopped) return;
    stopped = true;
    handle.unwatch?.();
  };
  handle.unwatch = poller.watch(String(audienceId).trim(), String(jobId).trim(), (update) => {
    if (stopped) return;
    if (update.kind === "status") {
      shown = true;
      sink.value(jobStatusText(update.status));
      if (update.status.terminal) stop();
      return;
    }
    if (update.final) {
      sink.problem({ code: "#N/A", message: update.error.kind === "notFound" ? "No such job for this audience." : update.error.message });
      stop();
    } else if (!shown) {
      // A passing problem (network, rate limit) only shows while there is no status yet.
      sink.problem({ code: "#N/A", message: update.error.message });
    }
  });
  if (stopped) handle.unwatch();
  return stop;
}
