// BIZ.INSIGHT (functions/insightCellsImpl.ts) on the one pipeline with a scripted client: the
// latest insight of a company (of a type) as text, companies by id, website or name gathered 50
// a request from every cell, nothing sent on recalculation, asked again once the insights expire
// (an injected clock), and a plan without insights said at once, with no request.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { createEnrichmentEngine } from "../../src/core/enrich/index.js";
import { insightKind } from "../../src/core/insights/index.js";
import { InsightsClient } from "../core/insights/fakeInsightsClient.js";
import { cellOutcome, invocation, loadFunctions } from "./fakeCustomFunctions.js";

const fns = await loadFunctions();
const DAY_MS = 24 * 60 * 60 * 1000;

function configure(allowance: { allowed: true } | { allowed: false; reason: string } = { allowed: true }) {
  const client = new InsightsClient();
  const clock = { t: client.today };
  const engine = createEnrichmentEngine({ client, kinds: [insightKind], windowMs: 2, clock: { now: () => clock.t } });
  fns.configureFunctions({ engine, isSignedIn: () => true, insightsAllowed: () => allowance });
  return { client, clock };
}

afterEach(() => fns.configureFunctions(undefined));

describe("BIZ.INSIGHT", () => {
  it("gives the latest insight of a company, of a type when named, as its summary and date", async () => {
    configure();
    assert.equal((await cellOutcome(fns.insight(42, "Funding", invocation()))).value, "Company 42 raised $5M (2026-11-28)");
    assert.equal((await cellOutcome(fns.insight("c3.example", "cxo", invocation()))).value, "New CFO (2026-11-28)");
    assert.match(String((await cellOutcome(fns.insight("contoso.com", null, invocation()))).value), /\(2026-11-28\)$/);
  });

  it("120 companies by website are 3 requests of at most 50; recalculation sends nothing", async () => {
    const { client } = configure();
    const sheet = () => Promise.all(Array.from({ length: 120 }, (_, i) => cellOutcome(fns.insight(`c${i + 1}.example`, "Funding", invocation()))));
    const first = await sheet();
    assert.deepEqual(
      first.map((c) => c.value),
      Array.from({ length: 120 }, (_, i) => `Company ${10001 + i} raised $5M (2026-11-28)`),
    );
    assert.equal(client.insightCalls.length, 3);
    assert.ok(client.insightCalls.every((call) => call.ids.length <= 50 && call.types.length === 0));
    const matches = client.calls.length;
    assert.deepEqual(await sheet(), first);
    assert.equal(client.insightCalls.length, 3, "recalculation asks no insight");
    assert.equal(client.calls.length, matches, "recalculation matches nothing again");
  });

  it("keeps a company's insights until they expire, then asks again", async () => {
    const { client, clock } = configure();
    client.ttlMs = 2 * DAY_MS;
    await cellOutcome(fns.insight(7, null, invocation()));
    clock.t += DAY_MS;
    await cellOutcome(fns.insight(7, null, invocation()));
    assert.equal(client.insightCalls.length, 1);
    clock.t += DAY_MS;
    client.today += 2 * DAY_MS;
    assert.equal((await cellOutcome(fns.insight(7, "Funding", invocation()))).value, "Company 7 raised $5M (2026-11-30)");
    assert.equal(client.insightCalls.length, 2);
  });

  it("says clearly when there is no insight, or the type is not one", async () => {
    const { client } = configure();
    client.quiet.add(8);
    assert.deepEqual(await cellOutcome(fns.insight(8, null, invocation())), { error: "#N/A", message: "No insight for this company right now" });
    const wrongType = await cellOutcome(fns.insight(8, "weather", invocation()));
    assert.equal(wrongType.error, "#VALUE!");
    assert.match(wrongType.message ?? "", /Name a type of insight/);
  });

  it("a plan without insights is said at once, and nothing is sent", async () => {
    const { client } = configure({ allowed: false, reason: "Insights are not in your plan." });
    const outcome = await cellOutcome(fns.insight("c1.example", null, invocation()));
    assert.deepEqual(outcome, { error: "#N/A", message: "Insights are not in your plan." });
    assert.equal(client.insightCalls.length + client.calls.length, 0);
  });
});
