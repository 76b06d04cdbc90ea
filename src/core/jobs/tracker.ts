// The list of enrichment jobs a user started: remembered in per-user storage, followed
// through the shared JobPoller (one timer for all of them) until each ends, and published to
// the job panel. A tracker opened again (the task pane reopened) resumes the unfinished jobs.
import { systemClock } from "../api/clock.js";
import type { Clock } from "../api/types.js";
import type { JobPoller, JobUpdate } from "./poller.js";
import type { JobStorage } from "./storage.js";
import type { TrackedJob } from "./trackedJob.js";

export interface JobTrackerOptions {
  poller: JobPoller;
  storage: JobStorage;
  /** When a job started and ended (default: the system clock). */
  clock?: Pick<Clock, "now">;
}

export interface TrackerSnapshot {
  /** Newest first. */
  jobs: TrackedJob[];
  /** Set when the job list could not be saved (the jobs still run; they may be forgotten on reopen). */
  storageProblem?: string;
}

export interface NewTrackedJob {
  audienceId: string;
  jobId: string;
  audienceName: string;
  scope?: "AUDIENCE" | "ROW";
  rowIds?: string[];
}

/** Row ids a ROW-scope job remembers at most, to count its failures among them. */
const MAX_REMEMBERED_ROW_IDS = 2000;

/** Open trackers by storage key: a panel mounted twice must not keep two lists that overwrite each other. */
const openTrackers = new Map<string, { poller: JobPoller; tracker: Promise<JobTracker>; instance?: JobTracker }>();

export class JobTracker {
  private readonly poller: JobPoller;
  private readonly storage: JobStorage;
  private readonly clock: Pick<Clock, "now">;
  private list: TrackedJob[] = [];
  private readonly stopWatching = new Map<string, () => void>();
  private readonly listeners = new Set<(snapshot: TrackerSnapshot) => void>();
  private saving: Promise<void> = Promise.resolve();
  private storageProblem: string | undefined;
  private isClosed = false;

  private constructor(options: JobTrackerOptions) {
    this.poller = options.poller;
    this.storage = options.storage;
    this.clock = options.clock ?? systemClock;
  }

  /**
   * Loads the remembered jobs and resumes following the unfinished ones. Opening again on the
   * same storage key (and poller) gives the tracker already open, until it is closed.
   */
  static open(options: JobTrackerOptions): Promise<JobTracker> {
    const key = options.storage.key;
    if (key === undefined) return JobTracker.load(options);
    const existing = openTrackers.get(key);
    if (existing && existing.poller === options.poller && !existing.instance?.closed) return existing.tracker;
    if (existing) void existing.tracker.then((t) => t.close());
    const entry: { poller: JobPoller; tracker: Promise<JobTracker>; instance?: JobTracker } = {
      poller: options.poller,
      tracker: JobTracker.load(options).then((t) => (entry.instance = t)),
    };
    openTrackers.set(key, entry);
    return entry.tracker;
  }

  private static async load(options: JobTrackerOptions): Promise<JobTracker> {
    const tracker = new JobTracker(options);
    try {
      tracker.list = await options.storage.load();
    } catch (error) {
      tracker.storageProblem = `Your earlier jobs could not be read: ${error instanceof Error ? error.message : String(error)}`;
    }
    for (const job of tracker.list) if (!job.terminal) tracker.follow(job);
    return tracker;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  snapshot(): TrackerSnapshot {
    const jobs = [...this.list].sort((a, b) => b.startedAt - a.startedAt).map((j) => ({ ...j }));
    return this.storageProblem === undefined ? { jobs } : { jobs, storageProblem: this.storageProblem };
  }

  /** Calls `listener` on every change; returns the function that stops it. */
  subscribe(listener: (snapshot: TrackerSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Remembers a job just started and follows it. */
  async track(job: NewTrackedJob): Promise<void> {
    const tracked: TrackedJob = { ...job, startedAt: this.clock.now(), status: "SCHEDULED", terminal: false };
    // Per-user storage is small (about 5 MB in a browser): a very long row list is not kept, and
    // failures are then counted over the whole audience.
    if (tracked.rowIds && tracked.rowIds.length > MAX_REMEMBERED_ROW_IDS) delete tracked.rowIds;
    this.list = [...this.list.filter((j) => j.jobId !== job.jobId), tracked];
    this.follow(tracked);
    this.changed();
    await this.flush();
  }

  /** Records how many rows failed, once the panel has read them. */
  async setFailedRows(jobId: string, failedRows: number): Promise<void> {
    this.update(jobId, (j) => ({ ...j, failedRows }));
    await this.flush();
  }

  /** Forgets a job (stops following it if it still runs). */
  async forget(jobId: string): Promise<void> {
    this.stopWatching.get(jobId)?.();
    this.stopWatching.delete(jobId);
    this.list = this.list.filter((j) => j.jobId !== jobId);
    this.changed();
    await this.flush();
  }

  /** Waits for pending saves. */
  async flush(): Promise<void> {
    await this.saving;
  }

  /** Stops following jobs (the shared poller stays; a new tracker resumes from storage). */
  close(): void {
    this.isClosed = true;
    const key = this.storage.key;
    if (key !== undefined && openTrackers.get(key)?.instance === this) openTrackers.delete(key);
    for (const stop of this.stopWatching.values()) stop();
    this.stopWatching.clear();
    this.listeners.clear();
  }

  private follow(job: TrackedJob): void {
    if (this.isClosed || this.stopWatching.has(job.jobId)) return;
    const stop = this.poller.watch(job.audienceId, job.jobId, (update) => this.onUpdate(job.jobId, update));
    this.stopWatching.set(job.jobId, stop);
  }

  private onUpdate(jobId: string, update: JobUpdate): void {
    if (this.isClosed) return;
    const now = this.clock.now();
    this.update(jobId, (j) => {
      if (update.kind === "error") {
        const next: TrackedJob = { ...j, problem: update.error.message };
        if (update.final) {
          // The service no longer knows the job: show that, and stop.
          next.status = "UNKNOWN";
          next.terminal = true;
          next.finishedAt = now;
        }
        return next;
      }
      const { status } = update;
      const next: TrackedJob = { ...j, status: status.status, terminal: status.terminal };
      delete next.problem;
      if (status.percentProgress !== undefined) next.percentProgress = status.percentProgress;
      if (status.terminal && next.finishedAt === undefined) next.finishedAt = now;
      return next;
    });
    if (update.kind === "status" ? update.status.terminal : update.final) this.stopWatching.delete(jobId);
  }

  private update(jobId: string, change: (job: TrackedJob) => TrackedJob): void {
    let touched = false;
    this.list = this.list.map((j) => {
      if (j.jobId !== jobId) return j;
      touched = true;
      return change(j);
    });
    if (touched) this.changed();
  }

  private changed(): void {
    const jobs = this.list;
    this.saving = this.saving.then(async () => {
      try {
        await this.storage.save(jobs);
        this.storageProblem = undefined;
      } catch (error) {
        this.storageProblem = `Your job list could not be saved: ${error instanceof Error ? error.message : String(error)}`;
        this.publish();
      }
    });
    this.publish();
  }

  private publish(): void {
    const snapshot = this.snapshot();
    for (const listener of [...this.listeners]) listener(snapshot);
  }
}
