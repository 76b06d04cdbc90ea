// Polls the status of many audience-enrichment jobs on ONE timer. Each job has its own next
// poll time and backoff (about 1 s growing to 10 s; never sooner than a Retry-After); the timer
// is armed for the earliest of them. Every request goes through the service client, so its
// rate limiter and concurrency cap bound what leaves. Watchers of the same job share its poll.
import { systemClock } from "../api/clock.js";
import { isServiceError } from "../api/errors.js";
import { errorText } from "../api/userText.js";
import type { Clock, JobStatus, ServiceClient, ServiceErrorKind } from "../api/types.js";

export interface JobPollError {
  kind: ServiceErrorKind | "unknown";
  /** HTTP status, 0 when none. */
  status: number;
  /** What to show a sales-ops user. */
  message: string;
}

export type JobUpdate =
  | { kind: "status"; status: JobStatus }
  /** `final`: polling of this job has stopped (the job is unknown to the service). */
  | { kind: "error"; error: JobPollError; final: boolean };

export type JobListener = (update: JobUpdate) => void;

export interface JobPollerOptions {
  client: Pick<ServiceClient, "getJob">;
  /** Time (default the system clock); tests drive it themselves. */
  clock?: Clock;
  /** First pause between polls in ms (default 1000). */
  initialDelayMs?: number;
  /** Longest pause between polls in ms (default 10000). */
  maxDelayMs?: number;
  /** Factor the pause grows by after each poll that shows no change of state (default 1.5). */
  growth?: number;
  /** How long a job's terminal status is remembered for new watchers, in ms (default 10 minutes). */
  rememberTerminalMs?: number;
}

interface Entry {
  audienceId: string;
  jobId: string;
  listeners: Set<JobListener>;
  delayMs: number;
  nextAt: number;
  last?: JobUpdate;
  inFlight?: AbortController;
}

function jobKey(audienceId: string, jobId: string): string {
  return `${audienceId}/${jobId}`;
}

function pollError(error: unknown): JobPollError {
  if (isServiceError(error)) return { kind: error.kind, status: error.status, message: errorText(error) };
  return { kind: "unknown", status: 0, message: errorText(error) };
}

export class JobPoller {
  private readonly client: Pick<ServiceClient, "getJob">;
  private readonly clock: Clock;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly growth: number;
  private readonly rememberTerminalMs: number;
  private readonly entries = new Map<string, Entry>();
  private readonly terminal = new Map<string, { update: JobUpdate; at: number }>();
  private handle: AbortController | undefined;
  private armedFor: number | undefined;
  private disposed = false;
  private pollsMade = 0;

  constructor(options: JobPollerOptions) {
    this.client = options.client;
    this.clock = options.clock ?? systemClock;
    this.initialDelayMs = options.initialDelayMs ?? 1000;
    this.maxDelayMs = options.maxDelayMs ?? 10000;
    this.growth = options.growth ?? 1.5;
    this.rememberTerminalMs = options.rememberTerminalMs ?? 10 * 60 * 1000;
  }

  /**
   * Follows a job until it ends; the listener gets every status and error. A job already
   * followed is not polled twice: the new listener joins it (and gets its last status at once).
   * Returns the function that stops listening; the job's polling stops with its last listener.
   */
  watch(audienceId: string, jobId: string, listener: JobListener): () => void {
    if (this.disposed) throw new Error("The job poller was closed.");
    const key = jobKey(audienceId, jobId);
    const ended = this.terminal.get(key);
    if (ended && this.clock.now() - ended.at < this.rememberTerminalMs) {
      let live = true;
      queueMicrotask(() => live && listener(ended.update));
      return () => {
        live = false;
      };
    }
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { audienceId, jobId, listeners: new Set(), delayMs: this.initialDelayMs, nextAt: this.clock.now() };
      this.entries.set(key, entry);
      this.arm();
    } else if (entry.last) {
      const last = entry.last;
      queueMicrotask(() => entry?.listeners.has(listener) && listener(last));
    }
    entry.listeners.add(listener);
    const e = entry;
    return () => {
      e.listeners.delete(listener);
      if (e.listeners.size === 0 && this.entries.get(key) === e) this.drop(key, e);
    };
  }

  /** Jobs being polled now. */
  get activeJobs(): number {
    return this.entries.size;
  }

  /** Status requests made so far (for tests and the bench). */
  get requestsMade(): number {
    return this.pollsMade;
  }

  /** Stops every poll and the timer. */
  dispose(): void {
    this.disposed = true;
    for (const [key, entry] of this.entries) this.drop(key, entry);
    this.clearTimer();
  }

  private drop(key: string, entry: Entry): void {
    entry.inFlight?.abort();
    this.entries.delete(key);
    this.arm();
  }

  private clearTimer(): void {
    this.handle?.abort();
    this.handle = undefined;
    this.armedFor = undefined;
  }

  /** Arms the one timer for the earliest job that is due and not already being asked. */
  private arm(): void {
    if (this.disposed) return this.clearTimer();
    let earliest: number | undefined;
    for (const entry of this.entries.values()) {
      if (entry.inFlight) continue;
      if (earliest === undefined || entry.nextAt < earliest) earliest = entry.nextAt;
    }
    if (earliest === undefined) return this.clearTimer();
    if (this.armedFor !== undefined && this.armedFor <= earliest) return;
    this.clearTimer();
    this.armedFor = earliest;
    const handle = new AbortController();
    this.handle = handle;
    this.clock.sleep(Math.max(0, earliest - this.clock.now()), handle.signal).then(
      () => this.handle === handle && this.fire(),
      () => undefined, // disarmed
    );
  }

  private fire(): void {
    this.handle = undefined;
    this.armedFor = undefined;
    const now = this.clock.now();
    for (const entry of this.entries.values()) {
      if (!entry.inFlight && entry.nextAt <= now) void this.poll(entry);
    }
    this.arm();
  }

  private async poll(entry: Entry): Promise<void> {
    const key = jobKey(entry.audienceId, entry.jobId);
    const controller = new AbortController();
    entry.inFlight = controller;
    this.pollsMade++;
    let update: JobUpdate;
    let waitMs: number;
    let done = false;
    try {
      const status = await this.client.getJob(entry.audienceId, entry.jobId, { signal: controller.signal });
      const previous = entry.last?.kind === "status" ? entry.last.status.status : undefined;
      update = { kind: "status", status };
      done = status.terminal;
      // A change of state (SCHEDULED -> RUNNING) starts the backoff over; otherwise it grows.
      if (previous !== undefined && previous !== status.status) entry.delayMs = this.initialDelayMs;
      waitMs = Math.max(entry.delayMs, status.retryAfterMs ?? 0);
      entry.delayMs = Math.min(this.maxDelayMs, entry.delayMs * this.growth);
    } catch (error) {
      if (controller.signal.aborted) return; // Nobody is listening any more.
      const e = pollError(error);
      done = e.kind === "notFound";
      update = { kind: "error", error: e, final: done };
      const retryAfter = isServiceError(error) ? (error.retryAfterMs ?? 0) : 0;
      // Signed out or not allowed: keep trying slowly, the user may sign in again.
      const base = e.kind === "unauthorized" || e.kind === "forbidden" ? this.maxDelayMs : entry.delayMs;
      waitMs = Math.max(base, retryAfter);
      entry.delayMs = Math.min(this.maxDelayMs, entry.delayMs * this.growth);
    } finally {
      entry.inFlight = undefined;
    }
    if (this.entries.get(key) !== entry) return;
    entry.last = update;
    entry.nextAt = this.clock.now() + waitMs;
    if (done) {
      this.entries.delete(key);
      this.rememberTerminal(key, update);
    }
    // Re-arm first: a listener that throws must not stop the other jobs' polling.
    this.arm();
    for (const listener of [...entry.listeners]) listener(update);
  }

  private rememberTerminal(key: string, update: JobUpdate): void {
    const now = this.clock.now();
    for (const [k, v] of this.terminal) if (now - v.at >= this.rememberTerminalMs) this.terminal.delete(k);
    this.terminal.set(key, { update, at: now });
  }
}
