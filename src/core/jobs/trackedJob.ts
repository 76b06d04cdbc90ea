// One enrichment job the user started, as the job panel lists and remembers it.
export interface TrackedJob {
  audienceId: string;
  jobId: string;
  audienceName: string;
  /** When the user started it (epoch ms). */
  startedAt: number;
  /** The service's state: SCHEDULED, RUNNING, SUCCEEDED, PARTIALLY_SUCCEEDED, FAILED, CANCELLED. */
  status: string;
  percentProgress?: number;
  terminal: boolean;
  /** When the panel first saw the job end (epoch ms). */
  finishedAt?: number;
  /** The scope it was started with; ROW jobs keep their row ids to count failures among them. */
  scope?: "AUDIENCE" | "ROW";
  rowIds?: string[];
  /** Rows that ended in ERROR or NO_RESULT, read from the audience's rows after the end. */
  failedRows?: number;
  /** The last polling problem, in words for the user (cleared by the next good status). */
  problem?: string;
}

/** Time the job has run: until it ended, or until now. */
export function elapsedMs(job: TrackedJob, now: number): number {
  return Math.max(0, (job.finishedAt ?? now) - job.startedAt);
}
