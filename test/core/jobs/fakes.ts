// Test doubles for the job poller: the clock driven by the test, and a client whose job
// statuses follow a script.
import { serviceError } from "../../../src/core/api/errors.js";
import type { Clock, JobStatus } from "../../../src/core/api/types.js";

/**
 * The poller's clock is the client tests' FakeClock: sleeps end when advance() passes their
 * time. (FakeTimer is the name the cell functions' tests know it by.)
 */
export { FakeClock as FakeTimer } from "../api/scripted.js";

export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

export type Step = JobStatus | Error;

export function status(state: string, percentProgress?: number): JobStatus {
  const terminal = ["SUCCEEDED", "PARTIALLY_SUCCEEDED", "FAILED", "CANCELLED"].includes(state);
  return { id: "job", status: state, terminal, ...(percentProgress !== undefined ? { percentProgress } : {}) };
}

export function rateLimited(retryAfterMs: number): Error {
  return serviceError("rateLimited", { status: 429, retryAfterMs });
}

/** getJob answers from a script per job id; the last step repeats. Records each call's time. */
export class ScriptedJobs {
  readonly calls: { jobId: string; at: number }[] = [];
  constructor(
    private readonly timer: Pick<Clock, "now">,
    private readonly scripts: Record<string, Step[]>,
  ) {}
  async getJob(_audienceId: string, jobId: string, options?: { signal?: AbortSignal }): Promise<JobStatus> {
    this.calls.push({ jobId, at: this.timer.now() });
    if (options?.signal?.aborted) throw serviceError("cancelled");
    const script = this.scripts[jobId];
    if (!script || script.length === 0) throw serviceError("notFound", { status: 404 });
    const step = script.length > 1 ? script.shift()! : script[0]!;
    if (step instanceof Error) throw step;
    return { ...step, id: jobId };
  }
  callsFor(jobId: string): number[] {
    return this.calls.filter((c) => c.jobId === jobId).map((c) => c.at);
  }
}
