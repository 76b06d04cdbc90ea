import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DEFAULT_RETRY, backoffDelay, shouldRetry, type RetryDecisionInput } from "../../../src/core/api/index.js";

const base: RetryDecisionInput = {
  kind: "server",
  status: 503,
  attempt: 1,
  tokenRefreshed: false,
  idempotent: true,
  priority: "interactive",
  elapsedMs: 0,
  random: 0.5,
  ...DEFAULT_RETRY,
};

describe("shouldRetry", () => {
  for (const [kind, status] of [
    ["validation", 400],
    ["paymentRequired", 402],
    ["forbidden", 403],
    ["notFound", 404],
    ["invalidResponse", 200],
    ["cancelled", 0],
  ] as const) {
    it(`never retries ${kind} (${status})`, () => {
      assert.equal(shouldRetry({ ...base, kind, status }).retry, false);
    });
  }

  it("retries 5xx, dropped connections and timeouts with full-jitter exponential backoff", () => {
    for (const kind of ["server", "network", "timeout"] as const) {
      for (const attempt of [1, 2, 3]) {
        const d = shouldRetry({ ...base, kind, attempt, random: 0.999999, baseDelayMs: 100, maxDelayMs: 10000 });
        assert.equal(d.retry, true);
        if (d.retry) {
          const ceiling = 100 * 2 ** (attempt - 1);
          assert.ok(d.delayMs < ceiling && d.delayMs >= ceiling - 1, `${kind} attempt ${attempt}: ${d.delayMs}`);
        }
        const low = shouldRetry({ ...base, kind, attempt, random: 0 });
        assert.ok(low.retry && low.delayMs === 0);
      }
    }
  });

  it("caps one backoff delay", () => {
    assert.equal(backoffDelay(20, 0.999999, 500, 8000), 7999);
  });

  it("gives up after maxAttempts", () => {
    assert.equal(shouldRetry({ ...base, attempt: 4, maxAttempts: 4 }).retry, false);
    assert.equal(shouldRetry({ ...base, attempt: 3, maxAttempts: 4 }).retry, true);
  });

  it("does not repeat a non-idempotent request after a 5xx, drop or timeout", () => {
    for (const kind of ["server", "network", "timeout"] as const) {
      assert.equal(shouldRetry({ ...base, kind, idempotent: false }).retry, false);
    }
  });

  it("waits exactly Retry-After on 429, even for a non-idempotent request", () => {
    const d = shouldRetry({ ...base, kind: "rateLimited", status: 429, retryAfterMs: 3000, idempotent: false });
    assert.deepEqual(d.retry && [d.delayMs, d.refreshToken], [3000, false]);
  });

  it("gives up on a 429 only when waiting would pass the request's patience, never after a count", () => {
    const limited = { ...base, kind: "rateLimited", status: 429, retryAfterMs: 1000 } as const;
    // The hundredth refusal of a request that has waited 20 s is still worth waiting for.
    assert.equal(shouldRetry({ ...limited, attempt: 100, elapsedMs: 20_000 }).retry, true);
    assert.equal(shouldRetry({ ...limited, attempt: 2, elapsedMs: 29_500 }).retry, false, "a cell's 30 s are up");
    // Bulk work has minutes.
    assert.equal(shouldRetry({ ...limited, priority: "bulk", attempt: 300, elapsedMs: 200_000 }).retry, true);
    assert.equal(shouldRetry({ ...limited, priority: "bulk", elapsedMs: 299_500 }).retry, false);
    // A Retry-After beyond the patience (an hour bucket used up) fails at once.
    assert.equal(shouldRetry({ ...limited, priority: "bulk", retryAfterMs: 3_600_000 }).retry, false);
  });

  it("honours the service's retryable: false never retries, true retries with backoff", () => {
    assert.equal(shouldRetry({ ...base, kind: "server", status: 500, retryable: false }).retry, false);
    assert.equal(shouldRetry({ ...base, kind: "rateLimited", status: 429, retryAfterMs: 1000, retryable: false }).retry, false);
    const d = shouldRetry({ ...base, kind: "validation", status: 400, retryable: true, random: 0.999999, baseDelayMs: 100 });
    assert.ok(d.retry && d.delayMs === 99, JSON.stringify(d));
    assert.equal(shouldRetry({ ...base, kind: "validation", status: 400, retryable: true, attempt: 4 }).retry, false, "still capped by attempts");
    assert.equal(shouldRetry({ ...base, kind: "server", status: 504, idempotent: false, retryable: true }).retry, true, "the service vouches it had no effect");
    // Absent: today's rules.
    assert.equal(shouldRetry({ ...base, kind: "validation", status: 400 }).retry, false);
    assert.equal(shouldRetry({ ...base, kind: "server", status: 500 }).retry, true);
  });

  it("gives bulk requests more attempts after a 5xx than interactive ones", () => {
    assert.equal(shouldRetry({ ...base, attempt: 4 }).retry, false);
    assert.equal(shouldRetry({ ...base, attempt: 4, priority: "bulk" }).retry, true);
    assert.equal(shouldRetry({ ...base, attempt: 6, priority: "bulk" }).retry, false);
  });

  it("backs off on a 429 without Retry-After", () => {
    const d = shouldRetry({ ...base, kind: "rateLimited", status: 429, random: 0.5, baseDelayMs: 1000, attempt: 2 });
    assert.ok(d.retry && d.delayMs === 1000);
  });

  it("refreshes the token once on 401, then gives up", () => {
    const first = shouldRetry({ ...base, kind: "unauthorized", status: 401 });
    assert.ok(first.retry && first.refreshToken && first.delayMs === 0);
    assert.equal(shouldRetry({ ...base, kind: "unauthorized", status: 401, tokenRefreshed: true }).retry, false);
  });
});
