// Central pacing of relayed calls: one queue per tenant, fair between its users (round robin),
// interactive requests ahead of bulk ones, leaving at the tenant's package rate so the
// service never has to refuse one. Time is cut into slots of 1000/perSecond ms (plus a safety
// margin) on a grid every instance shares; a request leaves at the start of a slot its
// instance has claimed. Claims go through rate-limiter-flexible: one point per slot key, in
// memory for one instance, in Redis when several instances share the tenant.
import type { Clock, RequestPriority as Priority } from "../core/contract/index.js";
import type { RelayPacing } from "./config.js";
import type { SlotStore } from "./slots.js";

export { PRIORITY_HEADER } from "../core/contract/index.js";
export { memorySlots, redisSlots, sharedSlots, type SlotStore } from "./slots.js";
export type { Priority };

/** Refused because the wait would exceed the configured longest queue wait. */
export class QueueFullError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("The organization's requests are queued beyond the longest wait.");
    this.name = "QueueFullError";
  }
}

interface Waiter {
  user: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Waiters of one priority, served round robin between users. */
class UserRing {
  private readonly byUser = new Map<string, Waiter[]>();
  size = 0;
  push(waiter: Waiter): void {
    const list = this.byUser.get(waiter.user);
    if (list) list.push(waiter);
    else this.byUser.set(waiter.user, [waiter]);
    this.size += 1;
  }
  /** The first waiter of the user whose turn it is; that user then goes to the back. */
  shift(): Waiter | undefined {
    for (const [user, list] of this.byUser) {
      const waiter = list.shift();
      this.byUser.delete(user);
      if (list.length > 0) this.byUser.set(user, list);
      if (waiter) {
        this.size -= 1;
        return waiter;
      }
    }
    return undefined;
  }
  /** How many of this user's requests wait here. */
  countOf(user: string): number {
    return this.byUser.get(user)?.length ?? 0;
  }
  /**
   * Where a new request of `user` would leave, served in turns: each other user has at most one
   * more request ahead of it than this user already has waiting.
   */
  positionFor(user: string): number {
    const mine = this.countOf(user);
    let ahead = mine;
    for (const [other, list] of this.byUser) if (other !== user) ahead += Math.min(list.length, mine + 1);
    return ahead + 1;
  }
  remove(waiter: Waiter): boolean {
    const list = this.byUser.get(waiter.user);
    const at = list?.indexOf(waiter) ?? -1;
    if (!list || at < 0) return false;
    list.splice(at, 1);
    if (list.length === 0) this.byUser.delete(waiter.user);
    this.size -= 1;
    return true;
  }
}

class TenantLane {
  readonly interactive = new UserRing();
  readonly bulk = new UserRing();
  pumping = false;
  lastSlot = -Infinity;
  get size(): number {
    return this.interactive.size + this.bulk.size;
  }
  next(): Waiter | undefined {
    return this.interactive.shift() ?? this.bulk.shift();
  }
}

/** What the pacer did with a slot: gave it to a request, or let it pass because its timer ran late. */
export type PacingEvent = "released" | "late";

export interface TenantPacer {
  /** Resolves when the request may leave; rejects with QueueFullError, or the signal's reason. */
  take(tenant: string, user: string, priority: Priority, signal?: AbortSignal): Promise<void>;
  /** Milliseconds between two requests of one tenant. */
  readonly slotMs: number;
}

/**
 * Interactive requests one user may have waiting before more of them wait as bulk: a person
 * waits on a screenful of cells, not on a flood; one user's flood marked interactive must not
 * hold back everyone else's.
 */
export function interactiveShareOf(perSecond: number): number {
  return Math.max(2, perSecond);
}

export function createTenantPacer(
  pacing: Pick<RelayPacing, "perSecond" | "safetyMargin" | "maxQueueWaitMs">,
  store: SlotStore,
  clock: Clock,
  onEvent: (event: PacingEvent) => void = () => undefined,
): TenantPacer {
  return new Pacer(pacing, store, clock, onEvent);
}

/** Each tenant's lane of waiting requests, released one per claimed slot (createTenantPacer). */
class Pacer implements TenantPacer {
  readonly slotMs: number;
  /**
   * A request that would leave later than this after its slot began waits for another slot:
   * the margin absorbs lateness only up to half of its size.
   */
  private readonly lateToleranceMs: number;
  private readonly interactiveShare: number;
  private readonly lanes = new Map<string, TenantLane>();

  constructor(
    private readonly pacing: Pick<RelayPacing, "perSecond" | "safetyMargin" | "maxQueueWaitMs">,
    private readonly store: SlotStore,
    private readonly clock: Clock,
    private readonly onEvent: (event: PacingEvent) => void,
  ) {
    this.slotMs = (1000 / pacing.perSecond) * (1 + pacing.safetyMargin);
    this.lateToleranceMs = Math.max(1, (1000 * pacing.safetyMargin) / 2);
    this.interactiveShare = interactiveShareOf(pacing.perSecond);
  }

  take(tenant: string, user: string, priority: Priority, signal?: AbortSignal): Promise<void> {
    let lane = this.lanes.get(tenant);
    if (!lane) {
      lane = new TenantLane();
      this.lanes.set(tenant, lane);
    }
    const { ring, position } = this.placeOf(lane, user, priority);
    const expectedWaitMs = position * this.slotMs;
    if (expectedWaitMs > this.pacing.maxQueueWaitMs) {
      if (lane.size === 0) this.lanes.delete(tenant);
      return Promise.reject(new QueueFullError(Math.ceil(expectedWaitMs / 1000)));
    }
    const joined = lane;
    return this.waitInRing(ring, user, signal, () => {
      if (!joined.pumping) void this.pump(tenant, joined);
    });
  }

  /** Claims the next free slot; a slot lost because the claim itself was slow tells the store. */
  private async claimNext(tenant: string, lane: TenantLane): Promise<number | undefined> {
    const { clock, slotMs, lateToleranceMs } = this;
    let slot = Math.max(Math.ceil((clock.now() - lateToleranceMs) / slotMs), lane.lastSlot + 1);
    while (!(await this.store.claim(`${tenant}:${slot}`))) slot += 1;
    lane.lastSlot = slot;
    const startsAt = slot * slotMs;
    const claimedLate = clock.now() - startsAt > lateToleranceMs;
    const wait = startsAt - clock.now();
    if (wait > 0) await clock.sleep(wait);
    if (clock.now() - startsAt <= lateToleranceMs) return slot;
    this.onEvent("late");
    // The claim itself ended after its slot: the store is too slow to pace on.
    if (claimedLate) this.store.slow?.();
    return undefined;
  }

  private async pump(tenant: string, lane: TenantLane): Promise<void> {
    lane.pumping = true;
    try {
      while (lane.size > 0) {
        if ((await this.claimNext(tenant, lane)) === undefined) continue;
        const waiter = lane.next();
        if (waiter) {
          this.onEvent("released");
          waiter.resolve();
        }
      }
    } catch (error) {
      for (let waiter = lane.next(); waiter; waiter = lane.next()) waiter.reject(error);
    } finally {
      lane.pumping = false;
      if (lane.size === 0) this.lanes.delete(tenant);
    }
  }

  /** The ring a request waits in, and the slots expected before it leaves (served in turns). */
  private placeOf(lane: TenantLane, user: string, priority: Priority): { ring: UserRing; position: number } {
    if (priority === "interactive" && lane.interactive.countOf(user) < this.interactiveShare) {
      return { ring: lane.interactive, position: lane.interactive.positionFor(user) };
    }
    return { ring: lane.bulk, position: lane.interactive.size + lane.bulk.positionFor(user) };
  }

  /**
   * Waits in `ring` until released, the caller goes away, or the longest queue wait (and one slot)
   * has passed: slots lost on the way (a late timer, a slow store) never leave a request unanswered.
   */
  private waitInRing(ring: UserRing, user: string, signal: AbortSignal | undefined, start: () => void): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const deadline = new AbortController();
    return new Promise<void>((resolve, reject) => {
      const finish = (error?: unknown) => {
        signal?.removeEventListener("abort", onAbort);
        deadline.abort();
        if (error === undefined) resolve();
        else reject(error);
      };
      const waiter: Waiter = { user, resolve: () => finish(), reject: finish };
      const onAbort = () => {
        if (ring.remove(waiter)) finish(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.clock.sleep(this.pacing.maxQueueWaitMs + this.slotMs, deadline.signal).then(
        () => {
          if (ring.remove(waiter)) finish(new QueueFullError(1));
        },
        () => undefined,
      );
      ring.push(waiter);
      start();
    });
  }
}
