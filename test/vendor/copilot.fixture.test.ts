// The copilot fixture (test/fixtures/vendor/copilot.json, written by scripts/vendor-fixtures.mjs)
// holds the six research, lookalike and insights operations the add-in uses and exactly the schemas they
// reach: every reference resolves, and nothing of the API's other operations is kept.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { vendorOperationIds } from "./oracle.js";

const PREFIX = "#/components/schemas/";
const fixture = JSON.parse(readFileSync(fileURLToPath(new URL("../fixtures/vendor/copilot.json", import.meta.url)), "utf8")) as {
  operations: Record<string, unknown>;
  schemas: Record<string, unknown>;
};

/** Every schema name a value refers to, at any depth. */
function refs(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === "string" && value.startsWith(PREFIX)) out.add(value.slice(PREFIX.length));
  else if (value !== null && typeof value === "object") for (const inner of Object.values(value)) refs(inner, out);
  return out;
}

describe("the copilot fixture", () => {
  it("holds the six operations the add-in uses", () => {
    assert.deepEqual(vendorOperationIds("copilot").sort(), [
      "AccountSummaryInterface_askAccountSummaryQuestion",
      "AccountSummaryInterface_getAccountSummary",
      "CompanyLookalikesInterface_companyLookalikes",
      "ContactLookalikesInterface_getContactLookalikes",
      "ContactRecommendationsInterface_getContactRecommendations",
      "InsightsInterface_getCompanyInsightsByType",
    ]);
  });

  it("keeps exactly the schemas the operations reach, each defined", () => {
    const reached = new Set<string>();
    const pending = [...refs(fixture.operations)];
    while (pending.length > 0) {
      const name = pending.pop()!;
      if (reached.has(name)) continue;
      reached.add(name);
      assert.ok(fixture.schemas[name], `${name} is referred to but missing`);
      pending.push(...refs(fixture.schemas[name]));
    }
    assert.deepEqual(Object.keys(fixture.schemas).sort(), [...reached].sort());
    assert.ok("InsightUnion" in fixture.schemas && !("CustomerBuyerPersona" in fixture.schemas));
  });
});
