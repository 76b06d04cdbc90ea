// The client against the real sandbox over HTTP (in-process, port 0): paging, iteration,
// enrichment request counts, every error kind from real answers, 401 then refresh, and
// cancellation. Validation parity with the sandbox is in client.parity.sandbox.test.ts.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { createServiceClient, ServiceError, type ServiceClientOptions } from "../../../src/core/api/index.js";
import type { CompanyItem } from "../../../src/core/contract/index.js";
import { createEnrichmentEngine } from "../../../src/core/enrich/index.js";
import { JobPoller } from "../../../src/core/jobs/index.js";
import type { Clock, JobStatus } from "../../../src/core/api/types.js";
import { TEST_COMPANIES, clientTimeOn, manualClock, useSandbox } from "../../helpers/sandbox.js";
import { rejection } from "./harness.js";
import { sandboxClient } from "./sandboxClient.js";

const SEARCH = "POST /data/v1/companies/search";
const ENRICH = "POST /data/v1/companies/enrich";

const sb = useSandbox();
let token: string;

const client = (options: Partial<ServiceClientOptions> = {}) => sandboxClient(sb.url, () => token, options);

async function allIds(iterable: AsyncIterable<{ items: CompanyItem[] }>): Promise<string[]> {
  const ids: string[] = [];
  for await (const page of iterable) ids.push(...page.items.map((c) => c.id));
  return ids;
}

before(async () => {
  token = await sb.token();
  await sb.setAccount("default", 1_000_000);
});

describe("search against the sandbox", () => {
  it("pages end to end: page n holds results (n-1)*s+1 .. n*s with totals and links", async () => {
    const c = client();
    const first = await c.searchCompanies({}, { page: 1, size: 30, sort: "name" });
    const second = await c.searchCompanies({}, { page: 2, size: 30, sort: "name" });
    const both = await c.searchCompanies({}, { page: 1, size: 60, sort: "name" });
    assert.equal(first.totalResults, TEST_COMPANIES);
    assert.equal(second.pageNumber, 2);
    assert.equal(second.totalPages, Math.ceil(TEST_COMPANIES / 30));
    assert.ok(second.links.next && second.links.prev && second.links.first && second.links.last);
    assert.deepEqual(
      [...first.items, ...second.items].map((x) => x.id),
      both.items.map((x) => x.id),
    );
  });

  it("iterates thousands of results exactly once, in order, with ceil(n/100) requests", async () => {
    sb.resetStats();
    const c = client({ concurrency: 6 });
    const progress: number[] = [];
    const ids = await allIds(c.iterateCompanies({}, { pageSize: 100, sort: "-revenue", onProgress: (p) => progress.push(p.itemsYielded) }));
    assert.equal(sb.requests(SEARCH), Math.ceil(TEST_COMPANIES / 100));
    assert.equal(ids.length, TEST_COMPANIES);
    assert.equal(new Set(ids).size, TEST_COMPANIES);
    assert.equal(progress.at(-1), TEST_COMPANIES);
    // The same order as reading the pages one after another.
    const sequential: string[] = [];
    for (let n = 1; n <= Math.ceil(TEST_COMPANIES / 100); n += 1) {
      sequential.push(...(await c.searchCompanies({}, { page: n, size: 100, sort: "-revenue" })).items.map((x) => x.id));
    }
    assert.deepEqual(ids, sequential);
  });

  it("stops at the 100-page cap and reports reachable results", async () => {
    sb.resetStats();
    const c = client();
    let last: { totalResults: number; reachableResults: number } | undefined;
    const ids = await allIds(c.iterateCompanies({}, { pageSize: 10, onProgress: (p) => (last = p) }));
    assert.equal(sb.requests(SEARCH), 100);
    assert.equal(ids.length, 1000);
    assert.deepEqual(last && [last.totalResults, last.reachableResults], [TEST_COMPANIES, 1000]);
  });

  it("stops sending page requests when cancelled mid-iteration", async () => {
    await sb.setFaults({ latencyMs: 20 });
    try {
      sb.resetStats();
      const controller = new AbortController();
      const c = client({ concurrency: 2 });
      let pages = 0;
      const error = await rejection(
        (async () => {
          for await (const _page of c.iterateCompanies({}, { pageSize: 20, signal: controller.signal })) {
            pages += 1;
            if (pages === 2) controller.abort();
          }
        })(),
      );
      assert.ok(error instanceof ServiceError && error.kind === "cancelled", String(error));
      const sentAtCancel = sb.requests(SEARCH);
      // Every request the iteration started has settled: none can still reach the sandbox.
      await c.idle();
      assert.equal(sb.requests(SEARCH), sentAtCancel);
      assert.ok(sentAtCancel <= 2 + 2, `sent ${sentAtCancel} of 100 pages`);
    } finally {
      await sb.setFaults({ latencyMs: 0 });
    }
  });
});

describe("enrichment against the sandbox", () => {
  it("enriches 1,000 ids with duplicates through the pipeline in exactly ceil(unique/25) requests, in input order", async () => {
    const c = client();
    const known = (await allIds(c.iterateCompanies({}, { pageSize: 100, maxResults: 700 }))).map(Number);
    // 1,000 inputs over 700 unique ids (300 repeats), a deterministic shuffle, plus two unknown ids.
    const inputs: number[] = [];
    for (let i = 0; i < 998; i += 1) inputs.push(known[(i * 7919) % known.length]!);
    inputs.splice(10, 0, 987654321);
    inputs.splice(500, 0, 987654321);
    const unique = new Set(inputs).size;
    sb.resetStats();
    let lastProgress = { requestsDone: 0, requestsTotal: 0 };
    const engine = createEnrichmentEngine({ client: c, dailyNewRecordCap: 10_000 });
    const answers = await engine.enrichInputs("company", inputs, ["name", "revenue"], { onProgress: (p) => (lastProgress = p) });
    assert.equal(sb.requests(ENRICH), Math.ceil(unique / 25));
    assert.deepEqual([lastProgress.requestsDone, lastProgress.requestsTotal], [Math.ceil(unique / 25), Math.ceil(unique / 25)]);
    assert.equal(answers.length, inputs.length);
    answers.forEach((answer, i) => {
      if (inputs[i] === 987654321) {
        assert.ok(!answer.result.ok && answer.result.problem.kind === "noMatch");
      } else {
        assert.ok(answer.result.ok, `input ${i}`);
        assert.equal(answer.id, inputs[i]);
        assert.equal(typeof answer.result.values[0], "string");
      }
    });
  });

  it("answers LIMIT_EXCEEDED as a value when credits run out", async () => {
    await sb.setAccount("poor", 1);
    const poor = await sb.token({ account: "poor" });
    const c = client({ getAccessToken: async () => poor });
    const ids = (await allIds(c.iterateCompanies({}, { pageSize: 5, maxResults: 3 }))).map((id) => ({ companyId: Number(id) }));
    const records = await c.enrichCompanies(ids, ["name"]);
    assert.deepEqual(
      records.map((r) => r.outcome),
      ["matched", "limitExceeded", "limitExceeded"],
    );
  });
});

describe("contacts and audiences against the sandbox", () => {
  it("searches contacts and enriches them by person id", async () => {
    const c = client();
    const page = await c.searchContacts({}, { size: 30 });
    assert.equal(page.items.length, 30);
    const inputs = page.items.slice(0, 25).map((x) => ({ personId: Number(x.id) }));
    sb.resetStats();
    const records = await c.enrichContacts(inputs, ["firstName", "lastName", "email"]);
    assert.equal(sb.requests("POST /data/v1/contacts/enrich"), 1);
    assert.deepEqual(
      records.map((r) => r.input.personId),
      inputs.map((x) => x.personId),
    );
    assert.ok(records.every((r) => r.outcome === "matched" && r.id === String(r.input.personId)));
  });

  it("lists audiences, reads rows, starts a row enrichment and waits for its end", async () => {
    const c = client();
    const audiences = await c.listAudiences();
    assert.ok(audiences.length > 0);
    const audience = await c.getAudience(audiences[0]!.id);
    assert.equal(audience.id, audiences[0]!.id);
    const rows = await c.getAudienceRows(audience.id, { page: 1, size: 10 });
    assert.equal(rows.rows.length, Math.min(10, audience.attributes.recordCount));
    assert.equal(rows.totalResults, audience.attributes.recordCount);
    const picked = rows.rows.slice(0, 3).map((r) => r.id);
    const jobId = await c.startAudienceEnrichment(audience.id, { scope: "ROW", rows: picked });
    assert.ok(jobId);
    const seen: string[] = [];
    const poller = new JobPoller({ client: c, initialDelayMs: 20, maxDelayMs: 100 });
    const done = await new Promise<JobStatus>((resolve, reject) =>
      poller.watch(audience.id, jobId, (update) => {
        if (update.kind === "error") return reject(new Error(update.error.message));
        seen.push(update.status.status);
        if (update.status.terminal) resolve(update.status);
      }),
    );
    assert.ok(done.terminal && ["SUCCEEDED", "PARTIALLY_SUCCEEDED", "FAILED"].includes(done.status), done.status);
    assert.equal((await c.getJob(audience.id, jobId)).status, done.status);
    const after = await c.getAudienceRows(audience.id, { page: 1, size: 10 });
    const enriched = after.rows.filter((r) => picked.includes(r.id));
    assert.ok(enriched.every((r) => r.attributes.values.every((v) => v.state !== "BLANK" && v.state !== "LOADING")));
  });
});

describe("error kinds from real sandbox answers", () => {
  it("unauthorized: a token the sandbox does not accept, after one refresh", async () => {
    sb.resetStats();
    const calls: unknown[] = [];
    const c = client({
      getAccessToken: async (r) => {
        calls.push(r);
        return "not-a-real-token-at-all";
      },
    });
    const error = await rejection(c.usage());
    assert.ok(error instanceof ServiceError && error.kind === "unauthorized" && error.status === 401);
    assert.equal(sb.requests(), 2);
    assert.equal(calls.filter((x) => (x as { forceRefresh?: boolean } | undefined)?.forceRefresh).length, 1);
  });

  it("401 then refresh: an expired token, then a fresh one", async () => {
    const expired = await sb.token({ expiresIn: -60 });
    const fresh = await sb.token();
    sb.resetStats();
    const asked: unknown[] = [];
    const c = client({
      getAccessToken: async (r) => {
        asked.push(r);
        return r?.forceRefresh ? fresh : expired;
      },
    });
    const page = await c.searchCompanies({}, { size: 5 });
    assert.equal(page.items.length, 5);
    assert.equal(sb.requests(SEARCH), 2);
    assert.deepEqual(
      asked.filter((x) => x !== undefined),
      [{ forceRefresh: true }],
    );
  });

  it("forbidden: names the missing scope and the missing role", async () => {
    const noScope = await sb.token({ scopes: ["api:data:contact"] });
    const scopeError = await rejection(client({ getAccessToken: async () => noScope }).searchCompanies({}));
    assert.ok(scopeError instanceof ServiceError && scopeError.kind === "forbidden");
    assert.equal(scopeError.missingScope, "api:data:company");
    assert.match(scopeError.userMessage, /api:data:company/);
    const noRole = await sb.token({ roles: [] });
    const roleError = await rejection(client({ getAccessToken: async () => noRole }).searchCompanies({}));
    assert.ok(roleError instanceof ServiceError && roleError.kind === "forbidden");
    assert.ok(roleError.missingRole === "fea:zia" || roleError.missingRole === "fea:api", roleError.missingRole);
    // The service accepts either role: the message names both.
    assert.match(roleError.userMessage, /one of the roles "fea:zia" or "fea:api"/);
  });

  it("notFound and paymentRequired from the audience operations", async () => {
    const c = client();
    const missing = await rejection(c.getAudience("3f2b1c9e-1234-4abc-9def-0123456789ab"));
    assert.ok(missing instanceof ServiceError && missing.kind === "notFound" && missing.status === 404);
    await sb.setAccount("broke", 0);
    const broke = await sb.token({ account: "broke" });
    const cb = client({ getAccessToken: async () => broke });
    // Audiences belong to an account: this one is broke's.
    await fetch(`${sb.url}/__sandbox/audiences`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Broke's", type: "COMPANY", recordIds: [1, 2], account: "broke" }),
    });
    const [audience] = await cb.listAudiences();
    sb.resetStats();
    const payment = await rejection(cb.startAudienceEnrichment(audience!.id, { scope: "AUDIENCE" }));
    assert.ok(payment instanceof ServiceError && payment.kind === "paymentRequired" && payment.status === 402, String(payment));
    assert.equal(sb.requests(), 1);
  });

  it("server, network and timeout from the sandbox's fault modes, retried a few times", async () => {
    const TIMEOUT_MS = 100;
    /** Each request's timer fires only once the sandbox (holding its answer) has that request; otherwise never. */
    let timeouts = false;
    const clock: Clock = {
      now: () => Date.now(),
      sleep: (ms, signal) =>
        new Promise<void>((resolve, reject) => {
          signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
          if (ms !== TIMEOUT_MS) return resolve(); // backoff: no need to wait
          if (!timeouts) return; // the attempt ends first (its timer is aborted then)
          const sent = sb.requests(SEARCH);
          const fire = () => (sb.requests(SEARCH) > sent ? resolve() : setImmediate(fire));
          fire();
        }),
    };
    try {
      for (const [faults, kind] of [
        [{ failRate: 1 }, "server"],
        [{ resetRate: 1 }, "network"],
        // The sandbox holds every answer for a second: far longer than the timer above lets it.
        [{ latencyMs: 1000 }, "timeout"],
      ] as const) {
        await sb.setFaults(Object.assign({ failRate: 0, resetRate: 0, latencyMs: 0 }, faults));
        timeouts = kind === "timeout";
        sb.resetStats();
        const c = client({ clock, timeoutMs: TIMEOUT_MS, retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 10 } });
        const error = await rejection(c.searchCompanies({}));
        assert.ok(error instanceof ServiceError && error.kind === kind, `${kind}: ${String(error)}`);
        assert.equal(sb.requests(SEARCH), 3, kind);
      }
    } finally {
      await sb.setFaults({ failRate: 0, resetRate: 0, latencyMs: 0 });
    }
  });

  it("gateway-shaped 401/403/429 are read too", async () => {
    await sb.setFaults({ gatewayErrors: true });
    try {
      const bad = await rejection(client({ getAccessToken: async () => "nope" }).usage());
      assert.ok(bad instanceof ServiceError && bad.kind === "unauthorized");
      assert.ok(bad.errors[0]?.requestId, JSON.stringify(bad.errors));
      const noScope = await sb.token({ scopes: ["api:data:contact"] });
      const forbidden = await rejection(client({ getAccessToken: async () => noScope }).searchCompanies({}));
      assert.ok(forbidden instanceof ServiceError && forbidden.kind === "forbidden" && forbidden.missingScope === "api:data:company");
    } finally {
      await sb.setFaults({ gatewayErrors: false });
    }
  });

  it("invalidResponse: an answer of the wrong shape (the sandbox's fault settings where usage was expected)", async () => {
    // The base URL is bent so GET {base}/data/v1/users/usage lands on a sandbox route with another shape.
    const c = createServiceClient({ baseUrl: `${sb.url}/__sandbox/faults?`, getAccessToken: async () => token });
    const error = await rejection(c.usage());
    assert.ok(error instanceof ServiceError && error.kind === "invalidResponse", String(error));
  });
});

describe("rate limits against the sandbox", () => {
  // One time for the sandbox and the clients: the sandbox's clock stands still unless a client
  // waits, and a client's wait moves it. Windows roll exactly when a client has waited for them.
  const clock = manualClock((Math.floor(Date.now() / 3_600_000) + 1) * 3_600_000);
  const limited = useSandbox({ companies: 200, contacts: 200, rateLimit: { perSecond: 2 }, clock });
  const limitedClient = (t: string, options: Partial<ServiceClientOptions> = {}) =>
    createServiceClient({ baseUrl: limited.url, getAccessToken: async () => t, ...clientTimeOn(clock), ...options });

  /** Uses up the account's current one-second window with plain requests. */
  async function fillWindow(t: string): Promise<void> {
    for (let i = 0; i < 3; i += 1) {
      const res = await fetch(`${limited.url}/data/v1/users/usage`, { headers: { authorization: `Bearer ${t}` } });
      await res.text();
      assert.equal(res.status, i < 2 ? 200 : 429, `request ${i + 1} of a window of 2`);
    }
  }

  it("rateLimited: a 429 with Retry-After longer than the client waits, in both error shapes", async () => {
    const t = await limited.token({ account: "impatient" });
    for (const gatewayErrors of [false, true]) {
      await limited.setFaults({ gatewayErrors });
      await clock.advance(1000); // a fresh window
      const c = limitedClient(t, { retry: { patienceMs: 0 } });
      await fillWindow(t);
      const error = await rejection(c.searchCompanies({}, { size: 1 }));
      assert.ok(error instanceof ServiceError && error.kind === "rateLimited" && error.status === 429, String(error));
      assert.equal(error.retryAfterMs, 1000);
      assert.match(error.userMessage, /Try again in 1 second/);
      if (gatewayErrors) assert.ok(error.errors[0]?.requestId);
    }
    await limited.setFaults({ gatewayErrors: false });
  });

  it("slows to the sandbox's lower per-second limit from its headers, without a single 429", async () => {
    const t = await limited.token({ account: "tight" });
    const c = limitedClient(t, { rateLimit: { probeFirst: true } });
    limited.resetStats();
    const started = clock.now();
    const pages = await Promise.all(Array.from({ length: 5 }, (_, i) => c.searchCompanies({}, { page: i + 1, size: 1 })));
    assert.equal(pages.length, 5);
    assert.equal(limited.requests(), 5, "no request was refused and sent again");
    assert.ok(clock.now() - started >= 1000, "five requests at two a second take more than one window");
  });

  it("waits out a 429's Retry-After and then succeeds", async () => {
    const t = await limited.token({ account: "patient" });
    const c = limitedClient(t, { rateLimit: { perSecond: 1000 } });
    await clock.advance(1000); // a fresh window
    await fillWindow(t);
    limited.resetStats();
    const pages = await Promise.all(Array.from({ length: 3 }, (_, i) => c.searchCompanies({}, { page: i + 1, size: 1 })));
    assert.deepEqual(
      pages.map((p) => p.pageNumber),
      [1, 2, 3],
    );
    assert.ok(limited.requests() > 3, "some were refused and retried");
  });
});
