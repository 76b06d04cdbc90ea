// Per-account request windows (second, hour, day), fixed windows as the gateway counts them.
// Rejected requests use no quota. Every answer carries each bucket's X-RateLimit-Limit-*,
// -Remaining-* and -Reset-*; a 429 adds Retry-After, X-RateLimit-Rejected-Bucket and X-RateLimit-Reset.
import { sandboxClock, type RateLimitWindows, type Clock } from "./context.js";

export type Bucket = "second" | "hour" | "day";

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
  rejectedBucket?: Bucket;
}

const WINDOWS: { bucket: Bucket; key: keyof RateLimitWindows; ms: number; header: string }[] = [
  { bucket: "second", key: "perSecond", ms: 1000, header: "Second" },
  { bucket: "hour", key: "perHour", ms: 3_600_000, header: "Hour" },
  { bucket: "day", key: "perDay", ms: 86_400_000, header: "Day" },
];

interface Counter {
  window: number;
  count: number;
}

export interface RateLimiter {
  take(account: string): RateDecision;
  /** Requests accepted for the account in the current day window. */
  usedToday(account: string): number;
  reset(): void;
}

export function createRateLimiter(limits: () => RateLimitWindows, clock: Clock = sandboxClock): RateLimiter {
  const counters = new Map<string, Counter[]>();
  const current = (account: string, now: number): Counter[] => {
    let list = counters.get(account);
    if (!list) {
      list = WINDOWS.map(() => ({ window: -1, count: 0 }));
      counters.set(account, list);
    }
    WINDOWS.forEach((w, i) => {
      const window = Math.floor(now / w.ms);
      const c = list![i]!;
      if (c.window !== window) {
        c.window = window;
        c.count = 0;
      }
    });
    return list;
  };
  return {
    take(account) {
      const now = clock.now();
      const list = current(account, now);
      const l = limits();
      const rejected = WINDOWS.findIndex((w, i) => list[i]!.count >= l[w.key]);
      if (rejected < 0) for (const c of list) c.count += 1;
      const headers: Record<string, string> = {};
      WINDOWS.forEach((w, i) => {
        headers[`X-RateLimit-Limit-${w.header}`] = String(l[w.key]);
        headers[`X-RateLimit-Remaining-${w.header}`] = String(Math.max(0, l[w.key] - list[i]!.count));
        // When the window fills again, in epoch seconds (as the service's X-RateLimit-Reset).
        headers[`X-RateLimit-Reset-${w.header}`] = String(Math.ceil(((list[i]!.window + 1) * w.ms) / 1000));
      });
      if (rejected < 0) return { allowed: true, headers };
      const w = WINDOWS[rejected]!;
      const resetMs = (list[rejected]!.window + 1) * w.ms;
      headers["Retry-After"] = String(Math.max(1, Math.ceil((resetMs - now) / 1000)));
      headers["X-RateLimit-Rejected-Bucket"] = w.bucket;
      headers["X-RateLimit-Reset"] = String(Math.ceil(resetMs / 1000));
      return { allowed: false, headers, rejectedBucket: w.bucket };
    },
    usedToday(account) {
      return current(account, clock.now())[2]!.count;
    },
    reset: () => counters.clear(),
  };
}
