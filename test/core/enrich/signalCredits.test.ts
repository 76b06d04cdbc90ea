// What Enrich selection's plan says a signal column costs: intent, scoops and news spend a credit
// per company new to the kind (docs/signals.md), technologies none; and a signal cell of a company
// new to the kind reserves today's cap before it is sent, as a record does.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createEnrichmentEngine } from "../../../src/core/enrich/index.js";
import type { ScoopEnrichInput } from "../../../src/core/contract/index.js";
import { FakeEnrichClient } from "./fakeClient.js";

/** The enrich fake with the signal operations: scoop enrich answers no scoop, counting the companies asked. */
class SignalEnrichClient extends FakeEnrichClient {
  readonly scoopCompanies: string[] = [];
  readonly enrichScoops = async (input: ScoopEnrichInput) => {
    this.scoopCompanies.push(...String(input.companyId).split(","));
    return [];
  };
  readonly searchIntent = () => Promise.reject(new Error("not asked"));
  readonly enrichIntent = () => Promise.reject(new Error("not asked"));
  readonly enrichNews = () => Promise.reject(new Error("not asked"));
  readonly enrichTechnologies = () => Promise.reject(new Error("not asked"));
}

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

  it("reserves today's cap for scoop cells: with a cap of 2, three new companies' cells send two and say the limit on the third", async () => {
    const client = new SignalEnrichClient();
    const engine = createEnrichmentEngine({ client: client as unknown as FakeEnrichClient, windowMs: 2, dailyNewRecordCap: 2 });
    const cells = await Promise.all([1, 2, 3].map((id) => engine.getCells("scoops", id, "scoops90")));
    assert.deepEqual(
      cells.map((c) => (c.ok ? "ok" : c.problem.kind)),
      ["ok", "ok", "spendCap"],
    );
    assert.deepEqual(client.scoopCompanies, ["1", "2"], "the third company was never asked");
    assert.equal((await engine.spendStatus()).used, 2);
  });
});
