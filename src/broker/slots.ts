// Where the relay's pacing claims its slots: in memory for one instance, in Redis (through
// rate-limiter-flexible) when several instances share a tenant. A shared store that fails, or
// answers so slowly that a slot is lost waiting for it, is set aside at once: this instance
// then paces alone in memory, says so once in the log, and tries the shared store again a few
// seconds later. A request never waits on a store that does not answer.
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Redis } from "ioredis";
import type { Clock } from "../core/contract/index.js";

/** Slot keys live a little longer than any instance could be behind. */
const SLOT_KEY_SECONDS = 10;
const KEY_PREFIX = "bizdata-relay-slot";

/** Claims a slot once across every instance sharing the store. */
export interface SlotStore {
  claim(key: string): Promise<boolean>;
  /** Told when a slot was lost because its claim took too long (the store is too slow to pace on). */
  slow?(): void;
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

/** Slots shared through Redis. A failure is thrown, not hidden: sharedSlots decides what to do. */
export function redisSlots(redis: Redis): SlotStore {
  return slotsOf(new RateLimiterRedis({ storeClient: redis, points: 1, duration: SLOT_KEY_SECONDS, keyPrefix: KEY_PREFIX }));
}

/** How long a failed or slow shared store is set aside before it is tried again. */
export const SHARED_STORE_RETRY_MS = 5000;

export type SharedStoreState = "alone" | "shared";

/**
 * The shared store while it answers, else this instance's own memory: set aside at the first
 * failure, claim unanswered within SHARED_CLAIM_TIMEOUT_MS or slot lost to a slow claim, and
 * tried again after SHARED_STORE_RETRY_MS. `onChange` hears each change
 * of state once (not each request).
 */
/** A shared claim not answered within this is given up (ioredis has its own limit too). */
export const SHARED_CLAIM_TIMEOUT_MS = 250;

/** The claim's answer, or a rejection once `ms` have passed on the clock. */
async function within<T>(promise: Promise<T>, ms: number, clock: Pick<Clock, "sleep">): Promise<T> {
  const over = new AbortController();
  const timeUp = clock.sleep(ms, over.signal).then(
    () => Promise.reject(new Error("the shared store did not answer in time")),
    () => new Promise<never>(() => undefined),
  );
  try {
    return await Promise.race([promise, timeUp]);
  } finally {
    over.abort();
  }
}

export function sharedSlots(shared: SlotStore, local: SlotStore, clock: Pick<Clock, "now" | "sleep">, onChange: (state: SharedStoreState) => void): SlotStore {
  let asideUntil = Number.NEGATIVE_INFINITY;
  let alone = false;
  const setAside = () => {
    asideUntil = clock.now() + SHARED_STORE_RETRY_MS;
    if (!alone) onChange("alone");
    alone = true;
  };
  return {
    async claim(key) {
      if (clock.now() < asideUntil) return local.claim(key);
      try {
        const claimed = await within(shared.claim(key), SHARED_CLAIM_TIMEOUT_MS, clock);
        if (alone) onChange("shared");
        alone = false;
        return claimed;
      } catch {
        setAside();
        return local.claim(key);
      }
    },
    slow: setAside,
  };
}
