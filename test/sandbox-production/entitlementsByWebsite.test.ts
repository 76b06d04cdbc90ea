// A field refused as unentitled when the company is found by its website (the matching path):
// the refused field is not cached as empty; the cell says why, and the cell's other fields come.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Runtime } from "../../src/runtime.js";
import { cellOutcome, invocation, loadFunctions } from "../functions/fakeCustomFunctions.js";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { limitedRuntime } from "./limitedRuntime.js";

const fns = await loadFunctions();

describe("an unentitled field asked by website on the production profile", () => {
  let sandbox: TestSandbox;
  let runtime: Runtime;
  let website: string;

  before(async () => {
    sandbox = await startTestSandbox({ profile: "production", companies: 300, contacts: 50 });
    runtime = await limitedRuntime(sandbox, (functions) => fns.configureFunctions(functions));
    const found = (await runtime.client.searchCompanies({}, { size: 25 })).items.find(
      (item) => typeof item.attributes.website === "string" && item.attributes.website !== "",
    );
    assert.ok(found, "a company with a website");
    website = String(found.attributes.website);
  });
  after(async () => {
    await runtime.engine.whenIdle();
    fns.configureFunctions(undefined);
    await sandbox.close();
  });

  it('=BIZ.COMPANY(website, "fax") says the account is not entitled, never an empty value, and the name by website still comes', async () => {
    const [name, fax] = await Promise.all([cellOutcome(fns.company(website, "name", invocation())), cellOutcome(fns.company(website, "fax", invocation()))]);
    assert.equal(name.error, undefined, JSON.stringify(name));
    assert.ok(typeof name.value === "string" && name.value !== "");
    assert.equal(fax.error, "#N/A", JSON.stringify(fax));
    assert.match(fax.message ?? "", /not entitled to the field fax/);
    const again = await cellOutcome(fns.company(website, "fax", invocation()));
    assert.match(again.message ?? "", /not entitled to the field fax/, "not an empty value from the cache");
  });
});
