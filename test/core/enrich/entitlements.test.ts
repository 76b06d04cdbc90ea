// Field entitlements in the enrichment engine: a cell asking a field the account may not use
// gets a clear message, and the other cells of the same batch still get their values.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createEnrichmentEngine, type CellsResult, type FieldEntitlements } from "../../../src/core/enrich/index.js";
import { FakeEnrichClient } from "./fakeClient.js";

const ENTITLED = new Set(["id", "name", "country", "website", "certified"]);

/** The gathering window ends on the next turn of the event loop: no wall-clock wait. */
const clock = { now: () => 0, sleep: () => new Promise<void>((resolve) => setImmediate(resolve)) };

function setup(entitlements?: FieldEntitlements) {
  const client = new FakeEnrichClient();
  let lookups = 0;
  const counted: FieldEntitlements | undefined = entitlements
    ? async (kind) => {
        lookups += 1;
        return entitlements(kind);
      }
    : undefined;
  const engine = createEnrichmentEngine({ client, clock, companionFields: "none", ...(counted ? { entitlements: counted } : {}) });
  return { client, engine, lookups: () => lookups };
}

const problemOf = (result: CellsResult) => {
  assert.ok(!result.ok, "expected a problem");
  return result.problem;
};

describe("enrichment engine: field entitlements", () => {
  it("answers an unentitled field with a clear #N/A while the other records and fields of the 25-record batch arrive", async () => {
    const { client, engine } = setup(async () => ENTITLED);
    const ids = Array.from({ length: 25 }, (_, i) => 100 + i);
    const [revenue, ...names] = await Promise.all([engine.getCells("company", 100, "revenue"), ...ids.map((id) => engine.getCells("company", id, "name"))]);
    const problem = problemOf(revenue!);
    assert.equal(problem.code, "#N/A");
    assert.equal(problem.kind, "unentitled");
    assert.match(problem.message, /^Your account is not entitled to the field revenue\b/);
    assert.deepEqual(
      names.map((r) => (r.ok ? r.values[0] : r.problem.message)),
      ids.map((id) => `Company ${id}`),
    );
    assert.ok(
      client.calls.every((call) => !call.outputFields.includes("revenue")),
      "the refused field is never asked",
    );
    assert.equal(client.calls.flatMap((call) => call.ids).length, 25);
  });

  it("names every unentitled field of a multi-field cell and asks nothing for it", async () => {
    const { client, engine } = setup(async () => ENTITLED);
    const problem = problemOf(await engine.getCells("company", 7, "name,revenue,phone"));
    assert.match(problem.message, /not entitled to the fields revenue, phone/);
    assert.equal(client.calls.length, 0);
  });

  it("runs an Enrich selection's entitled fields for every row and gives the unentitled field the cell's message", async () => {
    const { client, engine } = setup(async () => ENTITLED);
    const results = await engine.enrichIds("company", [1, 2, 3], ["name", "revenue", "country"]);
    assert.deepEqual([...results.keys()], [1, 2, 3]);
    for (const [id, result] of results) {
      assert.ok(result.ok, "the row is enriched");
      assert.deepEqual(result.fields, ["name", "revenue", "country"]);
      assert.deepEqual([result.values[0], result.values[2]], [`Company ${id}`, id % 3 === 0 ? "Germany" : "United States"]);
      assert.equal(result.values[1], "", "no value for the refused field");
      // The same problem a cell asking revenue alone gets.
      assert.deepEqual(result.fieldProblems?.revenue, problemOf(await engine.getCells("company", id, "revenue")));
    }
    assert.equal(client.calls.length, 1, "one request for the three rows");
    assert.ok(
      client.calls.every((call) => !call.outputFields.includes("revenue")),
      "the refused field is never asked",
    );
  });

  it("refuses an Enrich selection before any request when none of its fields is entitled", async () => {
    const { client, engine } = setup(async () => ENTITLED);
    const results = await engine.enrichIds("company", [1, 2], ["revenue", "phone"]);
    for (const result of results.values()) assert.match(problemOf(result).message, /not entitled to the fields revenue, phone/);
    assert.equal(client.calls.length, 0);
    const allowed = await engine.enrichIds("company", [1, 2, 3], ["name", "country"]);
    assert.ok([...allowed.values()].every((r) => r.ok && r.fieldProblems === undefined));
  });

  it("sends everything when the lookup cannot tell (no entitlement known, or the lookup failed)", async () => {
    for (const entitlements of [async () => undefined, async () => Promise.reject(new Error("offline"))] as FieldEntitlements[]) {
      const { engine } = setup(entitlements);
      const result = await engine.getCells("company", 3, "revenue");
      assert.ok(result.ok);
      assert.equal(result.values[0], 30);
    }
    const { engine } = setup();
    assert.ok((await engine.getCells("company", 3, "revenue")).ok, "no entitlements: every field");
  });
});
