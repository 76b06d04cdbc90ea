// Buying committees for a list of accounts (core/accounts/committees.ts) on the real client and
// a scripted transport: the estimate first (a credit per account request, none for an account
// already kept), one org-chart request per account with every department in it, read to its last
// page on the one bulk run, the store filled per account and department, and a run that stops
// when the account has no credits left.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createCommitteeStore, estimateCommittees, fetchCommittees } from "../../../src/core/accounts/index.js";
import { memoryKeyValueStorage } from "../../../src/core/storage/keyValue.js";
import { requestErrors } from "../../vendor/oracle.js";
import { harness } from "../api/harness.js";
import { answer, type RecordedRequest } from "../api/scripted.js";

const ORG_CHART = "/data/v1/companies/org-chart/enrich";
const DEPARTMENTS = ["Sales", "Finance"];

/** People per account: account 7 has 250 (three pages of 100), the others 4; half Sales, half Finance. */
const peopleOf = (account: number) => (account === 7 ? 250 : 4);

function orgCharts(request: RecordedRequest) {
  const account = Number((request.body as { data: { attributes: { companyId: string } } }).data.attributes.companyId);
  if (account === 99) return answer(400, { errors: [{ code: "PFAPI0011", status: "400", title: "Credit limit reached", detail: "No credits left." }] });
  const total = peopleOf(account);
  const number = Number(request.query.get("page[number]") ?? "1");
  const size = Number(request.query.get("page[size]") ?? "25");
  const from = (number - 1) * size;
  const data = Array.from({ length: Math.max(0, Math.min(size, total - from)) }, (_, i) => ({
    id: String(account * 1000 + from + i),
    type: "OrgChart",
    attributes: {
      firstName: "P",
      lastName: `L${from + i}`,
      department: DEPARTMENTS[(from + i) % 2],
      orgChartTier: 1 + ((from + i) % 5),
      companyId: String(account),
    },
  }));
  return answer(200, { data, meta: { totalResults: total, page: { number, total: Math.ceil(total / size) } } });
}

const setup = () => ({ ...harness(orgCharts), store: createCommitteeStore(memoryKeyValueStorage(), () => "specification|user") });

describe("buying committees for a list of accounts", () => {
  it("estimates a credit per distinct account, and none for an account already kept", async () => {
    const { client, clock, store } = setup();
    assert.deepEqual(await estimateCommittees(store, [5, 6, 5], DEPARTMENTS), { toFetch: [5, 6], kept: [], requests: 2, credits: 2 });
    await clock.run(fetchCommittees(client, store, [5], DEPARTMENTS));
    assert.deepEqual(await estimateCommittees(store, [5, 6], ["sales", "FINANCE"]), { toFetch: [6], kept: [5], requests: 1, credits: 1 });
    // A department not kept yet for account 5 asks it again.
    assert.deepEqual((await estimateCommittees(store, [5], ["Marketing"])).toFetch, [5]);
  });

  it("sends one request per account with its departments, reads every page, and keeps each department's people", async () => {
    const { client, clock, store, requests } = setup();
    const result = await clock.run(fetchCommittees(client, store, [5, 7, 6], DEPARTMENTS));
    assert.equal(result.cancelled, false);
    const byAccount = (account: number) =>
      requests.filter((r) => (r.body as { data: { attributes: { companyId: string } } }).data.attributes.companyId === String(account));
    assert.deepEqual(
      [5, 6, 7].map((a) => byAccount(a).length),
      [1, 1, 3],
    );
    for (const request of requests) {
      assert.equal(request.path, ORG_CHART);
      assert.deepEqual(requestErrors("data", "EnrichInterface_enrichOrgChart", request.body), []);
      assert.equal((request.body as { data: { attributes: { department: string } } }).data.attributes.department, "Sales,Finance");
    }
    const seven = result.outcomes.get(7);
    assert.ok(seven?.status === "done" && seven.value.length === 250);
    const sales = await store.get(7, "sales");
    const finance = await store.get(7, "Finance");
    assert.equal(sales?.people.length, 125);
    assert.equal(finance?.people.length, 125);
    assert.ok(sales!.people.every((p) => p.department === "Sales"));
  });

  it("fetches nothing again for accounts already kept", async () => {
    const { client, clock, store, requests } = setup();
    await clock.run(fetchCommittees(client, store, [5, 6], DEPARTMENTS));
    const sent = requests.length;
    const again = await clock.run(fetchCommittees(client, store, [5, 6], DEPARTMENTS));
    assert.equal(requests.length, sent);
    assert.deepEqual(again.plan.kept, [5, 6]);
  });

  it("stops at an account with no credits left: the accounts after it are not sent", async () => {
    const { client, clock, store, requests } = setup();
    const accounts = [99, ...Array.from({ length: 10 }, (_, i) => 100 + i)];
    const result = await clock.run(fetchCommittees(client, store, accounts, DEPARTMENTS));
    const refused = result.outcomes.get(99);
    assert.equal(refused?.status, "refused");
    const notSent = [...result.outcomes.values()].filter((o) => o.status === "notSent").length;
    assert.ok(notSent >= accounts.length - 6, `${notSent} accounts not sent`);
    assert.ok(requests.length <= 6, `${requests.length} requests`);
    assert.equal(await store.get(99, "Sales"), undefined);
  });

  it("refuses to run without a department", async () => {
    const { client, store, requests } = setup();
    await assert.rejects(fetchCommittees(client, store, [5], [" "]), /department/);
    assert.equal(requests.length, 0);
  });
});
