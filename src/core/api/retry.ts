// The retry decision, as a pure function of one failed attempt (after stripe-node): what to do
// depends only on the input, so every rule is tested without a network or a clock.
import type { RetryDecision, RetryDecisionInput, RetryOptions } from "./types.js";

export const DEFAULT_RETRY: Required<RetryOptions> = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60000,
};

/** Full jitter: a uniform delay in [0, min(cap, base * 2^(attempt-1))). */
export function backoffDelay(attempt: number, random: number, baseDelayMs: number, maxDelayMs: number): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random * ceiling);
}

export function shouldRetry(input: RetryDecisionInput): RetryDecision {
  const { kind, attempt, maxAttempts } = input;
  // 401: the token may have just expired; one refresh, one more try.
  if (kind === "unauthorized") {
    if (input.tokenRefreshed) return { retry: false, reason: "still unauthorized after a token refresh" };
    return { retry: true, delayMs: 0, refreshToken: true, reason: "unauthorized: refresh the token once" };
  }
  if (attempt >= maxAttempts) return { retry: false, reason: `gave up after ${attempt} attempts` };
  switch (kind) {
    case "rateLimited": {
      // A refused request used no quota, so even a non-idempotent one is safe to send again.
      if (input.retryAfterMs !== undefined) {
        if (input.retryAfterMs > input.maxRetryAfterMs) {
          return { retry: false, reason: `Retry-After ${input.retryAfterMs} ms is longer than the ${input.maxRetryAfterMs} ms the client waits` };
        }
        return { retry: true, delayMs: input.retryAfterMs, refreshToken: false, reason: "rate limited: wait Retry-After" };
      }
      return {
        retry: true,
        delayMs: backoffDelay(attempt, input.random, input.baseDelayMs, input.maxDelayMs),
        refreshToken: false,
        reason: "rate limited without Retry-After: back off",
      };
    }
    case "server":
    case "network":
    case "timeout": {
      // The first request may have reached the service: only repeat what is harmless to repeat.
      if (!input.idempotent) return { retry: false, reason: `${kind} on a request that must not be sent twice` };
      // 501 Not Implemented will not get better.
      if (input.status === 501) return { retry: false, reason: "501 is permanent" };
      return {
        retry: true,
        delayMs: backoffDelay(attempt, input.random, input.baseDelayMs, input.maxDelayMs),
        refreshToken: false,
        reason: `${kind}: back off and retry`,
      };
    }
    default:
      // validation (400), paymentRequired (402), forbidden (403), notFound (404), invalidResponse, cancelled
      return { retry: false, reason: `${kind} is not retried` };
  }
}
