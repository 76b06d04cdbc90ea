// Rate limiter timing, concurrency cap, paging order and the page cap, enrichment chunking and
// order, the lookup cache and job polling, with a scripted transport and a fake clock.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ServiceError, type IteratedPage, type JobStatus } from "../../../src/core/api/index.js";
import { JobPoller } from "../../../src/core/jobs/index.js";
import type { CompanyItem } from "../../../src/core/contract/index.js";
import { harness, rejection } from "./harness.js";
import { answer, companyPage, type RecordedRequest } from "./scripted.js";

const AUDIENCE = "3f2b1c9e-1234-4abc-9def-0123456789ab";

/** A search over `total` companies with ids 1..total; page k answers after `delay(k)` ms. */
function searchService(total: number, delay: (page: number) => number = () => 0) {
  return (clock: { sleep(ms: number): Promise<void> }) => async (r: RecordedRequest) => {
    const n = Number(r.query.get("page[number]") ?? 1);
    const size = Number(r.query.get("page[size]") ?? 25);
    const from = (n - 1) * size + 1;
    const ids = [];
    for (let id = from; id <= Math.min(total, n * size); id += 1) ids.push(id);
    if (delay(n) > 0) await clock.sleep(delay(n));
    return answer(200, companyPage(ids, n, total, size));
  };
}

function withService(total: number, delay?: (page: number) => number, options = {}) {
  const holder: { service?: ReturnType<ReturnType<typeof searchService>> } = {};
  const h = harness((r) => holder.service!(r), options);
  holder.service = searchService(total, delay)(h.clock);
  return h;
}

async function collect(iterable: AsyncIterable<IteratedPage<CompanyItem>>) {
  const pages: IteratedPage<CompanyItem>[] = [];
  for await (const p of iterable) pages.push(p);
  return pages;
}

describe("rate limiter and concurrency cap", () => {
  it("spaces requests 1000/perSecond ms apart", async () => {
    const h = withService(1000, undefined, { rateLimit: { perSecond: 5, safetyMargin: 0 } });
    await h.clock.run(Promise.all(Array.from({ length: 6 }, (_, i) => h.client.searchCompanies({}, { page: i + 1 }))));
    assert.deepEqual(
      h.requests.map((r) => r.at),
      [0, 200, 400, 600, 800, 1000],
    );
  });

  it("adds the safety margin to the spacing (2% by default)", async () => {
    const h = withService(1000, undefined, { rateLimit: { perSecond: 5 } });
    await h.clock.run(Promise.all(Array.from({ length: 7 }, (_, i) => h.client.searchCompanies({}, { page: i + 1 }))));
    const at = h.requests.map((r) => r.at);
    // 204 ms apart; the first after an idle spell may use the 10 ms slack (half the margin).
    assert.deepEqual(
      at.slice(2).map((t, i) => t - at[i + 1]!),
      [204, 204, 204, 204, 204],
    );
    assert.ok(at[5]! - at[0]! >= 1010 && at[6]! - at[1]! >= 1010, at.join(","));
  });

  it("lets a burst out back to back after an idle spell when asked to", async () => {
    const h = withService(1000, undefined, { rateLimit: { perSecond: 5, burst: 3, safetyMargin: 0 } });
    await h.clock.run(Promise.all(Array.from({ length: 5 }, (_, i) => h.client.searchCompanies({}, { page: i + 1 }))));
    assert.deepEqual(
      h.requests.map((r) => r.at),
      [0, 0, 0, 200, 400],
    );
  });

  it("tightens to a lower X-RateLimit-Limit-Second from the service", async () => {
    const h = harness(() => answer(200, companyPage([1], 1, 1, 25), { "X-RateLimit-Limit-Second": "2", "X-RateLimit-Remaining-Second": "1" }), {
      rateLimit: { perSecond: 10, safetyMargin: 0 },
      concurrency: 1,
    });
    await h.clock.run(Promise.all(Array.from({ length: 4 }, () => h.client.searchCompanies({}))));
    const gaps = h.requests.slice(1).map((r, i) => r.at - h.requests[i]!.at);
    // The first answer came before the second slot: every gap is the service's 500 ms.
    assert.deepEqual(gaps, [500, 500, 500]);
  });

  it("keeps at most `concurrency` requests in flight", async () => {
    const h = withService(10000, () => 1000, { concurrency: 3, rateLimit: { perSecond: 1000 } });
    await h.clock.run(Promise.all(Array.from({ length: 10 }, (_, i) => h.client.searchCompanies({}, { page: i + 1 }))));
    assert.equal(h.requests.length, 10);
    assert.equal(h.transport.maxInFlight, 3);
  });
});

describe("paging", () => {
  it("yields every page in order even when later pages answer first", async () => {
    // Page 2 is slowest, so pages 3.. arrive before it.
    const h = withService(950, (n) => (n === 2 ? 3000 : 10), { rateLimit: { perSecond: 100 } });
    const progress: number[] = [];
    const pages = await h.clock.run(collect(h.client.iterateCompanies({}, { pageSize: 100, onProgress: (p) => progress.push(p.itemsYielded) })));
    assert.deepEqual(
      pages.map((p) => p.pageNumber),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    );
    const ids = pages.flatMap((p) => p.items.map((c) => Number(c.id)));
    assert.deepEqual(
      ids,
      Array.from({ length: 950 }, (_, i) => i + 1),
    );
    assert.equal(h.requests.length, 10);
    assert.deepEqual(progress.at(-1), 950);
    // Pages after the first went out before page 2 answered.
    const page3 = h.requests.find((r) => r.query.get("page[number]") === "3")!;
    assert.ok(page3.at < 3000);
  });

  it("does not ask beyond the 100-page cap and says how many results are reachable", async () => {
    const h = withService(25000, undefined, { rateLimit: { perSecond: 1000 } });
    const pages = await h.clock.run(collect(h.client.iterateCompanies({}, { pageSize: 100 })));
    assert.equal(h.requests.length, 100);
    assert.ok(h.requests.every((r) => Number(r.query.get("page[number]")) <= 100));
    const last = pages.at(-1)!.progress;
    assert.deepEqual([last.totalResults, last.reachableResults, last.itemsYielded], [25000, 10000, 10000]);
  });

  it("asks only for the pages maxResults needs and trims the last one", async () => {
    const h = withService(5000, undefined, { rateLimit: { perSecond: 1000 } });
    const pages = await h.clock.run(collect(h.client.iterateCompanies({}, { pageSize: 100, maxResults: 250 })));
    assert.equal(h.requests.length, 3);
    assert.equal(pages.flatMap((p) => p.items).length, 250);
  });

  it("sends no further page requests after the reader stops early", async () => {
    const h = withService(10000, () => 50, { rateLimit: { perSecond: 1000 } });
    const read = async () => {
      for await (const p of h.client.iterateCompanies({}, { pageSize: 100 })) if (p.pageNumber === 3) break;
    };
    await h.clock.run(read());
    const sent = h.requests.length;
    await h.clock.advance(60000);
    assert.equal(h.requests.length, sent);
    assert.ok(sent < 100 && sent <= 3 + 12, `sent ${sent}`);
  });

  it("checks the filters before the first request", async () => {
    const h = withService(10);
    const error = await h.clock.run(rejection(collect(h.client.iterateCompanies({ zipCodeRadiusMiles: 25 }))));
    assert.ok(error instanceof ServiceError && error.kind === "validation");
    assert.equal(h.requests.length, 0);
  });
});

describe("enrichment", () => {
  function enrichService() {
    return (r: RecordedRequest) => {
      const inputs = (r.body as { data: { attributes: { matchCompanyInput: Array<Record<string, unknown>> } } }).data.attributes.matchCompanyInput;
      return answer(200, {
        data: inputs.map((input) => {
          const id = input.companyId as number | undefined;
          if (id === undefined) return { id: "0", type: "NoMatch", meta: { matchStatus: "NO_MATCH", input } };
          if (id % 7 === 0) return { id: "0", type: "NoMatch", meta: { matchStatus: "NO_MATCH", input } };
          if (id % 11 === 0) return { id: "0", type: "NoMatch", meta: { matchStatus: "LIMIT_EXCEEDED", input } };
          if (id % 13 === 0) return { id: "0", type: "NoMatch", meta: { matchStatus: "SOMETHING_NEW", input } };
          return { id: String(id), type: "Company", attributes: { name: `Company ${id}` }, meta: { matchStatus: "FULL_MATCH", input } };
        }),
      });
    };
  }

  it("sends exactly the inputs it is given in one request, and answers in their order", async () => {
    const h = harness(enrichService(), { rateLimit: { perSecond: 1000 } });
    const ids = [3, 7, 11, 13, 3, 25];
    const records = await h.clock.run(
      h.client.enrichCompanies(
        ids.map((companyId) => ({ companyId })),
        ["name"],
      ),
    );
    assert.equal(h.requests.length, 1);
    const sent = (h.requests[0]!.body as { data: { attributes: { matchCompanyInput: Array<{ companyId: number }> } } }).data.attributes.matchCompanyInput.map(
      (i) => i.companyId,
    );
    assert.deepEqual(sent, ids, "no deduplication or batching here: that is the enrichment pipeline's");
    assert.deepEqual(
      records.map((r) => [r.input.companyId, r.outcome]),
      [
        [3, "matched"],
        [7, "noMatch"],
        [11, "limitExceeded"],
        [13, "other"],
        [3, "matched"],
        [25, "matched"],
      ],
    );
    assert.equal(records[3]!.matchStatus, "SOMETHING_NEW");
  });

  it("refuses more than 25 inputs without sending anything", async () => {
    const h = harness(enrichService());
    const error = await h.clock.run(
      rejection(
        h.client.enrichCompanies(
          Array.from({ length: 26 }, (_, i) => ({ companyId: i + 1 })),
          ["name"],
        ),
      ),
    );
    assert.ok(error instanceof ServiceError && error.kind === "validation", String(error));
    assert.equal(h.requests.length, 0);
  });

  it("makes a bad input its own outcome without sending it", async () => {
    const h = harness(enrichService());
    const records = await h.clock.run(h.client.enrichCompanies([{ companyId: 1 }, { companyId: -4 }, { companyId: 2 }], ["name"]));
    assert.deepEqual(
      records.map((r) => r.outcome),
      ["matched", "invalidInput", "matched"],
    );
    assert.deepEqual(
      records[1]!.issues?.map((i) => [i.pointer, i.label, i.message]),
      [["/data/attributes/matchCompanyInput/1/companyId", "Company 2: companyId", "Company 2: companyId must be 0 or more."]],
    );
    assert.equal(h.requests.length, 1);
    assert.equal((h.requests[0]!.body as { data: { attributes: { matchCompanyInput: unknown[] } } }).data.attributes.matchCompanyInput.length, 2);
  });

  it("refuses an answer with the wrong number of results", async () => {
    const h = harness(() => answer(200, { data: [] }));
    const error = await h.clock.run(rejection(h.client.enrichCompanies([{ companyId: 1 }], ["name"])));
    assert.ok(error instanceof ServiceError && error.kind === "invalidResponse");
  });

  it("returns nothing and sends nothing for no inputs", async () => {
    const h = harness(enrichService());
    assert.deepEqual(await h.clock.run(h.client.enrichCompanies([], ["name"])), []);
    assert.equal(h.requests.length, 0);
  });
});

describe("lookup cache", () => {
  it("asks once per field for the client's life, even when asked concurrently", async () => {
    const h = harness(() => answer(200, { data: [{ id: "seed", type: "FundingRoundType", attributes: { name: "Seed" } }] }));
    const [a, b] = await h.clock.run(Promise.all([h.client.lookup("funding-round-types"), h.client.lookup("funding-round-types")]));
    const c = await h.clock.run(h.client.lookup("funding-round-types"));
    assert.deepEqual([a[0]?.id, b[0]?.id, c[0]?.id], ["seed", "seed", "seed"]);
    assert.equal(h.requests.length, 1);
  });

  it("does not keep a failure", async () => {
    const h = harness((_r, i) => (i === 0 ? answer(404, {}) : answer(200, { data: [] })));
    await h.clock.run(rejection(h.client.lookup("industries")));
    await h.clock.run(h.client.lookup("industries"));
    assert.equal(h.requests.length, 2);
  });
});

describe("audience jobs", () => {
  it("starts a job and reads 204 as no rows to enrich", async () => {
    const h = harness((_r, i) => (i === 0 ? answer(202, { data: { id: "job-1", type: "EnrichJob" } }) : answer(204)));
    assert.equal(await h.clock.run(h.client.startAudienceEnrichment(AUDIENCE, { scope: "AUDIENCE" })), "job-1");
    assert.equal(await h.clock.run(h.client.startAudienceEnrichment(AUDIENCE, { scope: "AUDIENCE" })), null);
    assert.equal(h.requests[0]!.path, `/v1/audiences/${AUDIENCE}/actions/enrich`);
  });

  it("the job poller polls through the client with growing pauses up to the cap until a terminal state, honouring Retry-After", async () => {
    const states = ["SCHEDULED", "RUNNING", "RUNNING", "RUNNING", "RUNNING", "RUNNING", "RUNNING", "RUNNING", "CANCELLED"];
    const h = harness((_r, i) =>
      answer(
        200,
        { data: { id: "job-1", type: "JobStatus", attributes: { status: states[i], percentProgress: Math.min(100, i * 10) } } },
        i === 2 ? { "Retry-After": "20" } : {},
      ),
    );
    const seen: string[] = [];
    const poller = new JobPoller({ client: h.client, clock: h.clock });
    const final = await h.clock.run(
      new Promise<JobStatus>((resolve) =>
        poller.watch(AUDIENCE, "job-1", (update) => {
          if (update.kind !== "status") return;
          seen.push(update.status.status);
          if (update.status.terminal) resolve(update.status);
        }),
      ),
    );
    assert.deepEqual([final.status, final.terminal], ["CANCELLED", true]);
    assert.deepEqual(seen, states);
    const gaps = h.requests.slice(1).map((r, i) => r.at - h.requests[i]!.at);
    // A change of state (SCHEDULED -> RUNNING) starts the backoff over.
    assert.deepEqual(gaps, [1000, 1000, 20000, 2250, 3375, 5062.5, 7593.75, 10000]);
  });

  it("stops polling when the last watcher leaves", async () => {
    const h = harness(() => answer(200, { data: { id: "j", type: "JobStatus", attributes: { status: "RUNNING" } } }));
    const poller = new JobPoller({ client: h.client, clock: h.clock });
    const stop = poller.watch(AUDIENCE, "j", () => undefined);
    await h.clock.advance(2600);
    const sent = h.requests.length;
    assert.ok(sent >= 2);
    stop();
    await h.clock.advance(60000);
    assert.equal(h.requests.length, sent);
    assert.equal(poller.activeJobs, 0);
  });
});

describe("idle", () => {
  /** Whether `client.idle()` has settled once every ready callback ran. */
  async function idleNow(h: ReturnType<typeof harness>): Promise<boolean> {
    let settled = false;
    void h.client.idle().then(() => (settled = true));
    await h.clock.flush();
    return settled;
  }

  it("settles at once with nothing in flight, and only after every request and its retries settled", async () => {
    const h = harness((_r, i) => (i === 0 ? answer(503, {}) : answer(200, companyPage([1], 1, 1, 25))));
    assert.equal(await idleNow(h), true);
    const page = h.client.searchCompanies({});
    const idle = h.client.idle();
    let idled = false;
    void idle.then(() => (idled = true));
    await h.clock.flush();
    // The first attempt failed; the retry waits for its backoff: still in flight.
    assert.equal(h.requests.length, 1);
    assert.equal(idled, false);
    await h.clock.run(idle);
    assert.equal(h.requests.length, 2);
    assert.equal((await page).totalResults, 1);
    assert.equal(await idleNow(h), true);
  });

  it("settles once a cancelled request has let go, with nothing sent after it", async () => {
    const h = harness(() => "hang");
    const controller = new AbortController();
    const page = h.client.searchCompanies({}, { signal: controller.signal });
    page.catch(() => undefined);
    await h.clock.flush();
    assert.equal(await idleNow(h), false);
    controller.abort();
    await h.clock.run(h.client.idle());
    assert.ok((await rejection(page)) instanceof ServiceError);
    assert.equal(h.requests.length, 1);
    assert.equal(h.transport.inFlight, 0);
  });
});
