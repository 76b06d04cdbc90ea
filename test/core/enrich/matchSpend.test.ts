// The daily cap on new records holds for matching by website, name or email: an input sent
// reserves a unit of today's allowance, the answer settles it, and the engine and the matcher
// of one user count in one SpendReservations.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ServiceError } from "../../../src/core/api/errors.js";
import { createEnrichmentEngine, MemoryCacheStore, MemorySpendStore } from "../../../src/core/enrich/index.js";
import { createRecordMatcher, type MatchResult } from "../../../src/core/enrich/matcher.js";
import { SpendReservations } from "../../../src/core/enrich/spendReservations.js";
import { FakeMatchClient } from "./fakeMatchClient.js";

const NOW = Date.UTC(2026, 10, 26, 9);

function setup(cap: number) {
  const client = new FakeMatchClient();
  const store = new MemoryCacheStore();
  const spendStore = new MemorySpendStore();
  const saves: Array<Promise<unknown>> = [];
  const spend = new SpendReservations(spendStore, () => NOW, cap, (work) => void saves.push(work));
  const clock = { now: () => NOW };
  const matcher = createRecordMatcher({ client, cache: store, spend, clock, windowMs: 1 });
  const engine = createEnrichmentEngine({ client, cache: store, spend, clock, windowMs: 1 });
  const used = () => spend.status().used;
  const sentInputs = () => client.calls.reduce((sum, call) => sum + call.inputs.length, 0);
  return { client, matcher, engine, spend, spendStore, saves, used, sentInputs };
}

const website = (text: string) => ({ kind: "company" as const, criteria: { website: text } });
const sites = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => website(`c${from + i}.example`));
const capped = (result: MatchResult | undefined) => result !== undefined && !result.ok && result.problem.kind === "spendCap";

describe("matching and the daily cap", () => {
  it("a list of 5 new inputs under a cap of 3 sends 3 and answers the other 2 with the cap's message", async () => {
    const { matcher, used, sentInputs, saves, spendStore } = setup(3);
    const results = await matcher.matchMany(sites(1, 5), ["name"]);
    assert.equal(results.filter((r) => r.ok).length, 3);
    const refused = results.filter(capped);
    assert.equal(refused.length, 2);
    assert.match(refused[0]!.ok ? "" : refused[0]!.problem.message, /Daily limit of 3 new records reached/);
    assert.equal(sentInputs(), 3, "the refused inputs were not sent");
    assert.equal(used(), 3);
    await Promise.all(saves);
    assert.equal(spendStore.state?.used, 3, "the count is stored");
  });

  it("cells: the cap refuses the inputs beyond it; the others of the same request still go", async () => {
    const { matcher, used, sentInputs } = setup(2);
    const results = await Promise.all(sites(1, 4).map((m) => matcher.match(m, ["name"])));
    assert.equal(results.filter((r) => r.ok).length, 2);
    assert.equal(results.filter(capped).length, 2);
    assert.equal(sentInputs(), 2);
    assert.equal(used(), 2);
    assert.equal((await matcher.plan(sites(1, 4))).cached, 2, "refused inputs are not cached: asked again once allowed");
  });

  it("misses give their units back: the next batch can use them", async () => {
    const { matcher, used } = setup(2);
    const misses = await matcher.matchMany([website("unknown.org"), { kind: "company", criteria: { name: "northwind" } }], ["name"]);
    assert.deepEqual(misses.map((r) => (r.ok ? "ok" : r.miss)), ["noMatch", "ambiguous"]);
    assert.equal(used(), 0);
    const next = await matcher.matchMany(sites(1, 2), ["name"]);
    assert.ok(next.every((r) => r.ok));
    assert.equal(used(), 2);
  });

  it("a match to a record under management gives its unit back", async () => {
    const { matcher, engine, used } = setup(1);
    engine.markUnderManagement("company", [10001]);
    assert.ok((await matcher.match(website("c1.example"), ["name"])).ok);
    assert.equal(used(), 0);
    assert.ok((await matcher.match(website("c2.example"), ["name"])).ok, "the unit was free for a new record");
    assert.equal(used(), 1);
  });

  it("two inputs finding the same new record count it once", async () => {
    const { matcher, used } = setup(2);
    const results = await matcher.matchMany([website("acme.com"), { kind: "company", criteria: { name: "Acme", country: "United States" } }], ["name"]);
    assert.deepEqual(results.map((r) => (r.ok ? r.id : r.problem.kind)), [101, 101]);
    assert.equal(used(), 1);
  });

  it("a request lost after it left keeps its units; one the service refused gives them back", async () => {
    const lost = setup(3);
    lost.client.failWith = new ServiceError("server", { status: 503 });
    const results = await lost.matcher.matchMany(sites(1, 2), ["name"]);
    assert.ok(results.every((r) => !r.ok && r.problem.kind !== "spendCap"));
    assert.equal(lost.used(), 2, "the service may have charged them");
    lost.client.failWith = undefined;
    assert.ok((await lost.matcher.matchMany(sites(1, 2), ["name"])).every((r) => r.ok));
    assert.equal(lost.used(), 2, "asked again, the inputs take no second unit; the new records keep theirs");

    const refused = setup(3);
    refused.client.failWith = new ServiceError("rateLimited", { status: 429 });
    await refused.matcher.matchMany(sites(1, 2), ["name"]);
    assert.equal(refused.used(), 0);
  });

  it("one count with the engine: matching 3 new records, then enriching their ids, costs nothing more", async () => {
    const { matcher, engine, used, client } = setup(3);
    assert.ok((await matcher.matchMany(sites(1, 3), ["name"])).every((r) => r.ok));
    assert.equal(used(), 3);
    const calls = client.calls.length;
    const enriched = await engine.enrichIds("company", [10001, 10002, 10003], ["name", "revenue"]);
    assert.ok([...enriched.values()].every((r) => r.ok), "not refused by the cap");
    assert.ok(client.calls.length > calls, "revenue was asked by id");
    assert.equal(used(), 3);
    assert.equal((await engine.spendStatus()).used, 3);
  });

  it("one count with the engine: enriching ids first, then matching them, costs nothing more", async () => {
    // Each input sent needs a free unit while its record is unknown; it comes back with the answer.
    const { matcher, engine, used } = setup(6);
    const enriched = await engine.enrichIds("company", [10001, 10002, 10003], ["name"]);
    assert.ok([...enriched.values()].every((r) => r.ok));
    assert.equal(used(), 3);
    const matched = await matcher.matchMany(sites(1, 3), ["revenue"]);
    assert.deepEqual(matched.map((r) => (r.ok ? r.id : r.problem.message)), [10001, 10002, 10003]);
    assert.equal(used(), 3);
  });
});

describe("SpendReservations: units for match inputs", () => {
  const make = (cap: number) => new SpendReservations(undefined, () => NOW, cap, () => undefined);

  it("reserves one unit per input up to the cap and returns the inputs refused", () => {
    const spend = make(2);
    assert.deepEqual([...spend.reserveInputs(["a", "b", "c"])], ["c"]);
    assert.equal(spend.status().used, 2);
    assert.deepEqual([...spend.reserveInputs(["a"])], [], "an input holding a unit takes none");
    assert.equal(spend.status().used, 2);
  });

  it("settles: a new record keeps the unit and is managed; a managed or counted record and a miss give it back", () => {
    const spend = make(6);
    spend.reserveInputs(["new", "managed", "enriched", "held", "miss"]);
    spend.markManaged("r:managed");
    assert.deepEqual([...spend.reserve(["r:held"], () => false)], [], "the engine holds a reservation for r:held");
    assert.equal(spend.status().used, 6);
    spend.inputMatched("new", "r:new", false);
    assert.ok(spend.isManaged("r:new", false));
    spend.inputMatched("managed", "r:managed", false);
    spend.inputMatched("enriched", "r:enriched", true);
    spend.inputNotCharged("miss");
    assert.equal(spend.status().used, 3, "r:new, the input still open and the engine's r:held remain");
    spend.inputMatched("held", "r:held", false);
    assert.equal(spend.status().used, 2, "r:held was counted by its own reservation: the input's unit goes back");
    spend.charged("r:held");
    spend.notCharged("r:held");
    assert.equal(spend.status().used, 2, "settled once, never counted twice");
  });

  it("a failed request keeps the units unless the service surely charged nothing", () => {
    const spend = make(5);
    spend.reserveInputs(["lost", "refused"]);
    spend.inputFailed("lost", new ServiceError("network"));
    spend.inputFailed("refused", new ServiceError("validation", { status: 400 }));
    assert.equal(spend.status().used, 1);
    spend.inputNotCharged("lost");
    assert.equal(spend.status().used, 0, "a later answer settles a lost input's unit");
  });
});
