// Client-side rate limit: every request takes a slot here before it leaves. Slots are spaced
// 1000/perSecond ms apart (a generic cell rate algorithm with a small burst), where perSecond is
// this client's share of its organization's bucket (tenantShare.ts: learnt from the service's
// headers and refusals). Waiters are served interactive first, then bulk, each in arrival order;
// a 429 pauses everyone (with jitter, so clients refused together do not come back together):
// its Retry-After, or, for the per-second bucket, until the service's window ends when the last
// answer said that comes sooner (Retry-After is whole seconds; the window may end in 100 ms).
import { PriorityWaiters } from "./priorityWaiters.js";
import { BudgetTracker, readCount } from "./budgets.js";
import type { PacingStatus } from "./pacing.js";
import { TenantShare } from "./tenantShare.js";
import type { Clock, RateLimitBucket, RequestPriority } from "./types.js";
import { RELAY_PACED_HEADER } from "../contract/index.js";

export interface RateLimiterOptions {
  perSecond: number;
  burst: number;
  /** Extra spacing as a share of the interval. */
  safetyMargin: number;
  /** One request alone until the first answer (see RateLimitOptions.probeFirst). */
  probeFirst?: boolean;
  /** Learn a share of the organization's bucket (default true); false keeps the configured rate. */
  cooperative?: boolean;
  /** In [0, 1), for the jitter after a refusal (default Math.random). */
  random?: () => number;
}

export type { PacingStatus } from "./pacing.js";

interface Waiter {
  signal: AbortSignal | undefined;
  grant(): void;
  fail(reason: unknown): void;
}

type Headers = { get(name: string): string | null };

/** The service's per-second window. */
const WINDOW_MS = 1000;
/** Clients refused together spread their return over at least a tenth of a window. */
const MIN_JITTER_SPAN_MS = 400;

export class RateLimiter {
  private readonly stretch: number;
  private readonly slackMs: number;
  private readonly burst: number;
  private readonly share: TenantShare;
  private readonly cooperative: boolean;
  private readonly random: () => number;
  private readonly tracker: BudgetTracker;
  /** Theoretical arrival time of the next request when the bucket is drained. */
  private tat = Number.NEGATIVE_INFINITY;
  private pausedUntil = Number.NEGATIVE_INFINITY;
  /** The bucket whose refusal set the current pause. */
  private pausedBy: RateLimitBucket | undefined;
  /** Whether an answer from the service has been seen (its limit headers, if any, read). */
  private learned: boolean;
  private probe: { answered: Promise<void>; resolve: () => void } | undefined;
  private readonly queues = new PriorityWaiters<Waiter>();
  private pumping = false;
  private readonly listeners = new Set<(status: PacingStatus) => void>();
  private lastWaiting = false;
  /** When the service's current one-second window ends (clock ms), as the last answer said. */
  private windowEndsAt: number | undefined;

  constructor(
    private readonly clock: Clock,
    options: RateLimiterOptions,
  ) {
    if (!(options.perSecond > 0)) throw new RangeError("rateLimit.perSecond must be greater than 0");
    this.stretch = 1 + Math.max(0, options.safetyMargin);
    // perSecond + 1 grants span at least 1000 * stretch - slack ms: half the margin absorbs
    // lateness here, half the jitter on the way to the service.
    this.slackMs = ((this.stretch - 1) * 1000) / 2;
    this.burst = Math.max(1, Math.floor(options.burst));
    this.learned = !options.probeFirst;
    this.cooperative = options.cooperative ?? true;
    this.random = options.random ?? Math.random;
    this.share = new TenantShare(clock, { maxPerSecond: options.perSecond });
    this.tracker = new BudgetTracker(clock);
  }

  /** Requests per second currently allowed (before the safety margin). */
  get perSecond(): number {
    return this.cooperative ? this.share.perSecond : this.share.maxPerSecond;
  }

  private get intervalMs(): number {
    return (1000 / this.perSecond) * this.stretch;
  }

  status(): PacingStatus {
    const queued = this.queues.size > 0;
    return {
      perSecond: this.perSecond,
      maxPerSecond: this.share.maxPerSecond,
      waitingForOrganization: queued && (this.pausedUntil > this.clock.now() || (this.cooperative && this.share.crowded(5000))),
      budgets: this.tracker.budgets,
    };
  }

  /** Calls `listener` when waitingForOrganization or a budget changes; returns the unsubscribe. */
  onStatus(listener: (status: PacingStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Waits for a slot; rejects with the signal's reason when aborted first (at once: the waiter
   * leaves its queue). Interactive waiters go before bulk ones; a waiter woken late moves the
   * next slots with it (beyond a small slack), so a late request and an on-time one after it
   * never come closer than a one-second window at the service allows.
   */
  acquire(signal?: AbortSignal, priority: RequestPriority = "interactive"): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason ?? new Error("aborted"));
        return;
      }
      const onAbort = () => {
        this.queues.remove(waiter);
        reject(signal?.reason ?? new Error("aborted"));
        this.notify(false);
      };
      const waiter: Waiter = {
        signal,
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        fail: (reason) => {
          signal?.removeEventListener("abort", onAbort);
          reject(reason instanceof Error ? reason : new Error(String(reason)));
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queues.push(priority, waiter);
      void this.pump();
    });
  }

  /** One loop hands out slots while anyone waits, so waiters never race each other for one. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (;;) {
        const next = this.queues.peek()?.waiter;
        if (!next) break;
        // Until the first answer tells the service's limits, one request at a time: an account
        // allowed 5 a second would otherwise see a burst at the configured 25 first.
        if (!this.learned && this.probe) {
          await this.probe.answered;
          continue;
        }
        const now = this.clock.now();
        const earliest = Math.max(this.pausedUntil, this.tat - (this.burst - 1) * this.intervalMs);
        if (now >= earliest) {
          // Every grant is at most `slack` after its point on a schedule whose points are an
          // interval apart: a grant a little late keeps the schedule (no throughput lost to
          // timer lateness), a later one (or one after an idle spell) moves it, so perSecond + 1
          // grants always span 1000 * stretch - slack ms, more than one second.
          this.tat = Math.max(this.tat, now - this.slackMs) + this.intervalMs;
          if (!this.learned) this.probe = deferred();
          this.share.granted();
          this.queues.shift();
          next.grant();
          continue;
        }
        // Sleeps to the next slot; a waiter that arrives meanwhile is served by this same loop.
        await this.clock.sleep(earliest - now);
      }
    } finally {
      this.pumping = false;
      this.notify(false);
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
    this.notify(false);
  }

  /**
   * The service refused a request of this client (429): everyone here waits its Retry-After (or
   * to the end of the per-second window, when sooner) plus a jitter of up to a quarter of it,
   * and a refusal of the per-second bucket lowers this client's share. Returns the wait.
   */
  refused(retryAfterMs: number, bucket: RateLimitBucket | undefined): number {
    const perSecond = bucket === undefined || bucket === "second";
    if (perSecond) this.share.refused();
    const baseMs = perSecond ? Math.min(retryAfterMs, this.untilWindowEnds() ?? retryAfterMs) : retryAfterMs;
    const waitMs = baseMs + Math.floor(this.random() * Math.min(Math.max(baseMs, MIN_JITTER_SPAN_MS) / 4, 1000));
    if (this.clock.now() + waitMs > this.pausedUntil) this.pausedBy = bucket;
    this.pauseFor(waitMs);
    return waitMs;
  }

  /** Time left in the service's current window (ms), when the last answer told it and it fits the clock. */
  private untilWindowEnds(): number | undefined {
    if (this.windowEndsAt === undefined) return undefined;
    const left = this.windowEndsAt - this.clock.now();
    return left >= 0 && left <= WINDOW_MS ? left : undefined;
  }

  /** How long nothing may be sent from now (ms, 0 when not paused) and which bucket said so. */
  pause(): { remainingMs: number; bucket: RateLimitBucket | undefined } {
    return { remainingMs: Math.max(0, this.pausedUntil - this.clock.now()), bucket: this.pausedBy };
  }

  /**
   * Every granted request reports back once: with the answer's headers, or without when there
   * was no answer (dropped, timed out, cancelled), so the next request may probe instead.
   */
  settle(headers: Headers | undefined): void {
    if (headers) {
      this.learned = true;
      this.observe(headers);
    }
    const probe = this.probe;
    this.probe = undefined;
    probe?.resolve();
  }

  /**
   * Reads X-RateLimit-Limit-Second (a lower allowance than configured lowers the ceiling),
   * X-RateLimit-Remaining-Second (0: the service's window is full, so any saved-up burst is
   * dropped; with others' requests in it, this client gives way), and the hour and day buckets.
   * -1 means unknown and is ignored.
   */
  observe(headers: Headers): void {
    const before = this.intervalMs;
    const limit = readCount(headers.get("x-ratelimit-limit-second"));
    if (limit !== undefined && limit > 0) this.share.limitIs(limit);
    const remaining = readCount(headers.get("x-ratelimit-remaining-second"));
    const reset = readCount(headers.get("x-ratelimit-reset-second"));
    if (reset !== undefined) this.windowEndsAt = reset * 1000;
    // Behind a relay that paces the organization, the others in the window are its concern: this
    // client keeps its full rate and the relay's queue decides who goes when.
    const relayPaces = headers.get(RELAY_PACED_HEADER) !== null;
    if (remaining !== undefined && limit !== undefined && this.cooperative && !relayPaces)
      this.share.answered(remaining, limit, reset === undefined ? undefined : reset * 1000);
    const interval = this.intervalMs;
    // The slot already planned after the last grant was for the old pace: plan it again.
    if (interval !== before) this.tat = this.tat - before + interval;
    if (remaining === 0) this.tat = Math.max(this.tat, this.clock.now() + (this.burst - 1) * interval);
    this.notify(this.tracker.observe(headers));
  }

  private notify(budgetsChanged: boolean): void {
    if (this.listeners.size === 0) return;
    const status = this.status();
    if (!budgetsChanged && status.waitingForOrganization === this.lastWaiting) return;
    this.lastWaiting = status.waitingForOrganization;
    for (const listener of this.listeners) listener(status);
  }
}

function deferred(): { answered: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const answered = new Promise<void>((r) => (resolve = r));
  return { answered, resolve };
}
