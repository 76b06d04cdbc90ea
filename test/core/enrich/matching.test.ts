// Matching in the one pipeline: criteria deduplicated on their normalized key, at most 25 a
// request, fields merged, key -> id cached in the shared store (so recalculation and reopening
// ask nothing and the record's fields are answered by id without a request), misses with reasons,
// and an id and a website of the same company in one calculation in one request.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  createEnrichmentEngine,
  MemoryCacheStore,
  type CacheStore,
  type CellsResult,
  type InputAnswer,
  type MatchResult,
} from "../../../src/core/enrich/index.js";
import { memoryKeyValueStorage } from "../../../src/core/storage/keyValue.js";
import { createStorageCacheStore } from "../../../src/office/persistentCache.js";
import { FakeMatchClient } from "./fakeMatchClient.js";

function setup(store: CacheStore = new MemoryCacheStore(), client = new FakeMatchClient()) {
  const engine = createEnrichmentEngine({ client, cache: store, windowMs: 2 });
  return { client, store, engine };
}

const website = (text: string) => ({ kind: "company" as const, criteria: { website: text } });
const idOf = (result: MatchResult) => {
  assert.ok(result.ok, result.ok ? "" : result.problem.message);
  return result.id;
};
const values = (result: CellsResult) => {
  assert.ok(result.ok, result.ok ? "" : result.problem.message);
  return result.values;
};

const answerOf = (answer: InputAnswer) => answer.id ?? answer.miss;

describe("matching: one batcher", () => {
  it("one cell by id and one by website of the same company in one calculation cost one request", async () => {
    const { client, engine } = setup();
    const [byId, byWebsite] = await Promise.all([engine.getCells("company", 101, "name"), engine.getCells("company", "https://www.acme.com/", "revenue")]);
    assert.deepEqual(values(byId), ["ACME"]);
    assert.deepEqual(values(byWebsite), [1010]);
    assert.equal(client.calls.length, 1, "one request for both cells");
    assert.deepEqual(client.calls[0]?.inputs.map((input) => JSON.stringify(input)).sort(), ['{"companyId":101}', '{"companyWebsite":"acme.com"}']);
    assert.equal((await engine.spendStatus()).used, 1, "one new record, one unit of today's count");
    assert.deepEqual(values(await engine.getCells("company", "acme.com", "name,revenue")), ["ACME", 1010]);
    assert.equal(client.calls.length, 1, "both spellings answered from the cache afterwards");
  });

  it("asks each normalized website once, whatever its spelling, and answers every cell", async () => {
    const { client, engine } = setup();
    const spellings = ["https://www.acme.com/about", "ACME.COM", "acme.com.", "www.acme.com", "contoso.com", "http://Contoso.com/x"];
    const results = await Promise.all(spellings.map((s) => engine.match(website(s))));
    assert.deepEqual(results.map(idOf), [101, 101, 101, 101, 102, 102]);
    assert.equal(client.calls.length, 1);
    assert.deepEqual(client.calls[0]?.inputs, [{ companyWebsite: "acme.com" }, { companyWebsite: "contoso.com" }]);
  });

  it("sends at most 25 inputs a request: 60 websites in 3 requests", async () => {
    const { client, engine } = setup();
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => engine.match(website(`https://c${i + 1}.example/`))));
    assert.deepEqual(
      results.map(idOf),
      Array.from({ length: 60 }, (_, i) => 10001 + i),
    );
    assert.deepEqual(
      client.calls.map((c) => c.inputs.length).sort((a, b) => a - b),
      [10, 25, 25],
    );
    assert.deepEqual(client.calls[0]?.outputFields, ["id"], "the id alone when no field is asked");
  });

  it("merges the fields cells ask of one company; its id then answers them without a request", async () => {
    const { client, engine } = setup();
    const [a, b] = await Promise.all([engine.getCells("company", "acme.com", "name"), engine.getCells("company", "www.acme.com", "revenue")]);
    assert.deepEqual(values(a!), ["ACME"]);
    assert.deepEqual(values(b!), [1010]);
    assert.equal(client.calls.length, 1);
    assert.deepEqual(client.calls[0]?.outputFields, ["name", "revenue"]);
    assert.deepEqual(values(await engine.getCells("company", 101, "name,revenue")), ["ACME", 1010]);
    assert.equal(client.calls.length, 1, "the fields came with the match");
  });
});

describe("matching: cache", () => {
  it("a known website costs nothing on recalculation or after reopening; a new field asks by id", async () => {
    const store = new MemoryCacheStore();
    const first = setup(store);
    await first.engine.getCells("company", "acme.com", "name");
    await first.engine.getCells("company", "https://ACME.com/contact", "name");
    assert.equal(first.client.calls.length, 1, "recalculation asks nothing");

    const reopened = setup(store);
    assert.equal(idOf(await reopened.engine.match(website("www.acme.com"))), 101);
    assert.deepEqual(values(await reopened.engine.getCells("company", 101, "name")), ["ACME"]);
    assert.equal(reopened.client.calls.length, 0, "reopening asks nothing");

    assert.deepEqual(values(await reopened.engine.getCells("company", 101, "country")), ["United States"]);
    assert.deepEqual(
      reopened.client.calls.map((c) => c.inputs),
      [[{ companyId: 101 }]],
      "a new field asks by id, not by website",
    );
  });

  it("value preview answers from the cache only", async () => {
    const { client, engine } = setup();
    const preview = await engine.match(website("acme.com"), { preview: true });
    assert.equal(preview.ok, false);
    assert.equal(client.calls.length, 0);
  });

  it("clearing the cache forgets known matches in the host's storage too: the website is asked again", async () => {
    const storage = memoryKeyValueStorage();
    const { client, engine } = setup(createStorageCacheStore(storage));
    assert.equal(idOf(await engine.match(website("acme.com"))), 101);
    await engine.whenIdle();
    await engine.clearCache();
    assert.deepEqual(await storage.getKeys(), []);
    assert.equal(idOf(await engine.match(website("acme.com"))), 101);
    assert.equal(client.calls.length, 2);
  });

  it("reads each record and match key from the store once, even a store that fails", async () => {
    const asked: string[] = [];
    const failing = {
      getMany: async (keys: readonly string[]) => {
        asked.push(...keys);
        throw new Error("quota");
      },
      setMany: () => Promise.reject(new Error("quota")),
      clear: () => Promise.resolve(),
    };
    const engine = createEnrichmentEngine({ client: new FakeMatchClient(), cache: failing, windowMs: 2 });
    const calculate = () => Promise.all([engine.getCells("company", 102, "name"), engine.getCells("company", "acme.com", "name")]);
    assert.deepEqual((await calculate()).map(values), [["CONTOSO"], ["ACME"]]);
    await engine.whenIdle();
    assert.deepEqual((await calculate()).map(values), [["CONTOSO"], ["ACME"]], "answered from memory");
    assert.equal(asked.filter((key) => key.includes("company:102")).length, 1, "the record key once");
    assert.equal(asked.filter((key) => key.includes("acme.com")).length, 1, "the match key once");
  });
});

describe("matching: misses", () => {
  it("no match, ambiguous and invalid input are #N/A with the reason; a miss is cached, invalid input never sent", async () => {
    const { client, engine } = setup();
    const [none, shared, narrowed, invalid] = await Promise.all([
      engine.match(website("nobody.example.org")),
      engine.match({ kind: "company", criteria: { name: "Northwind" } }),
      engine.match({ kind: "company", criteria: { name: "NORTHWIND", country: "Germany" } }),
      engine.match(website("not a website")),
    ]);
    assert.ok(!none.ok && none.miss === "noMatch" && none.problem.code === "#N/A" && /^No match/.test(none.problem.message), JSON.stringify(none));
    assert.ok(
      !shared.ok &&
        shared.miss === "ambiguous" &&
        /^Ambiguous: several companies match "Northwind" \(name used\); a country or city column, or the website, would decide/.test(shared.problem.message),
      JSON.stringify(shared),
    );
    assert.equal(idOf(narrowed), 201);
    assert.ok(!invalid.ok && invalid.miss === "invalidInput" && /^Invalid input/.test(invalid.problem.message), JSON.stringify(invalid));
    assert.equal(client.calls.length, 1);
    assert.equal(client.calls[0]?.inputs.length, 3, "the invalid website was not sent");
    const again = await engine.match({ kind: "company", criteria: { name: "northwind" } });
    assert.ok(!again.ok && again.miss === "ambiguous");
    assert.equal(client.calls.length, 1, "a recent miss is not asked again");
  });

  it("a failed request settles every cell with the problem and is not cached", async () => {
    const { client, engine } = setup();
    client.failWith = Object.assign(new Error("down"), { kind: "server", userMessage: "The service is down" });
    const results = await Promise.all([engine.match(website("acme.com")), engine.match(website("contoso.com"))]);
    assert.ok(results.every((r) => !r.ok && r.problem.kind === "unavailable"));
    client.failWith = undefined;
    assert.equal(idOf(await engine.match(website("acme.com"))), 101);
    assert.equal(client.calls.length, 2);
  });

  it("a person by email; the company fields nested in a contact come back flat", async () => {
    const { client, engine } = setup();
    assert.deepEqual(values(await engine.getCells("contact", " JANE@acme.com", "firstName,companyName")), ["Jane", "ACME"]);
    assert.deepEqual(values(await engine.getCells("contact", 7, "firstName,companyName")), ["Jane", "ACME"]);
    assert.equal(client.calls.length, 1);
  });
});

describe("matching: lists", () => {
  it("a list answers per row in order, plans the requests, and retries misses when asked", async () => {
    const { client, engine } = setup();
    const rows = ["acme.com", "https://www.acme.com", "", "nobody.example.org", "contoso.com", "bad website"].map(website);
    const plan = await engine.planInputs("company", rows, ["name"]);
    assert.deepEqual(
      {
        unique: plan.unique,
        cached: plan.cachedCount,
        invalid: plan.invalidCount,
        blank: plan.blankCount,
        requests: plan.requests,
        maxCredits: plan.maxCredits,
      },
      { unique: 3, cached: 0, invalid: 1, blank: 1, requests: 1, maxCredits: 3 },
    );
    const progress: number[] = [];
    const answers = await engine.enrichInputs("company", rows, ["name"], { onProgress: (p) => progress.push(p.requestsDone) });
    assert.deepEqual(answers.map(answerOf), [101, 101, "invalidInput", "noMatch", 102, "invalidInput"]);
    assert.deepEqual(values(answers[0]!.result), ["ACME"]);
    assert.deepEqual(progress, [0, 1]);
    const replan = await engine.planInputs("company", rows, ["name"]);
    assert.equal(replan.cachedCount, 3);
    await engine.enrichInputs("company", rows, ["name"]);
    assert.equal(client.calls.length, 1, "known ids and recent misses are not asked again");
    await engine.enrichInputs("company", rows, ["name"], { retryMisses: true });
    assert.deepEqual(client.calls[1]?.inputs, [{ companyWebsite: "nobody.example.org" }], "a retry asks the misses only");
  });
});
