// Client-side rate limit: every request takes a slot here before it leaves. Slots are spaced
// 1000/perSecond ms apart (a generic cell rate algorithm with a small burst), handed out in the
// order asked, tightened by the service's X-RateLimit-* headers and paused by a 429.
import type { Clock } from "./types.js";

export interface RateLimiterOptions {
  perSecond: number;
  burst: number;
  /** Extra spacing as a share of the interval. */
  safetyMargin: number;
}

export class RateLimiter {
  private intervalMs: number;
  private readonly configuredPerSecond: number;
  private readonly burst: number;
  private readonly stretch: number;
  /** Theoretical arrival time of the next request when the bucket is drained. */
  private tat = Number.NEGATIVE_INFINITY;
  private pausedUntil = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly clock: Clock,
    options: RateLimiterOptions,
  ) {
    if (!(options.perSecond > 0)) throw new RangeError("rateLimit.perSecond must be greater than 0");
    this.configuredPerSecond = options.perSecond;
    this.stretch = 1 + Math.max(0, options.safetyMargin);
    this.intervalMs = (1000 / options.perSecond) * this.stretch;
    this.burst = Math.max(1, Math.floor(options.burst));
  }

  /** Requests per second currently allowed (before the safety margin). */
  get perSecond(): number {
    return (1000 / this.intervalMs) * this.stretch;
  }

  /** Waits for a slot; rejects with the signal's reason when aborted first. */
  async acquire(signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const now = this.clock.now();
      const slot = Math.max(now, this.pausedUntil, this.tat - (this.burst - 1) * this.intervalMs);
      this.tat = Math.max(this.tat, slot) + this.intervalMs;
      if (slot > now) await this.clock.sleep(slot - now, signal);
      // A 429 that arrived while waiting moves everyone behind the pause.
      if (this.clock.now() >= this.pausedUntil) return;
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
  observe(headers: { get(name: string): string | null }): void {
    const limit = readCount(headers.get("x-ratelimit-limit-second"));
    if (limit !== undefined && limit > 0) {
      const perSecond = Math.min(this.configuredPerSecond, limit);
      this.intervalMs = (1000 / perSecond) * this.stretch;
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
