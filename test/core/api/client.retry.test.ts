// Retry, backoff, Retry-After, 401 refresh, timeouts, cancellation and redaction, with a
// scripted transport and a fake clock.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ServiceError } from "../../../src/core/api/index.js";
import { harness, rejection } from "./harness.js";
import { TOKEN, answer, companyPage } from "./scripted.js";

const page = (n = 1) => answer(200, companyPage([1, 2, 3], n, 3, 25));
const AUDIENCE = "3f2b1c9e-1234-4abc-9def-0123456789ab";

describe("retry with a scripted transport", () => {
  it("retries a 503 after a full-jitter backoff and then succeeds", async () => {
    const h = harness((_r, i) => (i === 0 ? answer(503, { errors: [] }) : page()));
    const result = await h.clock.run(h.client.searchCompanies({ companyName: "Acme" }));
    assert.equal(result.items.length, 3);
    assert.equal(h.requests.length, 2);
    // random 0.5 of base 100 ms on the first retry
    assert.equal(h.requests[1]!.at - h.requests[0]!.at, 50);
  });

  it("backs off exponentially and gives up after maxAttempts", async () => {
    const h = harness(() => answer(500, "oops"), { random: () => 0.999 });
    const error = await h.clock.run(rejection(h.client.searchCompanies({})));
    assert.ok(error instanceof ServiceError && error.kind === "server" && error.status === 500);
    assert.equal(h.requests.length, 4);
    const gaps = h.requests.slice(1).map((r, i) => r.at - h.requests[i]!.at);
    assert.deepEqual(gaps, [99, 199, 399]);
  });

  it("waits Retry-After on a 429 and holds every other request back meanwhile", async () => {
    let limited = false;
    const h = harness((r) => {
      if (!limited && r.query.get("page[number]") === "1") {
        limited = true;
        return answer(429, { error: { code: "RATE", message: "slow down" } }, { "Retry-After": "2" });
      }
      return page(Number(r.query.get("page[number]")));
    });
    const first = h.client.searchCompanies({}, { page: 1 });
    await h.clock.flush();
    const second = h.client.searchCompanies({}, { page: 2 });
    await h.clock.run(Promise.all([first, second]));
    const retried = h.requests.filter((r) => r.query.get("page[number]") === "1");
    const other = h.requests.find((r) => r.query.get("page[number]") === "2")!;
    assert.equal(retried.length, 2);
    assert.ok(retried[1]!.at >= 2000, `retry at ${retried[1]!.at}`);
    assert.ok(other.at >= 2000, `other request at ${other.at}`);
  });

  it("gives up at once on a Retry-After longer than the configured cap", async () => {
    const h = harness(() => answer(429, {}, { "Retry-After": "3600" }));
    const error = await h.clock.run(rejection(h.client.searchCompanies({})));
    assert.ok(error instanceof ServiceError && error.kind === "rateLimited" && error.retryAfterMs === 3600000);
    assert.equal(h.requests.length, 1);
  });

  for (const status of [400, 402, 403, 404]) {
    it(`never retries ${status}`, async () => {
      const h = harness(() => answer(status, { errors: [{ id: "1", code: "C", status: String(status), detail: "no" }] }));
      const error = await h.clock.run(rejection(h.client.searchCompanies({})));
      assert.ok(error instanceof ServiceError && error.status === status);
      assert.equal(h.requests.length, 1);
    });
  }

  it("refreshes the token once on a 401 and retries once with the new token", async () => {
    const h = harness((r) => (r.headers.authorization === `Bearer ${TOKEN}` ? answer(401, {}) : page()));
    await h.clock.run(h.client.searchCompanies({}));
    assert.equal(h.requests.length, 2);
    assert.deepEqual(h.tokens.calls[1], { forceRefresh: true });
    assert.equal(h.tokens.calls.filter((c) => c?.forceRefresh).length, 1);
    assert.equal(h.requests[1]!.headers.authorization, `Bearer ${TOKEN}-refreshed`);
  });

  it("refreshes once for many requests, and queued requests take the new token", async () => {
    const h = harness((r) => (r.headers.authorization === `Bearer ${TOKEN}` ? answer(401, {}) : page()), { concurrency: 6 });
    await h.clock.run(Promise.all(Array.from({ length: 5 }, () => h.client.searchCompanies({}))));
    assert.equal(h.tokens.calls.filter((c) => c?.forceRefresh).length, 1);
    // Only the first went out with the old token; it and the four queued behind it succeed.
    assert.equal(h.requests.length, 6);
  });

  it("refreshes once when requests in flight together are all refused", async () => {
    const h = harness(
      async (r, i) => {
        if (i === 0) return page(); // the token is still good for the first request
        await h.clock.sleep(500);
        return r.headers.authorization === `Bearer ${TOKEN}` ? answer(401, {}) : page();
      },
      { concurrency: 6 },
    );
    await h.clock.run(h.client.searchCompanies({}));
    await h.clock.run(Promise.all(Array.from({ length: 5 }, () => h.client.searchCompanies({}))));
    assert.equal(h.tokens.calls.filter((c) => c?.forceRefresh).length, 1);
    assert.equal(h.requests.length, 1 + 5 + 5);
  });

  it("answers unauthorized when the refreshed token is refused too", async () => {
    const h = harness(() => answer(401, { error: { code: "ZI0001", message: "expired" } }));
    const error = await h.clock.run(rejection(h.client.searchCompanies({})));
    assert.ok(error instanceof ServiceError && error.kind === "unauthorized");
    assert.equal(h.requests.length, 2);
    assert.equal(h.tokens.calls.filter((c) => c?.forceRefresh).length, 1);
  });

  it("sends nothing and asks no refresh when there is no token at all", async () => {
    const asked: unknown[] = [];
    const h = harness(() => answer(200, {}), {
      getAccessToken: async (r) => {
        asked.push(r);
        throw new Error("no account signed in");
      },
    });
    const error = await h.clock.run(rejection(h.client.searchCompanies({})));
    assert.ok(error instanceof ServiceError && error.kind === "unauthorized" && error.status === 0);
    assert.match(error.userMessage, /Sign in/);
    assert.equal(asked.length, 1);
    assert.equal(h.requests.length, 0);
  });

  it("retries a dropped connection", async () => {
    const h = harness((_r, i) => (i < 2 ? new TypeError("fetch failed: ECONNRESET") : page()));
    await h.clock.run(h.client.searchCompanies({}));
    assert.equal(h.requests.length, 3);
  });

  it("times out a request that gets no answer, retries it, and reports a timeout", async () => {
    const h = harness(() => "hang", { timeoutMs: 5000, retry: { maxAttempts: 2, baseDelayMs: 100 } });
    const error = await h.clock.run(rejection(h.client.searchCompanies({})));
    assert.ok(error instanceof ServiceError && error.kind === "timeout", String(error));
    assert.equal(h.requests.length, 2);
  });

  it("does not repeat starting an audience job after a 5xx or a dropped connection", async () => {
    for (const failure of [answer(503, {}), new TypeError("socket hang up")]) {
      const h = harness(() => failure);
      const error = await h.clock.run(rejection(h.client.startAudienceEnrichment(AUDIENCE, { scope: "AUDIENCE" })));
      assert.ok(error instanceof ServiceError);
      assert.equal(h.requests.length, 1);
    }
  });

  it("stops when cancelled during a backoff, and sends nothing more", async () => {
    const controller = new AbortController();
    const h = harness(() => answer(503, {}), { retry: { baseDelayMs: 10000, maxDelayMs: 10000 } });
    const pending = rejection(h.client.searchCompanies({}, { signal: controller.signal }));
    await h.clock.advance(100);
    assert.equal(h.requests.length, 1);
    controller.abort();
    const error = await h.clock.run(pending);
    assert.ok(error instanceof ServiceError && error.kind === "cancelled");
    await h.clock.advance(60000);
    assert.equal(h.requests.length, 1);
  });

  it("cancels a request in flight", async () => {
    const controller = new AbortController();
    const h = harness(() => "hang");
    const pending = rejection(h.client.searchCompanies({}, { signal: controller.signal }));
    await h.clock.flush();
    controller.abort();
    const error = await h.clock.run(pending);
    assert.ok(error instanceof ServiceError && error.kind === "cancelled");
    assert.equal(h.requests.length, 1);
  });

  it("keeps tokens out of errors and log lines even when the service echoes them", async () => {
    const echo = `Invalid header Authorization: Bearer ${TOKEN}`;
    const h = harness(() => answer(403, { errors: [{ id: "1", code: "FORBIDDEN", status: "403", detail: echo }] }));
    const error = await h.clock.run(rejection(h.client.searchCompanies({})));
    assert.ok(error instanceof ServiceError);
    const all = JSON.stringify(error.toJSON()) + error.message + error.userMessage + String(error.stack) + JSON.stringify(h.logs);
    assert.ok(!all.includes(TOKEN));
    assert.ok(h.logs.length > 0);
  });

  it("refuses an answer of the wrong shape or not JSON, without retrying", async () => {
    for (const bad of [answer(200, { data: [{ id: 1 }] }), answer(200, "<html>")]) {
      const h = harness(() => bad);
      const error = await h.clock.run(rejection(h.client.searchCompanies({})));
      assert.ok(error instanceof ServiceError && error.kind === "invalidResponse", String(error));
      assert.equal(h.requests.length, 1);
    }
  });
});

describe("validation before sending", () => {
  it("never sends an invalid search and names the field", async () => {
    const h = harness(() => page());
    const error = await h.clock.run(rejection(h.client.searchCompanies({ revenueMin: 10, revenueMax: 5 })));
    assert.ok(error instanceof ServiceError && error.kind === "validation");
    assert.equal(error.issues[0]?.pointer, "/data/attributes/revenueMin");
    assert.equal(error.issues[0]?.label, "Revenue from ($K)");
    assert.match(error.userMessage, /Revenue from/);
    const pageError = await h.clock.run(rejection(h.client.searchCompanies({}, { size: 101 })));
    assert.ok(pageError instanceof ServiceError && pageError.issues[0]?.parameter === "page[size]");
    const unknown = await h.clock.run(rejection(h.client.searchContacts({ nickname: "x" } as never)));
    assert.ok(unknown instanceof ServiceError && unknown.kind === "validation");
    assert.equal(h.requests.length, 0);
  });

  it("never sends an enrichment with unknown output fields", async () => {
    const h = harness(() => answer(200, { data: [] }));
    const error = await h.clock.run(rejection(h.client.enrichCompanies([{ companyId: 1 }], ["name", "shoeSize"])));
    assert.ok(error instanceof ServiceError && error.kind === "validation");
    assert.match(error.issues[0]?.pointer ?? "", /^\/data\/attributes\/outputFields/);
    assert.equal(h.requests.length, 0);
  });

  it("never sends an audience enrichment with scope ROW and no rows, or a bad audience id", async () => {
    const h = harness(() => answer(204));
    const noRows = await h.clock.run(rejection(h.client.startAudienceEnrichment("3f2b1c9e-1234-4abc-9def-0123456789ab", { scope: "ROW" })));
    assert.ok(noRows instanceof ServiceError && noRows.issues[0]?.pointer === "/data/attributes/rows");
    const badId = await h.clock.run(rejection(h.client.getAudience("not-an-id")));
    assert.ok(badId instanceof ServiceError && badId.kind === "validation");
    assert.equal(h.requests.length, 0);
  });
});
