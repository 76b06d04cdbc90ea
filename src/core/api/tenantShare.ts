// This client's share of its organization's per-second bucket. The bucket belongs to the
// organization, not the user: every add-in of one company draws on it, and no add-in knows how
// many others are running. So each one learns its share from what the service says:
//   - `Limit - Remaining` counts everyone's requests in the window; more than this client sent
//     means others are there (a lone client never sees that, and stays at the full rate);
//   - the first sight of others cuts every client alike, to a tenth;
//   - where the answer says when the window ends, the count so far is the organization's pace,
//     and every client scales its rate by the same factor toward 95% of the limit;
//   - a refusal halves the rate of a client alone (once per window); with others in the bucket it
//     cuts a fifth, and a full window with others in it a tenth: which client's request lands
//     in a full window is chance, and a deep cut of the unlucky ones would keep them behind;
//   - between signals the rate creeps up by the same step for every client sharing the bucket
//     (additive increase, multiplicative decrease: shares that drifted apart come together
//     again), and after a few answers with nobody else in the window it doubles each second
//     back to the full rate.
// The pace estimate assumes the client's clock agrees with the service's within a fraction of a
// second (windows of one second, `X-RateLimit-Reset-Second` in epoch seconds); an answer whose
// window does not fit the client's clock is not used for it. Figures: docs/teams.md.
import type { Clock } from "./types.js";

export interface TenantShareOptions {
  /** The highest rate: the configured one, lowered by the service's X-RateLimit-Limit-Second. */
  maxPerSecond: number;
  /** Never below this (requests a second), so a crowded client still makes progress. */
  minPerSecond?: number;
  /** Factor applied on a refusal while no other client was seen (default 0.5). */
  decrease?: number;
  /** Factor applied on a refusal with other clients in the bucket (default 0.8). */
  sharedDecrease?: number;
  /** Factor applied when an answer shows the window full with others' requests (default 0.9). */
  earlyDecrease?: number;
  /**
   * Additive increase between signals, in requests a second gained per second of sending, as a
   * share of the maximum (default 0.02); with others in the bucket, a fifth of it, the same for
   * every client.
   */
  increase?: number;
  /** Rate a client starts at, as a share of the maximum (default 1: a lone user starts at the floor). */
  start?: number;
}

/** The length of the service's shortest window; one decrease per window is enough. */
const WINDOW_MS = 1000;
/** Answers in a row without anyone else in the window before this client takes the bucket as its own. */
const CALM_ANSWERS = 3;
/** The share of the limit the organization's clients aim to fill together, and how fast they move there. */
const PACE_TARGET = 0.95;
const PACE_GAIN_UP = 0.1;
const PACE_GAIN_DOWN = 0.5;
/** Where a client that first meets others in the bucket drops to, as a share of the full rate. */
const FIRST_SIGHT_SHARE = 0.1;
/** The additive step of a client sharing the bucket, as a share of a lone client's. */
const SHARED_STEP = 0.2;

export class TenantShare {
  private rate: number;
  private max: number;
  private readonly configuredMax: number;
  private readonly min: number;
  private readonly decrease: number;
  private readonly sharedDecrease: number;
  private readonly earlyDecrease: number;
  private readonly increase: number;
  private lastDecrease = Number.NEGATIVE_INFINITY;
  private lastGrant: number | undefined;
  /** This client's own recent grants, for telling its own requests from others' in a window. */
  private readonly recent: number[] = [];
  /** When this client last saw other clients' requests in the bucket (or a refusal). */
  private crowdedAt = Number.NEGATIVE_INFINITY;
  /** Whether an answer ever showed other clients' requests in the window. */
  private othersSeen = false;
  /** Answers in a row that showed no other client's requests in the window. */
  private calmAnswers = 0;

  constructor(
    private readonly clock: Pick<Clock, "now">,
    options: TenantShareOptions,
  ) {
    this.configuredMax = options.maxPerSecond;
    this.max = options.maxPerSecond;
    this.min = Math.min(this.max, options.minPerSecond ?? 0.2);
    this.decrease = options.decrease ?? 0.5;
    this.sharedDecrease = options.sharedDecrease ?? 0.8;
    this.earlyDecrease = options.earlyDecrease ?? 0.9;
    this.increase = options.increase ?? 0.02;
    this.rate = this.max * Math.min(1, Math.max(0, options.start ?? 1));
    this.rate = Math.max(this.min, this.rate);
  }

  /** Requests a second this client allows itself now. */
  get perSecond(): number {
    return this.rate;
  }

  /** The ceiling (configured, or the service's lower limit). */
  get maxPerSecond(): number {
    return this.max;
  }

  /** Whether others' requests or a refusal were seen in the last `withinMs`. */
  crowded(withinMs = 10_000): boolean {
    return this.clock.now() - this.crowdedAt <= withinMs;
  }

  /** The service's per-second limit: the ceiling never rises above the configured rate. */
  limitIs(limit: number): void {
    const max = Math.min(this.configuredMax, limit);
    if (max === this.max) return;
    const raised = max > this.max;
    this.max = max;
    // A higher allowance (a larger plan) is taken at once by a client that shares it with nobody.
    this.rate = raised && !this.crowded() ? max : Math.min(this.rate, max);
  }

  /** A request of this client was let out: the rate grows with the time spent sending. */
  granted(): void {
    const now = this.clock.now();
    if (this.lastGrant !== undefined) {
      const busyMs = Math.min(WINDOW_MS, now - this.lastGrant);
      // Alone in the bucket for a while (others finished or paused): regain the rate quickly,
      // doubling each second, rather than by the slow additive step meant for sharing.
      const calm = this.calmAnswers >= CALM_ANSWERS;
      // Sharing: the same step for every client, whatever its share. A step in proportion to the
      // share would keep any gap between clients for good (each grows by the same factor); the
      // same step for all, against cuts in proportion to the rate, closes it (additive increase,
      // multiplicative decrease).
      const step = calm ? this.rate * Math.LN2 : this.increase * this.max * (this.othersSeen ? SHARED_STEP : 1);
      this.rate = Math.min(this.max, this.rate + (step * busyMs) / 1000);
    }
    this.lastGrant = now;
    this.recent.push(now);
    // Grants older than a window and its answer's way back can no longer be in the service's window.
    while (this.recent.length > 0 && this.recent[0]! < now - 2 * WINDOW_MS) this.recent.shift();
  }

  /**
   * An answer with the bucket's state: `remaining` of `limit` left in the current one-second
   * window. Requests in the window beyond this client's own are other clients'; a full window
   * with others in it means the organization is at its limit, so this client gives way a little.
   */
  answered(remaining: number, limit: number, resetAt?: number): void {
    const now = this.clock.now();
    const used = limit - remaining;
    const own = this.recent.filter((t) => t > now - 2 * WINDOW_MS).length;
    if (used <= own) {
      this.calmAnswers += 1;
      return;
    }
    this.calmAnswers = 0;
    this.othersSeen = true;
    const firstSight = this.crowdedAt === Number.NEGATIVE_INFINITY;
    this.crowdedAt = now;
    // The first sight of others: from the full rate straight down to a tenth of it, the same for
    // every client (one answer cannot tell how many more are coming, and a cut that depended on
    // who arrived first would stay unfair), instead of learning it from a second of refusals.
    // The organization's pace (below) then brings the share up or down.
    if (firstSight) this.rate = Math.max(this.min, Math.min(this.rate, this.max * FIRST_SIGHT_SHARE));
    if (remaining === 0) this.cut(this.earlyDecrease, now);
    // Where the service says when its one-second window ends, the requests in it so far tell
    // the whole organization's pace: every client scales its own by the same factor toward
    // the limit, so together they fill it without passing it.
    const elapsed = resetAt === undefined ? undefined : now - (resetAt - WINDOW_MS);
    if (elapsed !== undefined && elapsed >= 0.3 * WINDOW_MS && elapsed <= WINDOW_MS) {
      const pace = (used * WINDOW_MS) / elapsed;
      const target = PACE_TARGET * limit;
      // Down faster than up: a window over the limit costs refusals, one under it a little time.
      const gain = pace > target ? PACE_GAIN_DOWN : PACE_GAIN_UP;
      this.rate = Math.max(this.min, Math.min(this.max, this.rate * (1 + gain * (target / pace - 1))));
    }
  }

  /** The service refused a request for the per-second bucket. */
  refused(): void {
    const now = this.clock.now();
    // Alone, the refusal is this client's own pace; with others, it is the bucket's.
    const factor = this.othersSeen ? this.sharedDecrease : this.decrease;
    this.crowdedAt = now;
    this.calmAnswers = 0;
    this.cut(factor, now);
  }

  private cut(factor: number, now: number): void {
    // Refusals of one full window come together: they are one signal, not several.
    if (now - this.lastDecrease < WINDOW_MS) return;
    this.lastDecrease = now;
    this.rate = Math.max(this.min, this.rate * factor);
  }
}
