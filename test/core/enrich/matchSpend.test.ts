// The daily cap on new records holds for matching by website, name or email: an input sent
// reserves a unit of today's allowance, the answer settles it, and ids and matching count in the
// pipeline's one SpendReservations.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ServiceError } from "../../../src/core/api/errors.js";
import { createEnrichmentEngine, MemoryCacheStore, MemorySpendStore, type InputAnswer } from "../../../src/core/enrich/index.js";
import { SpendReservations } from "../../../src/core/enrich/spendReservations.js";
import { FakeMatchClient } from "./fakeMatchClient.js";

const NOW = Date.UTC(2026, 10, 26, 9);

function setup(cap: number) {
  const client = new FakeMatchClient();
  const spendStore = new MemorySpendStore();
  const engine = createEnrichmentEngine({ client, cache: new MemoryCacheStore(), spendStore, dailyNewRecordCap: cap, clock: { now: () => NOW }, windowMs: 1 });
  const used = async () => (await engine.spendStatus()).used;
  const sentInputs = () => client.calls.reduce((sum, call) => sum + call.inputs.length, 0);
  const matchList = (list: ReturnType<typeof sites>, fields: string[]) => engine.enrichInputs("company", list, fields);
  return { client, engine, spendStore, used, sentInputs, matchList };
}

const website = (text: string) => ({ kind: "company" as const, criteria: { website: text } });
const sites = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i): ReturnType<typeof website> | { kind: "company"; criteria: { name: string; country?: string } } =>
    website(`c${from + i}.example`),
  );
const found = (answer: InputAnswer) => answer.id !== undefined && answer.result.ok;
const capped = (answer: InputAnswer | undefined) => answer !== undefined && !answer.result.ok && answer.result.problem.kind === "spendCap";

describe("matching and the daily cap", () => {
  it("a list of 5 new inputs under a cap of 3 sends 3 and answers the other 2 with the cap's message", async () => {
    const { engine, matchList, used, sentInputs, spendStore } = setup(3);
    const results = await matchList(sites(1, 5), ["name"]);
    assert.equal(results.filter(found).length, 3);
    const refused = results.filter(capped);
    assert.equal(refused.length, 2);
    assert.match(refused[0]!.result.ok ? "" : refused[0]!.result.problem.message, /Daily limit of 3 new records reached/);
    assert.equal(sentInputs(), 3, "the refused inputs were not sent");
    assert.equal(await used(), 3);
    await engine.whenIdle();
    assert.equal(spendStore.state?.used, 3, "the count is stored");
  });

  it("cells: the cap refuses the inputs beyond it; the others of the same request still go", async () => {
    const { engine, used, sentInputs } = setup(2);
    const results = await Promise.all(sites(1, 4).map((m) => engine.match(m)));
    assert.equal(results.filter((r) => r.ok).length, 2);
    assert.equal(results.filter((r) => !r.ok && r.problem.kind === "spendCap").length, 2);
    assert.equal(sentInputs(), 2);
    assert.equal(await used(), 2);
    assert.equal((await engine.planInputs("company", sites(1, 4), [])).cachedCount, 2, "refused inputs are not cached: asked again once allowed");
  });

  it("misses give their units back: the next batch can use them", async () => {
    const { matchList, used } = setup(2);
    const misses = await matchList([website("unknown.org"), { kind: "company", criteria: { name: "northwind" } }], ["name"]);
    assert.deepEqual(
      misses.map((r) => r.miss),
      ["noMatch", "ambiguous"],
    );
    assert.equal(await used(), 0);
    const next = await matchList(sites(1, 2), ["name"]);
    assert.ok(next.every(found));
    assert.equal(await used(), 2);
  });

  it("a match to a record under management gives its unit back", async () => {
    const { engine, used } = setup(1);
    engine.markUnderManagement("company", [10001]);
    assert.ok((await engine.getCells("company", "c1.example", "name")).ok);
    assert.equal(await used(), 0);
    assert.ok((await engine.getCells("company", "c2.example", "name")).ok, "the unit was free for a new record");
    assert.equal(await used(), 1);
  });

  it("two inputs finding the same new record count it once", async () => {
    const { matchList, used } = setup(2);
    const results = await matchList([website("acme.com"), { kind: "company", criteria: { name: "Acme", country: "United States" } }], ["name"]);
    assert.deepEqual(
      results.map((r) => r.id),
      [101, 101],
    );
    assert.equal(await used(), 1);
  });

  it("a request lost after it left keeps its units; one the service refused gives them back", async () => {
    const lost = setup(3);
    lost.client.failWith = new ServiceError("server", { status: 503 });
    const results = await lost.matchList(sites(1, 2), ["name"]);
    assert.ok(results.every((r) => !r.result.ok && r.result.problem.kind !== "spendCap"));
    assert.equal(await lost.used(), 2, "the service may have charged them");
    lost.client.failWith = undefined;
    assert.ok((await lost.matchList(sites(1, 2), ["name"])).every(found));
    assert.equal(await lost.used(), 2, "asked again, the inputs take no second unit; the new records keep theirs");

    const refused = setup(3);
    refused.client.failWith = new ServiceError("rateLimited", { status: 429 });
    await refused.matchList(sites(1, 2), ["name"]);
    assert.equal(await refused.used(), 0);
  });

  it("one count: matching 3 new records, then enriching their ids, costs nothing more", async () => {
    const { engine, matchList, used, client } = setup(3);
    assert.ok((await matchList(sites(1, 3), ["name"])).every(found));
    assert.equal(await used(), 3);
    const calls = client.calls.length;
    const enriched = await engine.enrichIds("company", [10001, 10002, 10003], ["name", "revenue"]);
    assert.ok(
      [...enriched.values()].every((r) => r.ok),
      "not refused by the cap",
    );
    assert.ok(client.calls.length > calls, "revenue was asked by id");
    assert.equal(await used(), 3);
  });

  it("one count: enriching ids first, then matching them, costs nothing more", async () => {
    // Each input sent needs a free unit while its record is unknown; it comes back with the answer.
    const { engine, matchList, used } = setup(6);
    const enriched = await engine.enrichIds("company", [10001, 10002, 10003], ["name"]);
    assert.ok([...enriched.values()].every((r) => r.ok));
    assert.equal(await used(), 3);
    const matched = await matchList(sites(1, 3), ["revenue"]);
    assert.deepEqual(
      matched.map((r) => r.id),
      [10001, 10002, 10003],
    );
    assert.equal(await used(), 3);
  });
});

describe("SpendReservations: units for match inputs", () => {
  const make = (cap: number) =>
    new SpendReservations(
      undefined,
      () => NOW,
      cap,
      () => undefined,
    );

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
