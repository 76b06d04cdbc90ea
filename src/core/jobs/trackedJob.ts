// One enrichment job the user started, as the job panel lists and remembers it.
import type { Static } from "@sinclair/typebox";
import type { TrackedJobSchema } from "./trackedJobSchema.js";

/** Its shape is the stored schema (trackedJobSchema.ts). */
export type TrackedJob = Static<typeof TrackedJobSchema>;

/** Time the job has run: until it ended, or until now. */
export function elapsedMs(job: TrackedJob, now: number): number {
  return Math.max(0, (job.finishedAt ?? now) - job.startedAt);
}
