// A kind declared here only (widgets: 3 companies a request, a credit per new one) flows through
// the one pipeline like the built-in kinds, with no other code: cells gathered into requests of
// at most its cap, each company asked once, cached (in memory and in the store, so a second
// engine asks nothing), charged against the daily cap, by id or by website (matched first, in
// the same pass), with its own words in its messages.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EnrichRecord } from "../../../src/core/api/types.js";
import { createEnrichmentEngine, MemoryCacheStore, type EnrichmentKind } from "../../../src/core/enrich/index.js";
import { FakeMatchClient } from "./fakeMatchClient.js";

/** The widgets service of this test: what each request carried. */
function widgetsKind(requests: number[][]): EnrichmentKind {
  return {
    kind: "widgets",
    label: "Widgets",
    outputFields: { size: { label: "Size", type: "integer" }, colour: { label: "Colour", type: "string" } },
    defaultFields: ["size"],
    matchDefaultFields: ["size"],
    minimalFields: ["size"],
    companions: false,
    maxInputs: 3,
    spends: true,
    noun: "widget maker",
    idLabel: "Widget maker id",
    matchNouns: ["widget maker", "widget makers"],
    matchKind: "company",
    idInput: (id) => ({ companyId: id }),
    async send(_client, seal) {
      const { inputs } = seal();
      const ids = inputs.map((input) => (input as { companyId: number }).companyId);
      requests.push(ids);
      return ids.map((id, i): EnrichRecord<object> =>
        id === 13
          ? { input: inputs[i]!, matchStatus: "NO_MATCH", outcome: "noMatch", attributes: {} }
          : { input: inputs[i]!, matchStatus: "MATCH", outcome: "matched", id: String(id), attributes: { size: id * 2, colour: id % 2 ? "red" : "blue" } },
      );
    },
    cached: (attributes) => attributes,
  };
}

describe("a kind declared only in a test", () => {
  it("is batched at its cap, deduplicated, cached and charged like a built-in kind", async () => {
    const requests: number[][] = [];
    const store = new MemoryCacheStore();
    const engine = createEnrichmentEngine({ client: new FakeMatchClient(), kinds: [widgetsKind(requests)], cache: store, windowMs: 2 });
    const ids = [1, 2, 3, 4, 5, 6, 7, 1, 2];
    const cells = await Promise.all(ids.map((id) => engine.getCells("widgets", id, "Size, colour")));
    assert.deepEqual(
      cells.map((c) => (c.ok ? c.values : c.problem.message)),
      ids.map((id) => [id * 2, id % 2 ? "red" : "blue"]),
    );
    assert.equal(requests.length, 3, "7 companies, 3 a request");
    assert.ok(
      requests.every((r) => r.length <= 3),
      JSON.stringify(requests),
    );
    assert.deepEqual(requests.flat().sort(), [1, 2, 3, 4, 5, 6, 7], "each company asked once");
    await engine.whenIdle();
    assert.equal((await engine.spendStatus()).used, 7, "a credit per new company");

    // Recalculation, and another engine on the same store, ask nothing.
    assert.deepEqual(await engine.getCells("widgets", 4, "size"), { ok: true, fields: ["size"], values: [8] });
    const again = createEnrichmentEngine({ client: new FakeMatchClient(), kinds: [widgetsKind(requests)], cache: store, windowMs: 2 });
    assert.deepEqual(await again.getCells("widgets", 5, "colour"), { ok: true, fields: ["colour"], values: ["red"] });
    assert.equal(requests.length, 3);
  });

  it("takes a website (matched first, in the same pass), says what is wrong in its own words, and keeps the daily cap", async () => {
    const requests: number[][] = [];
    const client = new FakeMatchClient();
    const engine = createEnrichmentEngine({ client, kinds: [widgetsKind(requests)], windowMs: 2, dailyNewRecordCap: 6 });
    const [acme, contoso] = await Promise.all([engine.getCells("widgets", "https://www.acme.com", "size"), engine.getCells("widgets", "contoso.com", "size")]);
    assert.deepEqual(
      [acme, contoso],
      [
        { ok: true, fields: ["size"], values: [202] },
        { ok: true, fields: ["size"], values: [204] },
      ],
    );
    assert.deepEqual(requests, [[101, 102]], "one widgets request for both matched companies");
    assert.equal(client.calls.length, 1, "one match request for both websites");

    const problem = async (input: unknown, fields: unknown) => {
      const result = await engine.getCells("widgets", input, fields);
      return result.ok ? "" : result.problem.message;
    };
    assert.equal(await problem(-1, "size"), "Widget maker id must be a whole number");
    assert.match(await problem(1, "weight"), /^Unknown widget maker field "weight"\. Valid fields: size, colour$/);
    assert.equal(await problem(13, "size"), "No widget maker with id 13");
    // Matching spent 2 (the websites' companies) and widgets 2 of the 6; 13 gave its unit back: two more new companies fit, not three.
    const more = await Promise.all([20, 21, 22].map((id) => engine.getCells("widgets", id, "size")));
    assert.deepEqual(
      more.map((r) => (r.ok ? "ok" : r.problem.kind)),
      ["ok", "ok", "spendCap"],
    );
    assert.equal((await engine.spendStatus()).used, 6);
  });

  it("is each engine's own: two engines declaring a kind of one name with other fields do not share what they resolved", async () => {
    const requests: number[][] = [];
    const sized = createEnrichmentEngine({ client: new FakeMatchClient(), kinds: [widgetsKind(requests)], windowMs: 2 });
    const weighed = createEnrichmentEngine({
      client: new FakeMatchClient(),
      kinds: [{ ...widgetsKind(requests), outputFields: { weight: { label: "Weight", type: "integer" } }, minimalFields: ["weight"] }],
      windowMs: 2,
    });
    const first = await sized.getCells("widgets", 1, "size");
    const second = await weighed.getCells("widgets", 1, "size");
    assert.equal(first.ok, true);
    assert.match(second.ok ? "" : second.problem.message, /Unknown widget maker field "size"\. Valid fields: weight/);
  });

  it("is unknown to an engine not given it", async () => {
    const engine = createEnrichmentEngine({ client: new FakeMatchClient(), windowMs: 2 });
    const result = await engine.getCells("widgets", 1, "size");
    assert.equal(result.ok, false);
    assert.match(result.ok ? "" : result.problem.message, /No kind of enrichment is called "widgets"/);
  });
});
