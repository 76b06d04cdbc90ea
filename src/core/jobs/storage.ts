// Where the job list is remembered between task-pane sessions: per-user storage (the
// browser's localStorage or OfficeRuntime.storage), never the workbook, under a key that
// names the user so two people sharing a machine do not see each other's jobs.
import { compiledCheck } from "../contract/index.js";
import type { KeyValueItems } from "../storage/keyValue.js";
import type { TrackedJob } from "./trackedJob.js";
import { TrackedJobSchema } from "./trackedJobSchema.js";

export interface JobStorage {
  /** Names the place the list is kept; trackers opened on the same key are one tracker. */
  readonly key?: string;
  load(): Promise<TrackedJob[]>;
  save(jobs: readonly TrackedJob[]): Promise<void>;
}

const JOB_STORAGE_PREFIX = "bizdata.jobs.v1.";

/** Jobs kept at most; the oldest finished ones go first. */
export const MAX_REMEMBERED_JOBS = 50;

const isTrackedJob = (value: unknown): value is TrackedJob => compiledCheck(TrackedJobSchema).Check(value);

/** Reads a stored job list, dropping anything that is not a job (the others are kept). */
export function parseStoredJobs(raw: string | null): TrackedJob[] {
  if (raw === null || raw === "") return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    // A damaged entry is not worth failing the panel for: start with an empty list.
    return [];
  }
  return Array.isArray(value) ? value.filter(isTrackedJob) : [];
}

/** Keeps the newest jobs, and every unfinished one, up to the cap. */
function pruneJobs(jobs: readonly TrackedJob[]): TrackedJob[] {
  if (jobs.length <= MAX_REMEMBERED_JOBS) return [...jobs];
  const byNewest = [...jobs].sort((a, b) => b.startedAt - a.startedAt);
  const running = byNewest.filter((j) => !j.terminal);
  const finished = byNewest.filter((j) => j.terminal).slice(0, Math.max(0, MAX_REMEMBERED_JOBS - running.length));
  const keep = new Set([...running, ...finished]);
  return jobs.filter((j) => keep.has(j));
}

export function keyValueJobStorage(store: KeyValueItems, userId: string): JobStorage {
  const key = JOB_STORAGE_PREFIX + encodeURIComponent(userId);
  return {
    key,
    async load() {
      return parseStoredJobs(await store.getItem(key));
    },
    async save(jobs) {
      await store.setItem(key, JSON.stringify(pruneJobs(jobs)));
    },
  };
}

/** In-memory storage, for tests and for when no per-user storage is reachable. */
export function memoryJobStorage(initial: readonly TrackedJob[] = []): JobStorage & { saved(): TrackedJob[] } {
  let jobs = initial.map((j) => ({ ...j }));
  return {
    async load() {
      return jobs.map((j) => ({ ...j }));
    },
    async save(next) {
      jobs = pruneJobs(next).map((j) => ({ ...j }));
    },
    saved() {
      return jobs.map((j) => ({ ...j }));
    },
  };
}
