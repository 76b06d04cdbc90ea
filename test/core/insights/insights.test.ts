// A list's insights (core/insights): companies by id, website or name (matched first), each once,
// 50 a request, cached per company and type set until the insights expire (an injected clock),
// asked again on a refresh; the rows' plain columns; what is new since the previous refresh.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MemoryCacheStore, createEnrichmentEngine } from "../../../src/core/enrich/index.js";
import { INSIGHT_COLUMNS, createInsights, insightRows, isNewSince, seenIds, insightTypeFromText } from "../../../src/core/insights/index.js";
import { InsightsClient } from "./fakeInsightsClient.js";

const DAY_MS = 24 * 60 * 60 * 1000;

function setup() {
  const client = new InsightsClient();
  const clock = { t: client.today };
  const store = new MemoryCacheStore();
  const engine = createEnrichmentEngine({ client, windowMs: 1, clock: { now: () => clock.t } });
  const insights = createInsights({ client, cache: () => store, now: () => clock.t, match: (criteria) => engine.match(criteria) });
  return { client, clock, store, insights };
}

const ids = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);

describe("insights for a list of companies", () => {
  it("asks 50 companies a request, each company once, websites and names matched first", async () => {
    const { client, insights } = setup();
    const companies = [...ids(100), 5, "7", "c1.example", "contoso.com", "nobody-here.example", "", null];
    const result = await insights.forCompanies({ companies, types: ["zi.funding"] });
    assert.deepEqual(
      client.insightCalls.map((c) => c.ids.length),
      [50, 50, 2],
    );
    assert.ok(client.insightCalls.every((c) => c.types.length === 1 && c.types[0] === "zi.funding"));
    assert.equal(result.companies, 102);
    assert.equal(result.requests, 3);
    assert.equal(result.items.length, 102);
    assert.deepEqual(
      result.misses.map((m) => m.input),
      ["nobody-here.example"],
    );
    assert.equal(result.items.find((item) => item.insight.ziCompanyId === 102)?.company, "contoso.com");
    assert.equal(result.items.find((item) => item.insight.ziCompanyId === 10001)?.company, "c1.example");
  });

  it("keeps a list's insights until they expire: asked again then, not before; a refresh asks again at once", async () => {
    const { client, clock, insights } = setup();
    client.ttlMs = 2 * DAY_MS;
    const ask = { companies: ids(60), types: [] };
    await insights.forCompanies(ask);
    assert.equal(client.insightCalls.length, 2);
    clock.t += DAY_MS;
    const cached = await insights.forCompanies(ask);
    assert.equal(client.insightCalls.length, 2, "nothing is asked before the insights expire");
    assert.equal(cached.items.length, 120);
    assert.equal(cached.requests, 0);
    // Another type set is another entry.
    await insights.forCompanies({ companies: ids(60), types: ["zi.cxochange"] });
    assert.equal(client.insightCalls.length, 4);
    clock.t += DAY_MS;
    await insights.forCompanies(ask);
    assert.equal(client.insightCalls.length, 6, "expired insights are asked again");
    await insights.forCompanies({ ...ask, refresh: true });
    assert.equal(client.insightCalls.length, 8);
  });

  it("a company without insights is believed for a day", async () => {
    const { client, clock, insights } = setup();
    client.quiet.add(3);
    await insights.forCompanies({ companies: [3], types: [] });
    clock.t += DAY_MS - 1;
    await insights.forCompanies({ companies: [3], types: [] });
    assert.equal(client.insightCalls.length, 1);
    clock.t += 1;
    await insights.forCompanies({ companies: [3], types: [] });
    assert.equal(client.insightCalls.length, 2);
  });

  it("a cancel stops the run: what was not asked is not cached", async () => {
    const { client, insights } = setup();
    const stop = new AbortController();
    const result = await insights.forCompanies({ companies: ids(500), types: [], signal: stop.signal, onProgress: (p) => p.done > 0 && stop.abort() });
    assert.ok(result.cancelled);
    assert.ok(client.insightCalls.length < 10, String(client.insightCalls.length));
    const asked = client.insightCalls.length;
    const again = await insights.forCompanies({ companies: ids(500), types: [] });
    assert.equal(again.requests, 10 - asked, "the companies asked before the cancel are cached");
  });

  it("rows: the type's readable name, dates, the payload's main facts in plain columns, and New", async () => {
    const { client, insights } = setup();
    const first = await insights.forCompanies({ companies: [9], types: [] });
    const header = INSIGHT_COLUMNS.map((c) => c.header);
    const rows = insightRows(first.items, isNewSince(undefined)).map((row) => Object.fromEntries(row.map((v, i) => [header[i], v])));
    const funding = rows.find((r) => r.Type === "Funding")!;
    assert.equal(funding.New, "New");
    assert.equal(funding.Amount, "$5M");
    assert.equal(funding.Investors, "North Fund, South Capital");
    assert.equal(funding.Company, "9");
    assert.equal(typeof funding.Date, "number", "a date cell is a date serial");
    const cxo = rows.find((r) => r.Type === "Leadership change")!;
    assert.deepEqual([cxo.Person, cxo.Title, cxo.Change], ["Ada Lovelace", "CFO", "Joined"]);
    // The next day: yesterday's insights are seen, today's are new.
    const seen = seenIds(first.items);
    client.today += DAY_MS;
    const next = await insights.forCompanies({ companies: [9], types: [], refresh: true });
    const marks = insightRows([...next.items, ...first.items], isNewSince(seen)).map((row) => row[0]);
    assert.deepEqual(marks, ["New", "New", "", ""]);
  });

  it("reads a cell's type as a code, a readable name or a short word", () => {
    assert.equal(insightTypeFromText("zi.funding"), "zi.funding");
    assert.equal(insightTypeFromText("Funding"), "zi.funding");
    assert.equal(insightTypeFromText("cxo"), "zi.cxochange");
    assert.equal(insightTypeFromText("Leadership change"), "zi.cxochange");
    assert.equal(insightTypeFromText("intent spike"), "zi.account-level-intent.spike");
    assert.equal(insightTypeFromText("m&a"), "zi.m&a");
    assert.equal(insightTypeFromText("weather"), undefined);
  });
});
