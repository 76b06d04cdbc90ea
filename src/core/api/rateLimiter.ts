// Client-side rate limit: every request takes a slot here before it leaves. Slots are spaced
// 1000/perSecond ms apart (a generic cell rate algorithm with a small burst), handed out in the
// order asked, tightened by the service's X-RateLimit-* headers and paused by a 429.
import type { Clock } from "./types.js";

export interface RateLimiterOptions {
  perSecond: number;
  burst: number;
  /** Extra spacing as a share of the interval. */
  safetyMargin: number;
  /** One request alone until the first answer (see RateLimitOptions.probeFirst). */
  probeFirst?: boolean;
}

export class RateLimiter {
  private intervalMs: number;
  private readonly configuredPerSecond: number;
  private readonly burst: number;
  private readonly stretch: number;
  private readonly slackMs: number;
  /** Theoretical arrival time of the next request when the bucket is drained. */
  private tat = Number.NEGATIVE_INFINITY;
  private pausedUntil = Number.NEGATIVE_INFINITY;
  private lastGrant = Number.NEGATIVE_INFINITY;
  /** Whether an answer from the service has been seen (its limit headers, if any, read). */
  private learned: boolean;
  private probe: { answered: Promise<void>; resolve: () => void } | undefined;
  /** The waiters, one after another. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly clock: Clock,
    options: RateLimiterOptions,
  ) {
    if (!(options.perSecond > 0)) throw new RangeError("rateLimit.perSecond must be greater than 0");
    this.configuredPerSecond = options.perSecond;
    this.stretch = 1 + Math.max(0, options.safetyMargin);
    // perSecond + 1 grants span at least 1000 * stretch - slack ms: half the margin absorbs
    // lateness here, half the jitter on the way to the service.
    this.slackMs = ((this.stretch - 1) * 1000) / 2;
    this.intervalMs = (1000 / options.perSecond) * this.stretch;
    this.burst = Math.max(1, Math.floor(options.burst));
    this.learned = !options.probeFirst;
  }

  /** Requests per second currently allowed (before the safety margin). */
  get perSecond(): number {
    return (1000 / this.intervalMs) * this.stretch;
  }

  /**
   * Waits for a slot; rejects with the signal's reason when aborted first. Waiters are served
   * one at a time in arrival order, and a waiter woken late moves the next slots with it (beyond
   * a small slack), so a late request and an on-time one after it never come closer than a
   * one-second window at the service allows.
   */
  acquire(signal?: AbortSignal): Promise<void> {
    const turn = this.queue.then(() => this.waitForSlot(signal));
    this.queue = turn.catch(() => undefined);
    if (!signal) return turn;
    // An aborted waiter leaves at once; its turn, when it comes, passes straight on.
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(signal.reason ?? new Error("aborted"));
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
      turn.then(
        () => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        },
        (error: unknown) => {
          signal.removeEventListener("abort", onAbort);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  private async waitForSlot(signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      // Until the first answer tells the service's limits, one request at a time: an account
      // allowed 5 a second would otherwise see a burst at the configured 25 first.
      if (!this.learned && this.probe) {
        await abortable(this.probe.answered, signal);
        continue;
      }
      const now = this.clock.now();
      const earliest = Math.max(this.pausedUntil, this.tat - (this.burst - 1) * this.intervalMs);
      if (now >= earliest) {
        // Every grant is at most `slack` after its point on a schedule whose points are an
        // interval apart: a grant a little late keeps the schedule (no throughput lost to timer
        // lateness), a later one (or one after an idle spell) moves it, so perSecond + 1
        // grants always span 1000 * stretch - slack ms, more than one second.
        this.tat = Math.max(this.tat, now - this.slackMs) + this.intervalMs;
        this.lastGrant = now;
        if (!this.learned) this.probe = deferred();
        return;
      }
      await this.clock.sleep(earliest - now, signal);
    }
  }

  /** Nobody sends before `ms` from now (a 429's Retry-After). */
  pauseFor(ms: number): void {
    const until = this.clock.now() + Math.max(0, ms);
    if (until > this.pausedUntil) {
      this.pausedUntil = until;
      // Start evenly after the pause, not with a burst of everyone who waited.
      this.tat = Math.max(this.tat, until);
    }
  }

  /**
   * Reads X-RateLimit-Limit-Second (a lower allowance than configured tightens the spacing) and
   * X-RateLimit-Remaining-Second (0: the service's window is full, so any saved-up burst is
   * dropped). -1 means unknown and is ignored.
   */
  /**
   * Every granted request reports back once: with the answer's headers, or without when there
   * was no answer (dropped, timed out, cancelled), so the next request may probe instead.
   */
  settle(headers: { get(name: string): string | null } | undefined): void {
    if (headers) {
      this.learned = true;
      this.observe(headers);
    }
    const probe = this.probe;
    this.probe = undefined;
    probe?.resolve();
  }

  observe(headers: { get(name: string): string | null }): void {
    const limit = readCount(headers.get("x-ratelimit-limit-second"));
    if (limit !== undefined && limit > 0) {
      const perSecond = Math.min(this.configuredPerSecond, limit);
      const intervalMs = (1000 / perSecond) * this.stretch;
      if (intervalMs !== this.intervalMs) {
        this.intervalMs = intervalMs;
        // The slot already planned after the last grant was for the old pace: plan it again.
        this.tat = Math.max(this.tat, this.lastGrant - this.slackMs + intervalMs);
      }
    }
    const remaining = readCount(headers.get("x-ratelimit-remaining-second"));
    if (remaining === 0) this.tat = Math.max(this.tat, this.clock.now() + (this.burst - 1) * this.intervalMs);
  }
}

function readCount(value: string | null): number | undefined {
  if (value === null) return undefined;
  const n = Number(value.trim());
  if (!Number.isFinite(n) || n < 0) return undefined;
  return n;
}

function deferred(): { answered: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const answered = new Promise<void>((r) => (resolve = r));
  return { answered, resolve };
}

function abortable(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error("aborted"));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    void promise.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
  });
}
