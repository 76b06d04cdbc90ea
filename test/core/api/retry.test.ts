import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DEFAULT_RETRY, backoffDelay, shouldRetry, type RetryDecisionInput } from "../../../src/core/api/index.js";

const base: RetryDecisionInput = {
  kind: "server",
  status: 503,
  attempt: 1,
  tokenRefreshed: false,
  idempotent: true,
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

  it("gives up on a 429 whose Retry-After is longer than the cap", () => {
    const d = shouldRetry({ ...base, kind: "rateLimited", status: 429, retryAfterMs: 61000, maxRetryAfterMs: 60000 });
    assert.equal(d.retry, false);
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
