import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createEnrichmentEngine, MemoryCacheStore, MemorySpendStore, type CellsResult, type EnrichmentEngineOptions } from "../../../src/core/enrich/index.js";
import { FakeEnrichClient } from "./fakeClient.js";
import { FakeTimer } from "../jobs/fakes.js";

const FIELDS = ["name", "revenue", "certified", "country"];

function setup(options: Partial<EnrichmentEngineOptions> = {}) {
  const client = new FakeEnrichClient();
  const engine = createEnrichmentEngine({ client, windowMs: 2, ...options });
  return { client, engine };
}

function value(result: CellsResult): unknown {
  assert.ok(result.ok, `expected a value, got ${result.ok ? "" : result.problem.message}`);
  return result.values[0];
}

/** 2,000 cells: 500 ids x 4 fields, the ids asked in a scattered order. */
function sheet(ids: number[], fields: string[]): Array<{ id: number; field: string }> {
  const cells: Array<{ id: number; field: string }> = [];
  for (const field of fields) for (const id of ids) cells.push({ id, field });
  return cells;
}

describe("enrichment engine: batching", () => {
  it("gathers 2,000 cells over 500 ids into 20 requests of 25 with the union of fields", async () => {
    const { client, engine } = setup();
    const ids = Array.from({ length: 500 }, (_, i) => 1000 + i);
    const cells = sheet(ids, FIELDS);
    const results = await Promise.all(cells.map((c) => engine.getCells("company", c.id, c.field)));
    assert.equal(client.calls.length, 20);
    for (const call of client.calls) {
      assert.ok(call.ids.length <= 25);
      assert.deepEqual([...call.outputFields].sort(), [...FIELDS].sort());
    }
    const requested = client.calls.flatMap((c) => c.ids);
    assert.equal(new Set(requested).size, 500);
    assert.equal(requested.length, 500);
    for (const [index, cell] of cells.entries()) {
      const got = value(results[index]!);
      const expected = {
        name: `Company ${cell.id}`,
        revenue: cell.id * 10,
        certified: cell.id % 2 === 0,
        country: cell.id % 3 === 0 ? "Germany" : "United States",
      }[cell.field];
      assert.equal(got, expected, `${cell.field} of ${cell.id}`);
    }
  });

  it("answers a recalculation from the cache without requests", async () => {
    const { client, engine } = setup();
    const ids = Array.from({ length: 60 }, (_, i) => i + 1);
    await Promise.all(sheet(ids, FIELDS).map((c) => engine.getCells("company", c.id, c.field)));
    const before = client.calls.length;
    const again = await Promise.all(sheet(ids, FIELDS).map((c) => engine.getCells("company", c.id, c.field)));
    assert.equal(client.calls.length, before);
    assert.ok(again.every((r) => r.ok));
  });

  it("asks known ids only for a new field", async () => {
    const { client, engine } = setup();
    const ids = Array.from({ length: 60 }, (_, i) => i + 1);
    await Promise.all(sheet(ids, FIELDS).map((c) => engine.getCells("company", c.id, c.field)));
    client.calls.length = 0;
    const websites = await Promise.all(ids.map((id) => engine.getCells("company", id, "website")));
    assert.equal(client.calls.length, 3);
    for (const call of client.calls) assert.deepEqual(call.outputFields, ["website"]);
    assert.equal(value(websites[0]!), "https://www.company1.example");
  });

  it("joins a call to a request already in flight instead of asking again", async () => {
    const timer = new FakeTimer();
    const { client, engine } = setup({ clock: timer });
    client.hold();
    const first = engine.getCells("company", 7, "name");
    // The gathering window (2 ms) and the quiet wait after it pass on the fake clock.
    await timer.advance(10);
    await client.requested(1);
    assert.equal(client.calls.length, 1);
    const second = engine.getCells("company", 7, "name");
    // Past the gathering window of the second call, with the first request still held.
    await timer.advance(10);
    assert.equal(client.calls.length, 1);
    client.release();
    assert.equal(value(await first), "Company 7");
    assert.equal(value(await second), "Company 7");
    assert.equal(client.calls.length, 1);
  });

  it("makes no request in value preview and answers from the cache there", async () => {
    const { client, engine } = setup();
    const preview = await engine.getCells("company", 5, "name", { preview: true });
    assert.equal(preview.ok, false);
    assert.equal(client.calls.length, 0);
    await engine.getCells("company", 5, "name");
    const cached = await engine.getCells("company", 5, "name", { preview: true });
    assert.equal(value(cached), "Company 5");
    assert.equal(client.calls.length, 1);
  });

  it("spills several fields in the order asked and reads comma text, arrays and ranges", async () => {
    const { engine } = setup();
    const fromText = await engine.getCells("company", 4, "name, Revenue,certified");
    const fromRange = await engine.getCells("company", 4, [["name"], ["revenue"], [""], ["certified"]]);
    for (const result of [fromText, fromRange]) {
      assert.ok(result.ok);
      assert.deepEqual(result.values, ["Company 4", 40, true]);
    }
  });

  it("writes lists as readable text and a missing value as an empty cell", async () => {
    const { engine } = setup();
    const social = await engine.getCells("company", 3, "socialMediaUrls");
    assert.equal(value(social), "LINKED_IN: https://linkedin.example/c3 (1200 followers); TWITTER: https://twitter.example/c3");
    assert.equal(value(await engine.getCells("company", 3, "ticker")), "");
  });

  it("reads contact company fields nested under company", async () => {
    const { engine } = setup();
    const result = await engine.getCells("contact", 10, "firstName,companyName,companyId");
    assert.ok(result.ok);
    assert.deepEqual(result.values, ["First10", "Company 11", 11]);
  });
});

describe("enrichment engine: cell errors", () => {
  it("refuses a non-integer or empty id without a request (text that is not a number is matched as a name instead)", async () => {
    const { client, engine } = setup();
    for (const bad of ["", "  ", 12.5, -3, 0, "-3", "12.5", true, null]) {
      const result = await engine.getCells("company", bad, "name");
      assert.equal(result.ok, false);
      if (!result.ok) {
        assert.equal(result.problem.code, "#VALUE!");
        assert.equal(result.problem.message, "Company id must be a whole number");
      }
    }
    const person = await engine.getCells("contact", 2.5, "firstName");
    assert.ok(!person.ok && person.problem.message === "Person id must be a whole number");
    const nameAlone = await engine.getCells("contact", "Jane Doe", "firstName");
    assert.ok(!nameAlone.ok && /A name alone does not identify a person/.test(nameAlone.problem.message), "a person's name needs the company");
    assert.equal(client.calls.length, 0);
    assert.equal(value(await engine.getCells("company", " 42 ", "name")), "Company 42");
  });

  it("lists the valid names for an unknown field", async () => {
    const { client, engine } = setup();
    const result = await engine.getCells("company", 1, "revenu");
    assert.ok(!result.ok);
    assert.equal(result.problem.code, "#VALUE!");
    assert.match(result.problem.message, /^Unknown company field "revenu"\. Valid fields: id, name, ticker, website/);
    assert.equal(client.calls.length, 0);
  });

  it("says there is no company with that id, and remembers it", async () => {
    const { client, engine } = setup();
    client.behaviour = (_kind, id) => (id === 999 ? { status: "NO_MATCH", outcome: "noMatch" } : undefined);
    const [miss, hit] = await Promise.all([engine.getCells("company", 999, "name"), engine.getCells("company", 1, "name")]);
    assert.ok(!miss.ok);
    assert.equal(miss.problem.code, "#N/A");
    assert.equal(miss.problem.message, "No company with id 999");
    assert.equal(value(hit), "Company 1");
    await engine.getCells("company", 999, "revenue");
    assert.equal(client.calls.length, 1);
  });

  it("names the status of a contact miss that is not NO_MATCH", async () => {
    const { engine, client } = setup();
    client.behaviour = () => ({ status: "OPT_OUT", outcome: "noMatch" });
    const result = await engine.getCells("contact", 8, "email");
    assert.ok(!result.ok && result.problem.message === "No contact data for id 8 (OPT_OUT)");
  });

  it("says the account has no credits left", async () => {
    const { engine, client } = setup();
    client.behaviour = () => ({ status: "LIMIT_EXCEEDED", outcome: "limitExceeded" });
    const result = await engine.getCells("company", 1, "name");
    assert.ok(!result.ok && result.problem.message === "Your account has no credits left for new records" && result.problem.code === "#N/A");
  });

  it("names the missing scope on 403 and settles every cell of a failed request", async () => {
    const { engine, client } = setup();
    client.failWith = { kind: "forbidden", status: 403, userMessage: "Forbidden", missingScope: "api:data:company" };
    const results = await Promise.all([1, 2, 3].map((id) => engine.getCells("company", id, "name")));
    for (const result of results) {
      assert.ok(!result.ok);
      assert.equal(
        result.problem.message,
        'You cannot search or enrich companies: your account\'s access does not include it. Your administrator can grant it: the permission "api:data:company".',
      );
    }
  });

  it("gives the reason of a failure after retries, and a later calculation tries again", async () => {
    const { engine, client } = setup();
    client.failWith = { kind: "server", status: 503, userMessage: "The service is temporarily unavailable (503)" };
    const failed = await engine.getCells("company", 1, "name");
    assert.ok(!failed.ok);
    assert.equal(failed.problem.message, "Service unavailable: The service is temporarily unavailable (503)");
    client.failWith = undefined;
    assert.equal(value(await engine.getCells("company", 1, "name")), "Company 1");
  });

  it("settles even when the client throws something that is not a service error", async () => {
    const { engine, client } = setup();
    client.failWith = new TypeError("boom");
    const result = await engine.getCells("company", 1, "name");
    assert.ok(!result.ok && result.problem.code === "#N/A" && /boom/.test(result.problem.message));
  });

  it("asks the user to sign in on 401", async () => {
    const { engine, client } = setup();
    client.failWith = { kind: "unauthorized", status: 401, userMessage: "Sign in" };
    const result = await engine.getCells("company", 1, "name");
    assert.ok(!result.ok && result.problem.message === "Sign in from the task pane");
  });
});

describe("enrichment engine: cache", () => {
  it("serves a new engine (workbook reopened) from the persistent store", async () => {
    const store = new MemoryCacheStore();
    const first = setup({ cache: store });
    await Promise.all([1, 2, 3].map((id) => first.engine.getCells("company", id, "name")));
    await first.engine.whenIdle();
    const second = setup({ cache: store });
    const results = await Promise.all([1, 2, 3].map((id) => second.engine.getCells("company", id, "name")));
    assert.equal(second.client.calls.length, 0);
    assert.deepEqual(results.map(value), ["Company 1", "Company 2", "Company 3"]);
  });

  it("asks again once values are older than the age limit", async () => {
    let now = Date.UTC(2026, 0, 1);
    const { engine, client } = setup({ clock: { now: () => now }, maxAgeMs: 1000 });
    await engine.getCells("company", 1, "name");
    now += 999;
    await engine.getCells("company", 1, "name");
    assert.equal(client.calls.length, 1);
    now += 2;
    await engine.getCells("company", 1, "name");
    assert.equal(client.calls.length, 2);
  });

  it("clears the cache, memory and store", async () => {
    const store = new MemoryCacheStore();
    const { engine, client } = setup({ cache: store });
    await engine.getCells("company", 1, "name");
    await engine.whenIdle();
    assert.equal(store.entries.size, 1);
    await engine.clearCache();
    assert.equal(store.entries.size, 0);
    await engine.getCells("company", 1, "name");
    assert.equal(client.calls.length, 2);
  });

  it("carries on from memory when the store fails, and says so in the log", async () => {
    const messages: string[] = [];
    const broken = {
      getMany: () => Promise.reject(new Error("quota")),
      setMany: () => Promise.reject(new Error("quota")),
      clear: () => Promise.resolve(),
    };
    const { engine } = setup({ cache: broken, log: (entry) => messages.push(entry.message) });
    assert.equal(value(await engine.getCells("company", 1, "name")), "Company 1");
    await engine.whenIdle();
    assert.ok(messages.some((m) => /Reading the enrichment cache failed/.test(m)));
    assert.ok(messages.some((m) => /Writing the enrichment cache failed/.test(m)));
  });
});

describe("enrichment engine: spend guard", () => {
  it("caps new records per day and tells how to raise the cap", async () => {
    const { engine, client } = setup({ dailyNewRecordCap: 30 });
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => engine.getCells("company", i + 1, "name")));
    const refused = results.filter((r) => !r.ok);
    assert.equal(refused.length, 20);
    assert.equal(client.calls.flatMap((c) => c.ids).length, 30);
    for (const r of refused) assert.ok(!r.ok && /Daily limit of 30 new records reached\. Raise "New records per day"/.test(r.problem.message));
    await engine.setDailyNewRecordCap(100);
    const retried = await Promise.all(Array.from({ length: 50 }, (_, i) => engine.getCells("company", i + 1, "name")));
    assert.ok(retried.every((r) => r.ok));
    assert.equal((await engine.spendStatus()).used, 50);
  });

  it("does not count records under management, nor misses", async () => {
    const spendStore = new MemorySpendStore();
    const { engine, client } = setup({ dailyNewRecordCap: 5, spendStore });
    client.behaviour = (_k, id) => (id > 100 ? { status: "NO_MATCH", outcome: "noMatch" } : undefined);
    engine.markUnderManagement("company", [1, 2, 3, 4, 5, 6, 7, 8]);
    const results = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8, 101, 102].map((id) => engine.getCells("company", id, "name")));
    assert.equal(results.filter((r) => r.ok).length, 8);
    assert.equal((await engine.spendStatus()).used, 0);
    await engine.whenIdle();
    assert.equal(spendStore.state?.used, 0);
  });

  it("starts a new count on a new day and keeps the user's cap", async () => {
    let now = Date.UTC(2026, 0, 1, 12);
    const spendStore = new MemorySpendStore();
    const { engine } = setup({ clock: { now: () => now }, dailyNewRecordCap: 2, spendStore });
    await engine.setDailyNewRecordCap(3);
    await Promise.all([1, 2, 3, 4].map((id) => engine.getCells("company", id, "name")));
    assert.equal((await engine.spendStatus()).used, 3);
    now += 24 * 60 * 60 * 1000;
    assert.equal(value(await engine.getCells("company", 4, "name")), "Company 4");
    assert.deepEqual(await engine.spendStatus(), { day: "2026-01-02", used: 1, cap: 3 });
  });
});

describe("enrichment engine: spend guard when answers are lost", () => {
  it("keeps the reservation of a request lost after it left, so the daily cap holds", async () => {
    const { engine, client } = setup({ dailyNewRecordCap: 3 });
    // The service charged ids 1 and 2, then the connection dropped before the answer arrived.
    client.failWith = { kind: "network", status: 0, userMessage: "The connection was dropped" };
    const lost = await Promise.all([1, 2].map((id) => engine.getCells("company", id, "name")));
    assert.ok(lost.every((r) => !r.ok));
    assert.equal((await engine.spendStatus()).used, 2, "records that may have cost a credit stay counted");
    client.failWith = undefined;
    const next = await Promise.all([3, 4, 5].map((id) => engine.getCells("company", id, "name")));
    assert.equal(next.filter((r) => r.ok).length, 1);
    assert.equal(next.filter((r) => !r.ok && /Daily limit of 3 new records reached/.test(r.problem.message)).length, 2);
    // Asking a lost record again reserves nothing more: its credit was already counted.
    assert.equal(value(await engine.getCells("company", 1, "name")), "Company 1");
    const charged = new Set(client.calls.flatMap((call) => call.ids));
    assert.ok(charged.size <= 3, `records charged ${[...charged].join(",")} within the cap of 3`);
    assert.equal((await engine.spendStatus()).used, 3);
  });

  it("gives the reservation back when the service refused the request (4xx) or it never left", async () => {
    const { engine, client } = setup({ dailyNewRecordCap: 3 });
    client.failWith = { kind: "rateLimited", status: 429, userMessage: "Too many requests" };
    await engine.getCells("company", 1, "name");
    assert.equal((await engine.spendStatus()).used, 0);
    client.failWith = { kind: "validation", status: 400, userMessage: "Bad request" };
    await engine.getCells("company", 1, "name");
    assert.equal((await engine.spendStatus()).used, 0);
  });
});

describe("enrichment engine: enrich selection", () => {
  it("sends a list's requests as bulk work and a cell's as interactive", async () => {
    const { engine, client } = setup();
    await engine.getCells("company", 1, "name");
    await engine.enrichIds("company", [2, 3], ["name"]);
    assert.deepEqual(client.priorities, [undefined, "bulk"]);
  });

  it("plans: unique ids, cached, under management and the most credits it can spend", async () => {
    const { engine } = setup();
    await engine.getCells("company", 1, "name,revenue");
    engine.markUnderManagement("company", [2]);
    const plan = await engine.planInputs("company", [1, 1, "2", 3, "", null, "x", 4.5, 3], ["name", "revenue"]);
    assert.deepEqual(plan.ids, [1, 2, 3]);
    assert.equal(plan.cachedCount, 1);
    assert.equal(plan.underManagementCount, 1);
    assert.equal(plan.maxCredits, 1);
    assert.equal(plan.invalidCount, 2);
    assert.equal(plan.blankCount, 2);
    assert.equal(plan.requests, 1);
  });

  it("stops after a request says the user lacks access, and refuses unknown fields", async () => {
    const { engine, client } = setup();
    client.failWith = { kind: "forbidden", status: 403, userMessage: "Forbidden", missingScope: "api:data:company" };
    const ids = Array.from({ length: 100 }, (_, i) => i + 1);
    const results = await engine.enrichIds("company", ids, ["name"], { concurrency: 1 });
    assert.equal(client.calls.length, 1);
    assert.ok([...results.values()].every((r) => !r.ok && r.problem.kind === "forbidden"));
    assert.equal((await engine.spendStatus()).used, 0);
    const unknown = await engine.enrichIds("company", [1], ["nope"]);
    assert.ok(!unknown.get(1)!.ok);
    assert.equal(client.calls.length, 1);
  });

  it("runs in requests of 25 with progress, and stops at cancel", async () => {
    const { engine, client } = setup();
    const ids = Array.from({ length: 110 }, (_, i) => i + 1);
    const controller = new AbortController();
    const progress: number[] = [];
    const results = await engine.enrichIds("company", ids, ["name"], {
      concurrency: 1,
      signal: controller.signal,
      onProgress: (p) => {
        progress.push(p.requestsDone);
        if (p.requestsDone === 2) controller.abort();
      },
    });
    assert.equal(client.calls.length, 2);
    assert.deepEqual(progress, [0, 1, 2]);
    assert.equal(value(results.get(1)!), "Company 1");
    const last = results.get(110)!;
    assert.ok(!last.ok && last.problem.kind === "cancelled");
    assert.equal((await engine.spendStatus()).used, 50);
  });
});
