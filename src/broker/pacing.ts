// Central pacing of relayed calls: one queue per tenant, fair between its users (round robin),
// interactive requests ahead of bulk ones, leaving at the tenant's package rate so the
// service never has to refuse one. Time is cut into slots of 1000/perSecond ms (plus a safety
// margin) on a grid every instance shares; a request leaves at the start of a slot its
// instance has claimed. Claims go through rate-limiter-flexible: one point per slot key, in
// memory for one instance, in Redis when several instances share the tenant.
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Redis } from "ioredis";
import type { Clock, RequestPriority as Priority } from "../core/contract/index.js";
import type { RelayPacing } from "./config.js";

export { PRIORITY_HEADER } from "../core/contract/index.js";
export type { Priority };

/** Refused because the wait would exceed the configured longest queue wait. */
export class QueueFullError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("The organization's requests are queued beyond the longest wait.");
    this.name = "QueueFullError";
  }
}

/** Slot keys live a little longer than any instance could be behind. */
const SLOT_KEY_SECONDS = 10;
const KEY_PREFIX = "bizdata-relay-slot";

/** Claims a slot once across every instance sharing the store. */
export interface SlotStore {
  claim(key: string): Promise<boolean>;
}

function slotsOf(limiter: RateLimiterAbstract): SlotStore {
  return {
    async claim(key) {
      try {
        await limiter.consume(key, 1);
        return true;
      } catch (error) {
        if (error instanceof RateLimiterRes) return false;
        throw error;
      }
    },
  };
}

export function memorySlots(): SlotStore {
  return slotsOf(new RateLimiterMemory({ points: 1, duration: SLOT_KEY_SECONDS, keyPrefix: KEY_PREFIX }));
}

/** Slots shared through Redis; if Redis fails, this instance goes on pacing alone (in memory). */
export function redisSlots(redis: Redis): SlotStore {
  return slotsOf(
    new RateLimiterRedis({
      storeClient: redis,
      points: 1,
      duration: SLOT_KEY_SECONDS,
      keyPrefix: KEY_PREFIX,
      insuranceLimiter: new RateLimiterMemory({ points: 1, duration: SLOT_KEY_SECONDS, keyPrefix: KEY_PREFIX }),
    }),
  );
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

export function createTenantPacer(
  pacing: Pick<RelayPacing, "perSecond" | "safetyMargin" | "maxQueueWaitMs">,
  store: SlotStore,
  clock: Clock,
  onEvent: (event: PacingEvent) => void = () => undefined,
): TenantPacer {
  const slotMs = (1000 / pacing.perSecond) * (1 + pacing.safetyMargin);
  // A request that would leave later than this after its slot began waits for another slot:
  // the margin absorbs lateness only up to half of its size.
  const lateToleranceMs = Math.max(1, (1000 * pacing.safetyMargin) / 2);
  const lanes = new Map<string, TenantLane>();

  async function pump(tenant: string, lane: TenantLane): Promise<void> {
    lane.pumping = true;
    try {
      while (lane.size > 0) {
        let slot = Math.max(Math.ceil((clock.now() - lateToleranceMs) / slotMs), lane.lastSlot + 1);
        while (!(await store.claim(`${tenant}:${slot}`))) slot += 1;
        lane.lastSlot = slot;
        const startsAt = slot * slotMs;
        const wait = startsAt - clock.now();
        if (wait > 0) await clock.sleep(wait);
        if (clock.now() - startsAt > lateToleranceMs) {
          onEvent("late");
          continue;
        }
        const waiter = lane.next();
        if (waiter) {
          onEvent("released");
          waiter.resolve();
        }
      }
    } catch (error) {
      for (let waiter = lane.next(); waiter; waiter = lane.next()) waiter.reject(error);
    } finally {
      lane.pumping = false;
      if (lane.size === 0) lanes.delete(tenant);
    }
  }

  return {
    slotMs,
    take(tenant, user, priority, signal) {
      let lane = lanes.get(tenant);
      if (!lane) {
        lane = new TenantLane();
        lanes.set(tenant, lane);
      }
      const ahead = priority === "interactive" ? lane.interactive.size : lane.size;
      const expectedWaitMs = (ahead + 1) * slotMs;
      if (expectedWaitMs > pacing.maxQueueWaitMs) return Promise.reject(new QueueFullError(Math.ceil(expectedWaitMs / 1000)));
      const ring = priority === "interactive" ? lane.interactive : lane.bulk;
      const current = lane;
      return new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          if (ring.remove(waiter)) reject(signal?.reason);
        };
        const waiter: Waiter = {
          user,
          resolve: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          },
          reject: (error) => {
            signal?.removeEventListener("abort", onAbort);
            reject(error);
          },
        };
        if (signal?.aborted) return reject(signal.reason);
        signal?.addEventListener("abort", onAbort, { once: true });
        ring.push(waiter);
        if (!current.pumping) void pump(tenant, current);
      });
    },
  };
}
