// Field entitlements end to end over real HTTP: the sandbox's production profile, a user whose
// account lacks some output fields, the runtime (production edge + engine) and the BIZ.* cell
// functions. The lookup lists every field; the service refuses revenue in the enrichment answer
// (400 PFAPI0001): the unentitled cell says so, the rest of its 25-record batch arrives, and
// the field is remembered for the account.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Runtime } from "../../src/runtime.js";
import { cellOutcome, invocation, loadFunctions } from "../functions/fakeCustomFunctions.js";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { limitedRuntime } from "./limitedRuntime.js";

const fns = await loadFunctions();

describe("field entitlements on the production profile", () => {
  let sandbox: TestSandbox;
  let runtime: Runtime;
  let ids: number[];

  before(async () => {
    sandbox = await startTestSandbox({ profile: "production" });
    runtime = await limitedRuntime(sandbox, (functions) => fns.configureFunctions(functions));
    ids = (await runtime.client.searchCompanies({}, { size: 25 })).items.map((item) => Number(item.id));
    assert.equal(ids.length, 25);
  });
  after(async () => {
    await runtime.engine.whenIdle();
    fns.configureFunctions(undefined);
    await sandbox.close();
  });

  it('=BIZ.COMPANY(id, "revenue") gets a clear #N/A from the service\'s refusal while the other cells of the 25-record batch get their values', async () => {
    assert.equal(await runtime.entitledFields("company"), undefined, "the lookup lists every field: nothing is known to be refused yet");
    sandbox.resetStats();
    const [revenue, ...names] = await Promise.all([
      cellOutcome(fns.company(ids[0], "revenue", invocation())),
      ...ids.map((id) => cellOutcome(fns.company(id, "name", invocation()))),
      ...ids.slice(0, 3).map((id) => cellOutcome(fns.company(id, "numberOfContactsInService", invocation()))),
    ]);
    assert.equal(revenue!.error, "#N/A");
    assert.match(revenue!.message ?? "", /^Your account is not entitled to the field revenue\b/);
    assert.ok(names.length === 28 && names.every((cell) => cell.error === undefined), JSON.stringify(names.find((cell) => cell.error)));
    assert.ok(
      names.slice(0, 25).every((cell) => typeof cell.value === "string" && cell.value !== ""),
      "every name arrived",
    );
    // The refused request stops at the profile's gateway; its resend without revenue reaches the data.
    assert.equal(sandbox.requests("POST /data/v1/companies/enrich"), 1, "one batch reached the data: no second batch for the 25 names");
  });

  it("remembers the refused field for the account: the pickers leave it out and the next cell asks nothing", async () => {
    const entitled = await runtime.entitledFields("company");
    assert.ok(entitled && !entitled.has("revenue") && entitled.has("name") && entitled.has("numberOfContactsInService"));
    sandbox.resetStats();
    const again = await cellOutcome(fns.company(ids[1], "revenue", invocation()));
    assert.equal(again.error, "#N/A");
    assert.match(again.message ?? "", /not entitled to the field revenue/);
    assert.equal(sandbox.requests("POST /data/v1/companies/enrich"), 0);
  });

  it("an Enrich selection asking a field not yet known to be refused fills the others for every row and says why per cell", async () => {
    const rows = ids.slice(0, 5);
    const results = await runtime.engine.enrichIds("company", rows, ["name", "fax"]);
    for (const id of rows) {
      const result = results.get(id);
      assert.ok(result?.ok, JSON.stringify(result));
      assert.deepEqual(result.fields, ["name", "fax"]);
      assert.ok(typeof result.values[0] === "string" && result.values[0] !== "", "the name arrived");
      assert.match(result.fieldProblems?.fax?.message ?? "", /^Your account is not entitled to the field fax\b/);
    }
    assert.ok(!(await runtime.entitledFields("company"))?.has("fax"), "now remembered");
  });
});
