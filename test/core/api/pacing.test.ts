// Pacing on the organization's bucket, on the fake clock: a team of clients of one account, a
// lone client at the floor, interactive requests ahead of bulk ones, 429 patience bounded by
// time (not by a count), Cancel while waiting, and the service's `retryable`.
import { createEnrichmentEngine } from "../../../src/core/enrich/index.js";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ServiceError } from "../../../src/core/api/index.js";
import { harness, rejection } from "./harness.js";
import { answer, companyPage, FakeClock } from "./scripted.js";
import { burst, simulatedTenant, teamClient } from "./team.js";

const page = () => answer(200, companyPage([1], 1, 1, 1));
const refusal = () =>
  answer(429, { error: { code: "ZI0004", message: "Too many requests", status: 429 } }, { "Retry-After": "1", "X-RateLimit-Rejected-Bucket": "second" });

describe("a team on one organization's bucket", () => {
  it("twenty clients sending 40 requests each at once all finish, with few refusals", async () => {
    const clock = new FakeClock();
    const tenant = simulatedTenant(clock, { perSecond: 25, latencyMs: 40 });
    const clients = Array.from({ length: 20 }, (_, i) => teamClient(clock, tenant, i + 1));
    const ends = await clock.run(Promise.all(clients.map((c) => burst(c, clock, 40))));
    assert.equal(tenant.stats.accepted, 800, "every request got its answer");
    const refusedShare = tenant.stats.refused / (tenant.stats.accepted + tenant.stats.refused);
    // Every client at the full rate (no sharing) is refused more than half the time.
    assert.ok(refusedShare < 0.15, `refused ${(refusedShare * 100).toFixed(1)}%`);
    const floor = (800 / 25) * 1000;
    assert.ok(Math.max(...ends) < 1.3 * floor, `team wall ${Math.max(...ends)} ms against a floor of ${floor} ms`);
    // Shares that drift apart come together again: nobody is starved while the others finish.
    const spread = Math.max(...ends) / Math.min(...ends);
    assert.ok(spread <= 1.4, `the slowest user took ${spread.toFixed(2)} times as long as the fastest`);
  });

  it("a lone client runs at the floor and is never refused", async () => {
    const clock = new FakeClock();
    const tenant = simulatedTenant(clock, { perSecond: 25, latencyMs: 40 });
    const end = await clock.run(burst(teamClient(clock, tenant, 1), clock, 100));
    assert.equal(tenant.stats.refused, 0);
    // 100 requests at 25/s with a 2% margin, plus the last answer's latency.
    assert.ok(end <= (100 / 25) * 1000 * 1.02 + 40 + 1, `took ${end} ms`);
  });

  it("a client that meets others in the bucket slows down, and takes the whole of it back once alone", async () => {
    const clock = new FakeClock();
    const tenant = simulatedTenant(clock, { perSecond: 25, latencyMs: 40 });
    const [a, b] = [teamClient(clock, tenant, 1), teamClient(clock, tenant, 2)];
    await clock.run(Promise.all([burst(a, clock, 60), burst(b, clock, 20)]));
    assert.ok(a.pacing().perSecond < 25 || b.pacing().perSecond < 25, "the two shared the bucket");
    await clock.run(burst(a, clock, 60));
    assert.ok(a.pacing().perSecond > 24, `alone again at ${a.pacing().perSecond}/s`);
  });
});

describe("interactive before bulk", () => {
  it("a cell's request leaves before an import's queued pages", async () => {
    const h = harness(() => page(), { rateLimit: { perSecond: 10, safetyMargin: 0 } });
    const bulk = Array.from({ length: 30 }, (_, i) => h.client.searchCompanies({}, { page: i + 1, size: 1, priority: "bulk" }));
    await h.clock.advance(1000);
    const cell = h.client.searchCompanies({ companyName: "cell" }, { size: 1 });
    await h.clock.run(cell);
    const sentAt = h.requests.findIndex((r) => (r.body as { data: { attributes: { companyName?: string } } }).data.attributes.companyName === "cell");
    // About ten bulk pages had left in the first second; the cell's request is the next one out.
    assert.ok(sentAt <= 12, `the cell's request was number ${sentAt + 1} of ${h.requests.length}`);
    await h.clock.run(Promise.all(bulk));
  });
});

describe("patience on a 429 is bounded by time", () => {
  it("an interactive request keeps waiting through many refusals and fails only when its 30 s are up", async () => {
    const h = harness(() => refusal(), { retry: { patienceMs: 30_000 } });
    const error = await h.clock.run(rejection(h.client.searchCompanies({})));
    assert.ok(error instanceof ServiceError && error.kind === "rateLimited", String(error));
    assert.ok(h.requests.length > 15, `${h.requests.length} attempts, not a fixed four`);
    assert.ok(h.clock.now() <= 30_000 && h.clock.now() >= 25_000, `gave up at ${h.clock.now()} ms`);
  });

  it("bulk work waits minutes, and Cancel ends the wait at once", async () => {
    let refusals = 0;
    const h = harness(() => (refusals++ < 150 ? refusal() : page()));
    const controller = new AbortController();
    const pending = h.client.searchCompanies({}, { priority: "bulk", signal: controller.signal });
    await h.clock.advance(60_000);
    assert.ok(h.requests.length > 10, `still trying after a minute (${h.requests.length} attempts)`);
    controller.abort();
    const error = await rejection(pending);
    assert.ok(error instanceof ServiceError && error.kind === "cancelled", String(error));
    const sent = h.requests.length;
    await h.clock.advance(10_000);
    assert.equal(h.requests.length, sent, "nothing is sent after Cancel");
    // Without Cancel, the same refusals end in success.
    refusals = 0;
    const h2 = harness(() => (refusals++ < 150 ? refusal() : page()));
    const result = await h2.clock.run(h2.client.searchCompanies({}, { priority: "bulk" }));
    assert.equal(result.items.length, 1);
  });
});

describe("the service's retryable", () => {
  it("false stops a retry the status would allow; true retries what the status would not", async () => {
    const notRetryable = harness(() => answer(500, { error: { code: "PFAPI0007", message: "Internal", status: 500, retryable: false } }));
    const e1 = await notRetryable.clock.run(rejection(notRetryable.client.searchCompanies({})));
    assert.ok(e1 instanceof ServiceError && e1.retryable === false);
    assert.equal(notRetryable.requests.length, 1);

    const retryable = harness((_r, i) => (i === 0 ? answer(400, { errors: [{ code: "PFAPI0010", status: "400", detail: "busy", retryable: true }] }) : page()));
    const ok = await retryable.clock.run(retryable.client.searchCompanies({}));
    assert.equal(ok.items.length, 1);
    assert.equal(retryable.requests.length, 2);

    const silent = harness(() => answer(400, { errors: [{ code: "PFAPI0002", status: "400", detail: "bad" }] }));
    const e3 = await silent.clock.run(rejection(silent.client.searchCompanies({})));
    assert.ok(e3 instanceof ServiceError && e3.retryable === undefined);
    assert.equal(silent.requests.length, 1);
  });
});

describe("the organization's hour and day buckets", () => {
  it("an hour bucket used up fails the request at once, saying when it opens, and holds the next one without sending", async () => {
    const h = harness(() =>
      answer(429, { error: { code: "ZI0004", message: "Too many requests", status: 429 } }, { "Retry-After": "1800", "X-RateLimit-Rejected-Bucket": "hour" }),
    );
    const error = await h.clock.run(rejection(h.client.searchCompanies({})));
    assert.ok(error instanceof ServiceError && error.kind === "rateLimited" && error.rateLimitBucket === "hour", String(error));
    assert.match(error.userMessage, /hourly request allowance .* about 30 min/);
    const next = await h.clock.run(rejection(h.client.searchCompanies({})));
    assert.ok(next instanceof ServiceError && next.kind === "rateLimited");
    assert.equal(h.requests.length, 1, "the second request was not sent into a closed bucket");
  });

  it("reads the budgets from the headers for the usage view", async () => {
    const h = harness(() =>
      answer(200, companyPage([1], 1, 1, 1), {
        "X-RateLimit-Limit-Hour": "54000",
        "X-RateLimit-Remaining-Hour": "120",
        "X-RateLimit-Limit-Day": "648000",
        "X-RateLimit-Remaining-Day": "-1",
      }),
    );
    await h.clock.run(h.client.searchCompanies({}));
    assert.deepEqual(h.client.pacing().budgets, { hour: { limit: 54000, remaining: 120, readAt: 0 } });
  });
});

describe("abort listeners", () => {
  it("a signal shared by a thousand-id enrichment (through the pipeline) carries a listener per request in flight, not one per request", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on("warning", onWarning);
    try {
      const h = harness((r) => {
        const body = r.body as { data: { attributes: { matchCompanyInput: { companyId: number }[] } } };
        const data = body.data.attributes.matchCompanyInput.map((input) => ({
          type: "EnrichResult",
          id: String(input.companyId),
          attributes: {},
          meta: { matchStatus: "FULL_MATCH", input },
        }));
        return answer(200, { data });
      });
      const controller = new AbortController();
      const ids = Array.from({ length: 1000 }, (_, i) => i + 1);
      const pipeline = createEnrichmentEngine({ client: h.client, dailyNewRecordCap: 10_000 });
      const results = await h.clock.run(pipeline.enrichIds("company", ids, ["name"], { signal: controller.signal, concurrency: 64 }));
      assert.equal([...results.values()].filter((r) => r.ok).length, 1000);
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
      assert.deepEqual(
        warnings.filter((w) => w.startsWith("MaxListenersExceededWarning")),
        [],
      );
    } finally {
      process.off("warning", onWarning);
    }
  });
});
