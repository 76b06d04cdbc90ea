// A fixed-window counter per client address, and the 429 answer once it is used up. The clock
// is injected so tests step time instead of waiting for it. State is per instance: behind a load
// balancer each instance limits its own share, which is enough to stop one address hammering
// the service.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { RateLimitRule } from "./config.js";
import { refuse } from "./cors.js";

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until the window resets (for Retry-After). */
  retryAfterSeconds: number;
}

export interface AddressLimiter {
  take(address: string): RateDecision;
}

/** Windows are forgotten once expired; this bounds the map between sweeps. */
const SWEEP_AT = 10_000;

export function createAddressLimiter(rule: RateLimitRule, now: () => number): AddressLimiter {
  const windows = new Map<string, { startedAt: number; count: number }>();
  return {
    take(address) {
      const t = now();
      if (windows.size >= SWEEP_AT) {
        for (const [key, w] of windows) if (t - w.startedAt >= rule.windowMs) windows.delete(key);
      }
      let window = windows.get(address);
      if (!window || t - window.startedAt >= rule.windowMs) {
        window = { startedAt: t, count: 0 };
        windows.set(address, window);
      }
      const retryAfterSeconds = Math.max(1, Math.ceil((window.startedAt + rule.windowMs - t) / 1000));
      if (window.count >= rule.max) return { allowed: false, retryAfterSeconds };
      window.count += 1;
      return { allowed: true, retryAfterSeconds };
    },
  };
}

/**
 * Takes one request of the caller's address; when its window is used up, answers 429 with
 * Retry-After (naming `what` was refused) and returns that answer, else undefined.
 */
export function refuseWhenLimited(limiter: AddressLimiter, request: FastifyRequest, reply: FastifyReply, what: string): FastifyReply | undefined {
  const decision = limiter.take(request.ip);
  if (decision.allowed) return undefined;
  void reply.header("retry-after", String(decision.retryAfterSeconds));
  return refuse(reply, 429, "too_many_requests", `Too many ${what} from this address. Try again in ${decision.retryAfterSeconds} s.`);
}
