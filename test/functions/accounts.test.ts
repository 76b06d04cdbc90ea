// The BIZ account functions (functions/accountCellsImpl.ts) on the one pipeline with a scripted
// client: a company's family by id, website or name, 25 companies a request, cached (nothing on
// recalculation), counted in the daily cap; a buying committee only as the pane kept it, with
// no org chart ever fetched by a cell.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { createServiceClient, type OrgChartMember, type Transport } from "../../src/core/api/index.js";
import { createCommitteeStore, fetchCommittees } from "../../src/core/accounts/index.js";
import { createEnrichmentEngine } from "../../src/core/enrich/index.js";
import { memoryKeyValueStorage } from "../../src/core/storage/keyValue.js";
import { answer } from "../core/api/scripted.js";
import { AccountsClient } from "../core/accounts/fakeAccountsClient.js";
import { cellOutcome, invocation, loadFunctions } from "./fakeCustomFunctions.js";

const fns = await loadFunctions();

function configure(options: { cap?: number } = {}) {
  const client = new AccountsClient();
  const engine = createEnrichmentEngine({ client, windowMs: 2, ...(options.cap !== undefined ? { dailyNewRecordCap: options.cap } : {}) });
  const committees = createCommitteeStore(memoryKeyValueStorage(), () => "specification|user");
  fns.configureFunctions({ engine, isSignedIn: () => true, committees });
  return { client, committees };
}

afterEach(() => fns.configureFunctions(undefined));

const value = async (promise: Promise<unknown>) => (await cellOutcome(promise)).value;

describe("BIZ.PARENT, BIZ.ULTIMATEPARENT and BIZ.FAMILY", () => {
  it("read a company's parent and ultimate parent, given by id, website or name", async () => {
    configure();
    assert.equal(await value(fns.parent(102, null, invocation())), "ACME");
    assert.equal(await value(fns.parent("c1.example", "id", invocation())), 102);
    assert.equal(await value(fns.ultimateParent("c1.example", "name", invocation())), "ACME");
    assert.equal(await value(fns.ultimateParent("contoso", "id", invocation())), 101);
  });

  it("a company at the top has no parent and is its own ultimate parent", async () => {
    configure();
    assert.equal(await value(fns.parent(101, "name", invocation())), "");
    assert.equal(await value(fns.ultimateParent(101, "id", invocation())), 101);
    assert.equal(await value(fns.ultimateParent(101, "city", invocation())), "Boston");
  });

  it("a company field of the parent is the parent's record, enriched by its id", async () => {
    configure();
    assert.equal(await value(fns.parent(102, "revenue", invocation())), 1010);
    assert.match((await cellOutcome(fns.parent(102, "nonsense", invocation()))).message ?? "", /Name a field of the parent/);
  });

  it("FAMILY spills the family from the top: id, company, parent, ultimate parent, relationship, level", async () => {
    configure();
    assert.deepEqual(await value(fns.family(10001, invocation())), [
      [101, "ACME", "", "ACME", "", 0],
      [102, "CONTOSO", "ACME", "ACME", "Subsidiary", 1],
      [10001, "C1", "CONTOSO", "ACME", "Acquisition", 2],
    ]);
  });

  it("a column of 30 websites is 2 hierarchy requests of at most 25, and recalculation sends nothing", async () => {
    const { client } = configure();
    const sheet = () => Promise.all(Array.from({ length: 30 }, (_, i) => cellOutcome(fns.ultimateParent(`c${i + 2}.example`, "name", invocation()))));
    const first = await sheet();
    assert.deepEqual(
      first.map((c) => c.value),
      Array.from({ length: 30 }, (_, i) => `C${i + 2}`),
    );
    assert.equal(client.hierarchyCalls.length, 2);
    assert.ok(client.hierarchyCalls.every((ids) => ids.length <= 25));
    const calls = client.calls.length;
    assert.deepEqual(await sheet(), first);
    assert.equal(client.hierarchyCalls.length, 2);
    assert.equal(client.calls.length, calls);
  });

  it("one company's parent, ultimate parent and family are one request, whichever cell asks first", async () => {
    const { client } = configure();
    await value(fns.parent(102, "name", invocation()));
    await value(fns.family(102, invocation()));
    await value(fns.ultimateParent(102, "city", invocation()));
    assert.deepEqual(client.hierarchyCalls, [[102]]);
  });

  it("a company not found says so on its cell", async () => {
    configure();
    assert.equal((await cellOutcome(fns.parent(10001 - 1, "name", invocation()))).error, "#N/A");
  });

  it("new families count in the daily cap of new records", async () => {
    const { client } = configure({ cap: 2 });
    const cells = await Promise.all([101, 102, 10001].map((id) => cellOutcome(fns.ultimateParent(id, "id", invocation()))));
    assert.equal(cells.filter((c) => c.value !== undefined).length, 2);
    assert.match(cells.find((c) => c.error)?.message ?? "", /Daily limit of 2 new records/);
    assert.equal(client.hierarchyCalls.flat().length, 2);
  });
});

const member = (id: number, tier: number, department: string): OrgChartMember => ({
  personId: String(id),
  firstName: "Pat",
  lastName: `L${id}`,
  title: `Title ${id}`,
  department,
  jobFunction: "",
  tier,
  subTier: 1,
  hasEmail: true,
  hasDirectPhone: false,
  companyId: "101",
  companyName: "ACME",
});

describe("BIZ.COMMITTEE", () => {
  it("spills the top n by tier of a committee the pane kept, for free", async () => {
    const { client, committees } = configure();
    await committees.put({
      companyId: 101,
      department: "Finance",
      people: [member(3, 3, "Finance"), member(1, 1, "Finance"), member(2, 2, "Finance")],
      fetchedAt: 0,
    });
    assert.deepEqual(await value(fns.committee(101, "finance", 2)), [
      ["Pat L1", "Title 1", 1, 1],
      ["Pat L2", "Title 2", 2, 2],
    ]);
    assert.equal(client.orgChartCalls, 0);
  });

  it("says to fetch it in the pane when it was not fetched, and no cell ever fetches an org chart", async () => {
    const { client } = configure();
    const cells = await Promise.all([cellOutcome(fns.committee(101, "Sales", null)), cellOutcome(fns.committee("acme.com", "Sales", 3))]);
    for (const cell of cells) assert.match(cell.message ?? "", /fetch it in the task pane/);
    assert.equal(client.orgChartCalls, 0);
    // A website not already matched is not matched for a committee either: no request at all.
    assert.equal(client.calls.length, 0);
  });

  it("refuses a count out of range and a missing department", async () => {
    configure();
    assert.equal((await cellOutcome(fns.committee(101, "Sales", 0))).error, "#VALUE!");
    assert.equal((await cellOutcome(fns.committee(101, "", 3))).error, "#VALUE!");
  });
});

/** The real client on a transport that answers hierarchies and org charts and counts the paths asked. */
function serviceOnTransport() {
  const paths: string[] = [];
  const transport: Transport = async (url, init) => {
    const path = new URL(url).pathname;
    paths.push(path);
    const body = JSON.parse(init.body ?? "{}") as { data: { attributes: { matchCompanyInput?: { companyId: number }[]; companyId?: string } } };
    if (path.endsWith("/org-chart/enrich")) {
      const person = { id: "501", type: "OrgChart", attributes: { firstName: "Ann", lastName: "Lee", title: "CFO", department: "Finance", orgChartTier: 1 } };
      return answer(200, { data: [person], meta: { totalResults: 1, page: { number: 1, total: 1 } } });
    }
    const inputs = body.data.attributes.matchCompanyInput ?? [];
    const item = (i: { companyId: number }) => ({
      id: String(i.companyId),
      type: "CorporateHierarchy",
      attributes: { companyId: i.companyId, parentage: [], familyTree: [{ companyId: i.companyId, name: `Top ${i.companyId}` }] },
      meta: { matchStatus: "FULL_MATCH", input: i },
    });
    return answer(200, { data: inputs.map(item) });
  };
  const client = createServiceClient({ baseUrl: "https://api.test", getAccessToken: async () => "token", fetch: transport, rateLimit: { perSecond: 100_000 } });
  return { client, paths };
}

describe("no cell fetches an org chart", () => {
  it("every account cell over the real client sends no org-chart request; only the pane's fetch does, and then the cell shows it", async () => {
    const { client, paths } = serviceOnTransport();
    const engine = createEnrichmentEngine({ client, windowMs: 2 });
    const committees = createCommitteeStore(memoryKeyValueStorage(), () => "specification|user");
    fns.configureFunctions({ engine, isSignedIn: () => true, committees });
    const sheet = () =>
      Promise.all(
        [
          ...[11, 12].flatMap((id) => [fns.parent(id, null, invocation()), fns.ultimateParent(id, "id", invocation()), fns.family(id, invocation())]),
          fns.committee(11, "Finance", 3),
          fns.committee("www.eleven.example", "Finance", 3),
        ].map(cellOutcome),
      );
    const before = await sheet();
    assert.equal(before[1]!.value, 11);
    assert.match(before[6]!.message ?? "", /fetch it in the task pane/);
    assert.ok(paths.length > 0 && paths.every((p) => p.endsWith("/corporate-hierarchy/enrich")), paths.join(" "));
    // The pane's fetch, after its estimate was confirmed, is what asks the org chart.
    await fetchCommittees(client, committees, [11], ["Finance"]);
    assert.equal(paths.filter((p) => p.endsWith("/org-chart/enrich")).length, 1);
    const after = await sheet();
    assert.deepEqual(after[6]!.value, [["Ann Lee", "CFO", 1, 501]]);
    assert.equal(paths.filter((p) => p.endsWith("/org-chart/enrich")).length, 1);
  });
});
