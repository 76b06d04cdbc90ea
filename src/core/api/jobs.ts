// Waiting for an audience-enrichment job: poll its status with growing pauses (about 1 s at
// first, at most about 10 s), never sooner than a Retry-After the service gave, until a
// terminal state.
import { cancelledError } from "./request.js";
import type { Clock, JobStatus, WaitForJobOptions } from "./types.js";

export interface PolledStatus {
  status: JobStatus;
  /** Retry-After of the status answer, in ms. */
  retryAfterMs?: number;
}

export const JOB_POLL_GROWTH = 1.5;

export async function pollJob(
  poll: (signal?: AbortSignal) => Promise<PolledStatus>,
  clock: Clock,
  options: WaitForJobOptions = {},
): Promise<JobStatus> {
  const initial = options.initialDelayMs ?? 1000;
  const cap = options.maxDelayMs ?? 10000;
  let delay = initial;
  for (;;) {
    const { status, retryAfterMs } = await poll(options.signal);
    options.onProgress?.(status);
    if (status.terminal) return status;
    const wait = Math.max(Math.min(delay, cap), retryAfterMs ?? 0);
    try {
      await clock.sleep(wait, options.signal);
    } catch {
      throw cancelledError("waiting for the enrichment job");
    }
    delay = Math.min(cap, delay * JOB_POLL_GROWTH);
  }
}
