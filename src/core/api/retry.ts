// The retry decision, as a pure function of one failed attempt (after stripe-node): what to do
// depends only on the input, so every rule is tested without a network or a clock.
//
// A 429 is not a failure of the request but a turn not yet come: the organization's bucket is
// shared by every user of it, and a refused request used none of it. So a 429 is retried as
// long as the request's patience lasts (bounded by time, by its priority), never a fixed number
// of times. A 5xx, a dropped connection or a timeout may have reached the service: those are
// retried a few times, and only when a repeat is harmless. The service's `retryable`, when it
// says one, overrides the status.
import type { RetryDecision, RetryDecisionInput, RetryOptions } from "./types.js";

export const DEFAULT_RETRY: Required<RetryOptions> = {
  maxAttempts: 4,
  bulkMaxAttempts: 6,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  patienceMs: 30_000,
  bulkPatienceMs: 300_000,
};

/** Full jitter: a uniform delay in [0, min(cap, base * 2^(attempt-1))). */
export function backoffDelay(attempt: number, random: number, baseDelayMs: number, maxDelayMs: number): number {
  // The exponent is capped so a long run of refusals cannot overflow to Infinity.
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(30, Math.max(0, attempt - 1)));
  return Math.floor(random * ceiling);
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

export function shouldRetry(input: RetryDecisionInput): RetryDecision {
  const { kind, attempt, retryable } = input;
  // 401: the token may have just expired; one refresh, one more try (a renewed token makes it a
  // new request, so this holds whatever the refusal's `retryable` says).
  if (kind === "unauthorized") {
    if (input.tokenRefreshed) return { retry: false, reason: "still unauthorized after a token refresh" };
    return { retry: true, delayMs: 0, refreshToken: true, reason: "unauthorized: refresh the token once" };
  }
  if (kind === "cancelled") return { retry: false, reason: "cancelled" };
  if (retryable === false) return { retry: false, reason: "the service says this error is not retryable" };
  const bulk = input.priority === "bulk";
  const patienceMs = bulk ? input.bulkPatienceMs : input.patienceMs;
  const maxAttempts = bulk ? input.bulkMaxAttempts : input.maxAttempts;
  const backoff = () => backoffDelay(attempt, input.random, input.baseDelayMs, input.maxDelayMs);

  if (kind === "rateLimited") {
    // A refused request used no quota, so even a non-idempotent one is safe to send again.
    const delayMs = input.retryAfterMs ?? backoff();
    if (input.elapsedMs + delayMs > patienceMs) {
      return {
        retry: false,
        reason: `waiting ${seconds(delayMs)} more for the rate limit would pass this request's patience (${seconds(patienceMs)})`,
      };
    }
    return {
      retry: true,
      delayMs,
      refreshToken: false,
      reason: input.retryAfterMs !== undefined ? "rate limited: wait Retry-After" : "rate limited without Retry-After: back off",
    };
  }
  if (attempt >= maxAttempts) return { retry: false, reason: `gave up after ${attempt} attempts` };
  if (retryable === true) {
    // The service vouches that the request had no effect and may succeed again.
    return { retry: true, delayMs: backoff(), refreshToken: false, reason: `${kind}: the service says retryable; back off and retry` };
  }
  switch (kind) {
    case "server":
    case "network":
    case "timeout": {
      // The first request may have reached the service: only repeat what is harmless to repeat.
      if (!input.idempotent) return { retry: false, reason: `${kind} on a request that must not be sent twice` };
      // 501 Not Implemented will not get better.
      if (input.status === 501) return { retry: false, reason: "501 is permanent" };
      return { retry: true, delayMs: backoff(), refreshToken: false, reason: `${kind}: back off and retry` };
    }
    default:
      // validation (400), paymentRequired (402), forbidden (403), notFound (404), invalidResponse
      return { retry: false, reason: `${kind} is not retried` };
  }
}
