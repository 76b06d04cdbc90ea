// Job states in words: the cell text of =BIZ.JOBSTATUS and the panel's labels.
import type { JobStatus } from "../api/types.js";

/** "RUNNING 40%", "SCHEDULED", "SUCCEEDED": the state, and the progress while it runs. */
export function jobStatusText(status: Pick<JobStatus, "status" | "percentProgress" | "terminal">): string {
  if (!status.terminal && status.percentProgress !== undefined && status.status === "RUNNING") {
    return `${status.status} ${status.percentProgress}%`;
  }
  return status.status;
}

const LABELS: Record<string, string> = {
  SCHEDULED: "Queued",
  RUNNING: "Running",
  SUCCEEDED: "Succeeded",
  PARTIALLY_SUCCEEDED: "Partly succeeded",
  FAILED: "Failed",
  CANCELLED: "Cancelled",
  UNKNOWN: "Not found",
};

/** A state as the panel shows it; an unknown state is shown as the service said it. */
export function jobStateLabel(state: string): string {
  return LABELS[state] ?? state;
}

/** "1 h 02 min", "3 min 05 s", "12 s". */
export function formatElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, "0")} min`;
  if (m > 0) return `${m} min ${String(sec).padStart(2, "0")} s`;
  return `${sec} s`;
}
