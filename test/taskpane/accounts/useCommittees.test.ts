// The Accounts tab's buying committees, driven as the tab drives them (test/helpers/hooks.ts):
// departments from the lookup, the estimate said before anything is sent (a credit per account,
// kept accounts free), Confirm runs one org-chart request per account on the run hook, and the
// people come back by tier with their account; a second run of the same accounts is free.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { createCommitteeStore } from "../../../src/core/accounts/index.js";
import type { OrgChartMember } from "../../../src/core/api/hierarchyTypes.js";
import { useCommittees, type CommitteeSources } from "../../../src/taskpane/accounts/useCommittees.js";
import { committeeRows, COMMITTEE_COLUMNS } from "../../../src/taskpane/accounts/committeeTable.js";
import { renderHook } from "../../helpers/hooks.js";

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

const person = (companyId: number, department: string, tier: number, personId: number): OrgChartMember => ({
  personId: String(personId),
  firstName: `First${personId}`,
  lastName: `Last${personId}`,
  title: tier === 1 ? '=HYPERLINK("x")' : "Manager",
  department,
  jobFunction: "",
  tier,
  subTier: 1,
  hasEmail: true,
  hasDirectPhone: false,
  accuracy: 90,
  companyId: String(companyId),
  companyName: `Company ${companyId}`,
});

function sources() {
  const items = new Map<string, string>();
  const store = createCommitteeStore({ getItem: async (k) => items.get(k) ?? null, setItem: async (k, v) => void items.set(k, v) }, () => "user");
  const asked: number[] = [];
  const value: CommitteeSources = {
    store,
    client: {
      orgChart: async (ask) => {
        asked.push(ask.companyId);
        return [person(ask.companyId, "Sales", 3, ask.companyId * 10 + 1), person(ask.companyId, "Finance", 1, ask.companyId * 10 + 2)];
      },
    },
    departments: async () => ["Finance", "Sales", "Marketing"],
    matchCredits: async (toMatch) => toMatch.length,
    resolve: async (inputs) => ({ ids: [...inputs.ids, ...inputs.toMatch.map(() => "7")], misses: [] }),
  };
  return { value, asked };
}

describe("buying committees in the pane", () => {
  it("lists the departments, estimates a credit per account first, then fetches and reads the people by tier with their account", async () => {
    const { value, asked } = sources();
    const host = renderHook(() => useCommittees(value));
    await settle();
    assert.deepEqual(host.current.departments, ["Finance", "Sales", "Marketing"]);
    await host.current.estimate({ ids: ["1"], toMatch: [], invalid: [] });
    assert.equal(host.current.message?.text, "Choose at least one department.");
    host.current.setChosen(["Sales", "Finance"]);
    await host.current.estimate({ ids: ["1", "2"], toMatch: ["acme.com"], invalid: [] });
    assert.equal(
      host.current.pending?.text,
      "3 accounts in 2 departments: up to 3 credits (one per account). Finding 1 account by website or name first: up to 1 credit.",
    );
    assert.deepEqual(asked, [], "nothing is sent before Confirm");
    await host.current.confirm();
    assert.deepEqual(asked, [1, 2, 7]);
    assert.equal(host.current.people?.length, 6);
    assert.deepEqual(
      host.current.people?.map((p) => [p.companyId, p.tier]),
      [
        ["1", 1],
        ["1", 3],
        ["2", 1],
        ["2", 3],
        ["7", 1],
        ["7", 3],
      ],
    );
    assert.match(host.current.message?.text ?? "", /^6 people found\.$/);
    host.unmount();
  });

  it("says accounts already fetched are free and does not ask for them again", async () => {
    const { value, asked } = sources();
    const host = renderHook(() => useCommittees(value));
    await settle();
    host.current.setChosen(["Finance"]);
    await host.current.estimate({ ids: ["4"], toMatch: [], invalid: [] });
    await host.current.confirm();
    await host.current.estimate({ ids: ["4", "5"], toMatch: [], invalid: [] });
    assert.equal(host.current.pending?.text, "2 accounts in 1 department: up to 1 credit (one per account); 1 already fetched (free).");
    await host.current.confirm();
    assert.deepEqual(asked, [4, 5]);
    assert.deepEqual(
      host.current.people?.map((p) => p.personId),
      ["42", "52"],
    );
    host.unmount();
  });

  it("Cancel stops the run under way: the requests are aborted, no account is kept, the message says so", async () => {
    const { value, asked } = sources();
    let entered: () => void = () => undefined;
    const first = new Promise<void>((resolve) => (entered = resolve));
    value.client = {
      orgChart: (_ask, call) =>
        new Promise((_resolve, reject) => {
          entered();
          // As the client refuses a request whose signal is aborted (a ServiceError of kind "cancelled").
          call?.signal?.addEventListener("abort", () => reject(Object.assign(new Error("The request was cancelled."), { kind: "cancelled" })), { once: true });
        }),
    };
    const host = renderHook(() => useCommittees(value));
    await settle();
    host.current.setChosen(["Sales"]);
    await host.current.estimate({ ids: ["1", "2", "3"], toMatch: [], invalid: [] });
    const running = host.current.confirm();
    await first;
    assert.equal(host.current.running, true);
    host.current.cancel();
    await running;
    assert.equal(host.current.running, false);
    assert.deepEqual(asked, []);
    assert.deepEqual(host.current.people, []);
    assert.equal(host.current.message?.text, "Cancelled: 0 people found. 3 accounts were not asked.");
    await host.current.estimate({ ids: ["1", "2", "3"], toMatch: [], invalid: [] });
    assert.match(host.current.pending?.text ?? "", /^3 accounts in 1 department: up to 3 credits/, "nothing kept: all three cost again");
    host.unmount();
  });

  it("lays the people out as rows with their account, the service's strings as given", () => {
    const rows = committeeRows([person(3, "Finance", 1, 31)]);
    assert.deepEqual(
      COMMITTEE_COLUMNS.map((c) => c.header),
      ["Account id", "Account", "Department", "Tier", "Sub-tier", "Person id", "First name", "Last name", "Job title", "Email known", "Direct phone known"],
    );
    assert.deepEqual(rows, [[3, "Company 3", "Finance", 1, 1, 31, "First31", "Last31", '=HYPERLINK("x")', true, false]]);
    assert.equal(COMMITTEE_COLUMNS[8]?.type, "text");
  });
});
