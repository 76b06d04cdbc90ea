// "Enrich selection" from a selected column to the rows written back, on a scripted client
// and an in-memory workbook column.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createEnrichmentEngine, planSelectionEnrichment, runSelectionEnrichment, STATUS_HEADER } from "../../../src/core/enrich/index.js";
import { FakeEnrichClient } from "./fakeClient.js";

describe("enrich selection", () => {
  it("plans with a header, runs in requests of 25, and lines rows up with the selection", async () => {
    const client = new FakeEnrichClient();
    client.behaviour = (_k, id) => (id === 13 ? { status: "NO_MATCH", outcome: "noMatch" } : undefined);
    const engine = createEnrichmentEngine({ client, windowMs: 1 });
    await engine.getCells("company", 1, "name,revenue"); // cached already
    client.calls.length = 0;
    const ids = Array.from({ length: 60 }, (_, i) => i + 1);
    const values = ["Company id", ...ids, 1, "", "abc", 13];
    const planned = await planSelectionEnrichment(engine, "company", { address: "Sheet1!A1:A65", values }, ["name", "revenue"]);
    assert.equal(planned.header, "Company id");
    assert.equal(planned.plan.ids.length, 60);
    assert.equal(planned.plan.cachedCount, 1);
    assert.equal(planned.plan.maxCredits, 59);
    assert.equal(planned.plan.requests, 3);

    const { output, cancelled } = await runSelectionEnrichment(engine, planned);
    assert.equal(cancelled, false);
    assert.equal(client.calls.length, 3);
    assert.ok(client.calls.every((c) => c.ids.length <= 25 && !c.ids.includes(1)));
    assert.deepEqual(output.headers, ["Company name", "Revenue ($K)", STATUS_HEADER]);
    assert.equal(output.rows.length, values.length - 1);
    assert.deepEqual(output.rows[0], ["Company 1", 10, ""]);
    assert.deepEqual(output.rows[60], ["Company 1", 10, ""]); // the duplicate repeats the values
    assert.deepEqual(output.rows[61], ["", "", ""]); // blank stays blank
    assert.deepEqual(output.rows[62], ["", "", "Company id must be a whole number"]);
    assert.deepEqual(output.rows[12], ["", "", "No company with id 13"]);
    assert.deepEqual(output.counts, { enriched: 60, problems: 3, blank: 1, matched: 0, unmatched: 0 }); // 13 twice, "abc"
  });

  it("writes the entitled fields for every row and marks an unentitled field's column in each of its cells", async () => {
    const client = new FakeEnrichClient();
    const engine = createEnrichmentEngine({ client, windowMs: 1, companionFields: "none", entitlements: async () => new Set(["name", "country"]) });
    const planned = await planSelectionEnrichment(engine, "company", { address: "Sheet1!A1:A4", values: ["Company id", 1, 2, "x"] }, ["name", "revenue"]);
    const { output } = await runSelectionEnrichment(engine, planned);
    const refused = "Your account is not entitled to the field revenue. Ask your administrator, or remove it";
    assert.deepEqual(output.headers, ["Company name", "Revenue ($K)", STATUS_HEADER]);
    assert.deepEqual(output.rows, [
      ["Company 1", refused, ""],
      ["Company 2", refused, ""],
      ["", "", "Company id must be a whole number"],
    ]);
    assert.deepEqual(output.counts, { enriched: 2, problems: 1, blank: 0, matched: 0, unmatched: 0 });
    assert.deepEqual(output.columnProblems, [{ header: "Revenue ($K)", message: refused }]);
    assert.deepEqual(
      client.calls.map((c) => c.outputFields),
      [["name"]],
    );
  });

  it("has no status column when every row was enriched, and no header when none was selected", async () => {
    const engine = createEnrichmentEngine({ client: new FakeEnrichClient(), windowMs: 1 });
    const planned = await planSelectionEnrichment(engine, "contact", { address: "Sheet1!C2:C3", values: [5, "6"] }, ["lastName"]);
    assert.equal(planned.header, undefined);
    const { output } = await runSelectionEnrichment(engine, planned);
    assert.deepEqual(output.headers, ["Last name"]);
    assert.deepEqual(output.rows, [["Last5"], ["Last6"]]);
  });
});
