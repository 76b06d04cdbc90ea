// "Get contact details" for the committee people picked: the contact enrichment's estimate is
// said first (credits for people new to the account, the cached free), nothing is enriched before
// Confirm, and the details come back as rows with each person's account (none answered: empty).
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { OrgChartMember } from "../../../src/core/api/hierarchyTypes.js";
import type { SelectionPlan } from "../../../src/core/enrich/index.js";
import { useContactDetails, type ContactDetailsEngine } from "../../../src/taskpane/accounts/useContactDetails.js";
import { renderHook } from "../../helpers/hooks.js";

const person = (personId: string, companyId: string): OrgChartMember => ({
  personId,
  firstName: "Ann",
  lastName: `P${personId}`,
  title: "CFO",
  department: "Finance",
  jobFunction: "",
  tier: 1,
  subTier: 1,
  hasEmail: true,
  hasDirectPhone: true,
  companyId,
  companyName: `Company ${companyId}`,
});

function engine() {
  const enriched: number[][] = [];
  const value: ContactDetailsEngine = {
    planInputs: async (_kind, inputs) => ({ maxCredits: inputs.length - 1, cachedCount: 1, underManagementCount: 0 }) as unknown as SelectionPlan,
    enrichIds: async (_kind, ids, fields) => {
      enriched.push([...ids]);
      assert.deepEqual(fields, ["email", "phone", "mobilePhone"]);
      return new Map(ids.filter((id) => id !== 13).map((id) => [id, { ok: true as const, fields: [...fields], values: [`p${id}@x.com`, "+1 555", ""] }]));
    },
  };
  return { value, enriched };
}

describe("contact details of committee people", () => {
  it("estimates first, enriches the people picked on Confirm, and lays out their details with their account", async () => {
    const { value, enriched } = engine();
    const host = renderHook(() => useContactDetails(value));
    await host.current.estimate([]);
    assert.equal(host.current.message?.text, "Tick the people whose contact details you want.");
    await host.current.estimate([person("11", "1"), person("12", "1"), person("13", "2")]);
    assert.equal(host.current.pending?.text, "Contact details of 3 people: up to 2 credits; 1 free (fetched before or already yours).");
    assert.deepEqual(enriched, [], "nothing enriched before Confirm");
    await host.current.confirm();
    assert.deepEqual(enriched, [[11, 12, 13]]);
    assert.deepEqual(host.current.rows, [
      [11, "Ann", "P11", "CFO", 1, "Company 1", "p11@x.com", "+1 555", ""],
      [12, "Ann", "P12", "CFO", 1, "Company 1", "p12@x.com", "+1 555", ""],
      [13, "Ann", "P13", "CFO", 2, "Company 2", "", "", ""],
    ]);
    assert.equal(host.current.message?.text, "Contact details of 2 people. No details for 1 person.");
    host.unmount();
  });
});
