// What Enrich selection's plan says a signal column costs: intent, scoops and news spend a credit
// per company new to the kind (docs/signals.md), technologies none.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createEnrichmentEngine } from "../../../src/core/enrich/index.js";
import { FakeEnrichClient } from "./fakeClient.js";

const setup = () => ({ engine: createEnrichmentEngine({ client: new FakeEnrichClient(), windowMs: 2 }) });

describe("enrichment engine: signal credits", () => {
  it("plans intent, scoops and news as spending a credit per company, technologies as free", async () => {
    const { engine } = setup();
    for (const kind of ["intent", "scoops", "news"] as const) {
      const plan = await engine.planInputs(kind, [1, 2, 3, 3], [kind === "intent" ? "Cloud Security" : kind]);
      assert.equal(plan.maxCredits, 3, kind);
      assert.equal(plan.underManagementCount, 0, kind);
    }
    const technologies = await engine.planInputs("technologies", [1, 2, 3], ["technologies"]);
    assert.equal(technologies.maxCredits, 0);
    assert.equal(technologies.underManagementCount, 3);
  });
});
