// What BIZ.JOBSTATUS does once its configuration is known, loaded with import() on its first
// calculation. It reaches only the job stream (src/core/jobs/stream) and the sign-in problem,
// not the enrichment engine, so it loads quickly; functions.ts holds the state.
import { problems } from "../core/enrich/problems.js";
import { streamJobStatus } from "../core/jobs/stream.js";
import { toExcelError } from "./excelError.js";
import type { JobStatusConfig } from "./config.js";

/**
 * Streams the job's state into the cell and returns how to stop (cells on the same job share
 * one poll through the poller), or nothing when it asked to sign in or was cancelled meanwhile.
 */
export async function startJobStatusCell(
  config: JobStatusConfig | undefined,
  audienceId: string,
  jobId: string,
  invocation: CustomFunctions.StreamingInvocation<string>,
  cancelled: () => boolean,
): Promise<(() => void) | undefined> {
  if (!config || !(await config.isSignedIn())) {
    invocation.setResult(toExcelError(problems.signIn()));
    return undefined;
  }
  if (cancelled()) return undefined;
  return streamJobStatus(config.poller, audienceId, jobId, {
    value: (text) => invocation.setResult(text),
    problem: (problem) => invocation.setResult(toExcelError(problem)),
  });
}
