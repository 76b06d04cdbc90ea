// The corporate family as a kind of enrichment (core/accounts/hierarchyKind.ts) in Enrich
// selection: a column of company ids gets its ultimate parent and relationship beside each row,
// planned first (a credit per company not cached, 25 a request), and the companies not found say
// so on their rows.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hierarchyAttributes } from "../../../src/core/accounts/index.js";
import { createEnrichmentEngine, declaredKinds, planSelectionEnrichment, runSelectionEnrichment } from "../../../src/core/enrich/index.js";
import { AccountsClient } from "./fakeAccountsClient.js";

describe("the corporate family in Enrich selection", () => {
  it("is a declared kind keyed by company", () => {
    const kind = declaredKinds().find((k) => k.kind === "hierarchy");
    assert.ok(kind && kind.matchKind === "company" && kind.maxInputs === 25 && kind.spends);
  });

  it("plans a credit per company not cached, 25 a request, and writes the ultimate parent and relationship beside each row", async () => {
    const client = new AccountsClient();
    const engine = createEnrichmentEngine({ client, windowMs: 1 });
    const ids = [101, 102, 10001, ...Array.from({ length: 57 }, (_, i) => 10002 + i), 5];
    const planned = await planSelectionEnrichment(engine, "hierarchy", { address: "Sheet1!A1:A62", values: ["Company id", ...ids] }, [
      "ultimateParentId",
      "ultimateParentName",
      "relationship",
    ]);
    assert.equal(planned.plan.maxCredits, ids.length);
    assert.equal(planned.plan.requests, 3);
    const { output } = await runSelectionEnrichment(engine, planned);
    assert.equal(client.hierarchyCalls.length, 3);
    assert.ok(client.hierarchyCalls.every((c) => c.length <= 25));
    assert.deepEqual(output.headers.slice(0, 3), ["Ultimate parent id", "Ultimate parent", "Relationship to parent"]);
    assert.deepEqual(output.rows[1]!.slice(0, 3), [101, "ACME", "Subsidiary"]);
    assert.deepEqual(output.rows[2]!.slice(0, 3), [101, "ACME", "Acquisition"]);
    assert.deepEqual(output.rows[0]!.slice(0, 3), [101, "ACME", ""]);
    assert.match(String(output.rows[ids.length - 1]!.at(-1)), /No company/);
    // A second plan over the same column is free.
    const again = await planSelectionEnrichment(engine, "hierarchy", { address: "Sheet1!A1:A62", values: ["Company id", ...ids] }, ["ultimateParentId"]);
    assert.equal(again.plan.maxCredits, 0);
  });

  it("reads a company's place from the service's published shape: parentage up, the family tree down", () => {
    const attributes = hierarchyAttributes({
      input: { companyId: 382321985 },
      matchStatus: "FULL_MATCH",
      outcome: "matched",
      companyId: 382321985,
      parentage: [
        { companyId: "344589814", companyName: "ZoomInfo", city: "Vancouver", state: "Washington", subUnitType: "SUBSIDIARY", subUnitDesc: "Subsidiary" },
      ],
      familyTree: [
        {
          companyId: 344589814,
          name: "ZoomInfo",
          familyNodes: [{ companyId: 382321985, name: "Comparably", subUnitTypeInfo: { typeId: 4, typeDescription: "Subsidiary" } }],
        },
      ],
    });
    assert.deepEqual(
      [
        attributes.parentId,
        attributes.parentName,
        attributes.ultimateParentId,
        attributes.ultimateParentState,
        attributes.relationship,
        attributes.level,
        attributes.familySize,
      ],
      [344589814, "ZoomInfo", 344589814, "Washington", "Subsidiary", 1, 2],
    );
  });
});
