// Requests per client address, through @fastify/rate-limit: a fixed window per address and
// route, answered with 429 and Retry-After once used up. The client address is the one
// Fastify's trustProxy setting gives (config.ts). State is per instance: behind a load
// balancer each instance limits its own share, which is enough to stop one address hammering
// the service. The plugin's own X-RateLimit-* headers are off: relayed answers carry the
// service's, which the add-in reads.
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import type { RateLimitRule } from "./config.js";

/** Addresses remembered per route (least recently seen forgotten first). */
const ADDRESSES_KEPT = 100_000;

/** The 429 the error handler turns into an OAuth-style answer. */
export class AddressLimitedError extends Error {
  readonly statusCode = 429;
  readonly code = "BROKER_RATE_LIMITED";
  constructor(what: string, retryAfterSeconds: number) {
    super(`Too many ${what} from this address. Try again in ${retryAfterSeconds} s.`);
  }
}

export async function registerRateLimits(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    addHeaders: { "x-ratelimit-limit": false, "x-ratelimit-remaining": false, "x-ratelimit-reset": false, "retry-after": true },
    addHeadersOnExceeding: { "x-ratelimit-limit": false, "x-ratelimit-remaining": false, "x-ratelimit-reset": false },
  });
}

/** Route config limiting `what` (named in the 429's description) by `rule`. */
export function addressLimit(rule: RateLimitRule, what: string) {
  return {
    rateLimit: {
      max: rule.max,
      timeWindow: rule.windowMs,
      cache: ADDRESSES_KEPT,
      errorResponseBuilder: (_request: unknown, context: { ttl: number }) => new AddressLimitedError(what, Math.max(1, Math.ceil(context.ttl / 1000))),
    },
  };
}
