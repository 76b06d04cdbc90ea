// The client's corporate-hierarchy enrich, org-chart enrich and enrich lookup
// (core/api/hierarchyOperations.ts) against the service's own published examples
// (test/fixtures/vendor/data.json): every request it sends is one the service's request schema
// takes, every example answer is read, and a request the contract refuses is never sent.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { productionTransport } from "../../src/core/api/production/index.js";
import { isServiceError } from "../../src/core/api/index.js";
import { familyRows, type HierarchyMatchInput } from "../../src/core/contract/index.js";
import { harness, rejection } from "../core/api/harness.js";
import { answer, FakeClock, scriptedTransport, type RecordedRequest } from "../core/api/scripted.js";
import { requestErrors, responseErrors, vendorOperation } from "./oracle.js";

const HIERARCHY = "EnrichInterface_enrichCorporateHierarchy";
const ORG_CHART = "EnrichInterface_enrichOrgChart";
const LOOKUP = "LookupEnrichInterface_lookupEnrich";

const example = (id: string) => {
  const op = vendorOperation("data", id);
  return { request: op.requestExamples[0]?.value as { data: { attributes: Record<string, unknown> } }, answer: op.responseExamples[0]!.value };
};

const noMatch = (i: number) => ({ id: String(i), type: "NoMatch", meta: { matchStatus: "NO_MATCH", input: {} } });

/** An org chart of `total` people answered a page at a time from the query's page[number] and page[size]. */
function orgChartPages(total: number) {
  return (request: RecordedRequest) => {
    const number = Number(request.query.get("page[number]") ?? "1");
    const size = Number(request.query.get("page[size]") ?? "25");
    const from = (number - 1) * size;
    const data = Array.from({ length: Math.max(0, Math.min(size, total - from)) }, (_, i) => ({
      id: String(1000 + from + i),
      type: "OrgChart",
      attributes: { firstName: "P", lastName: String(from + i), department: "Sales", orgChartTier: 1 + ((from + i) % 5), orgChartSubTier: 2, companyId: "7" },
    }));
    return answer(200, { data, meta: { totalResults: total, page: { number, total: Math.ceil(total / size) } } });
  };
}

const bodiesValid = (sent: RecordedRequest[], id: string) => {
  for (const request of sent) assert.deepEqual(requestErrors("data", id, request.body), [], JSON.stringify(request.body));
};

describe("corporate hierarchy: the client on the service's published example", () => {
  it("sends the example request as the service's schema takes it and reads its family", async () => {
    const { request, answer: published } = example(HIERARCHY);
    assert.deepEqual(responseErrors("data", HIERARCHY, published), []);
    const { client, requests } = harness(() => answer(200, published));
    const inputs = request.data.attributes.matchCompanyInput as HierarchyMatchInput[];
    const [found] = await client.enrichHierarchy(inputs, { outputFields: ["familyTree", "companyId"] });
    bodiesValid(requests, HIERARCHY);
    assert.deepEqual(requests[0]!.body, request);
    assert.equal(found!.outcome, "matched");
    assert.equal(found!.companyId, 344589814);
    const rows = familyRows(found!.familyTree[0]!);
    assert.deepEqual(
      rows.map((r) => [r.name, r.parentName, r.relationship, r.level]),
      [
        ["ZoomInfo", "", "", 0],
        ["Comparably", "ZoomInfo", "Subsidiary", 1],
        ["DiscoverOrg", "ZoomInfo", "Acquisition", 1],
      ],
    );
  });

  it("sends companies by id, name and website in one request, and reads a NoMatch as no match, in order", async () => {
    const { answer: published } = example(HIERARCHY);
    const matched = (published as { data: unknown[] }).data[0];
    const { client, requests } = harness(() => answer(200, { data: [noMatch(0), matched, noMatch(2)] }));
    const inputs = [{ companyName: "Nobody Inc" }, { companyWebsite: "www.zoominfo.com" }, { companyId: 5 }];
    const answers = await client.enrichHierarchy(inputs);
    bodiesValid(requests, HIERARCHY);
    assert.deepEqual(
      answers.map((a) => [a.outcome, a.companyId]),
      [
        ["noMatch", undefined],
        ["matched", 344589814],
        ["noMatch", undefined],
      ],
    );
  });

  it("refuses a 26th company before sending anything", async () => {
    const { client, requests } = harness(() => answer(200, { data: [] }));
    const error = await rejection(client.enrichHierarchy(Array.from({ length: 26 }, (_, i) => ({ companyId: i + 1 }))));
    assert.ok(isServiceError(error) && error.kind === "validation");
    assert.equal(requests.length, 0);
  });

  it("refuses an answer of the wrong shape", async () => {
    const { client } = harness(() => answer(200, { data: [{ id: "1", type: "CorporateHierarchy", attributes: { familyTree: "no" } }] }));
    const error = await rejection(client.enrichHierarchy([{ companyId: 1 }]));
    assert.ok(isServiceError(error) && error.kind === "invalidResponse");
  });
});

describe("org chart: the client on the service's published example", () => {
  it("sends the example request as the service's schema takes it and reads its person", async () => {
    const { request, answer: published } = example(ORG_CHART);
    assert.deepEqual(responseErrors("data", ORG_CHART, published), []);
    const { client, requests } = harness(() => answer(200, published));
    const page = await client.orgChartPage({ companyId: Number(request.data.attributes.companyId) });
    bodiesValid(requests, ORG_CHART);
    assert.deepEqual(requests[0]!.body, request);
    const [person] = page.items;
    assert.deepEqual(
      [person!.personId, person!.title, person!.department, person!.tier, person!.subTier, person!.hasEmail],
      ["8256366202", "Chief Operations Officer", "C-Suite", 2, 2, false],
    );
  });

  it("sends departments, accuracy, page and sort as the service takes them", async () => {
    const { client, requests } = harness(orgChartPages(3));
    await client.orgChartPage(
      { companyId: 7, departments: ["Sales", "Finance"], accuracyMin: 80, accuracyMax: 95 },
      { page: 1, size: 100, sort: "-contactAccuracyScore" },
    );
    bodiesValid(requests, ORG_CHART);
    const sent = requests[0]!;
    assert.deepEqual((sent.body as { data: { attributes: unknown } }).data.attributes, {
      companyId: "7",
      department: "Sales,Finance",
      contactAccuracyScoreMin: "80",
      contactAccuracyScoreMax: "95",
    });
    assert.deepEqual([sent.query.get("page[number]"), sent.query.get("page[size]"), sent.query.get("sort")], ["1", "100", "-contactAccuracyScore"]);
  });

  it("reads every page to the end, 100 people a page", async () => {
    const { client, requests, clock } = harness(orgChartPages(250));
    const people = await clock.run(client.orgChart({ companyId: 7, departments: ["Sales"] }));
    assert.equal(people.length, 250);
    assert.equal(new Set(people.map((p) => p.personId)).size, 250);
    assert.deepEqual(
      requests.map((r) => [r.query.get("page[number]"), r.query.get("page[size]")]),
      [
        ["1", "100"],
        ["2", "100"],
        ["3", "100"],
      ],
    );
    bodiesValid(requests, ORG_CHART);
  });

  it("refuses a page of 101, an accuracy of 60 or a low score above the high one, sending nothing", async () => {
    const { client, requests } = harness(orgChartPages(3));
    for (const call of [
      () => client.orgChartPage({ companyId: 7 }, { size: 101 }),
      () => client.orgChartPage({ companyId: 7, accuracyMin: 60 }),
      () => client.orgChart({ companyId: 7, accuracyMin: 95, accuracyMax: 80 }),
    ]) {
      const error = await rejection(call());
      assert.ok(isServiceError(error) && error.kind === "validation");
    }
    assert.equal(requests.length, 0);
  });

  it("on the production profile, a 400 for a page after the first ends the org chart", async () => {
    const pages = orgChartPages(250);
    const wire = scriptedTransport(new FakeClock(), (request) =>
      Number(request.query.get("page[number]")) > 2 ? answer(400, { error: { code: "PFAPI0002" } }) : pages(request),
    );
    const { client, clock } = harness(() => answer(500), { fetch: productionTransport(wire), profile: "production" });
    const people = await clock.run(client.orgChart({ companyId: 7 }));
    assert.equal(people.length, 200);
    assert.deepEqual(
      wire.requests.map((r) => r.query.get("page[number]")),
      ["1", "2", "3"],
    );
  });
});

describe("the enrich lookup", () => {
  it("asks the fields of an operation by entity and field type, and reads them", async () => {
    const { client, requests } = harness(() =>
      answer(200, {
        data: [{ id: "companyId", type: "EnrichField", attributes: { fieldName: "companyId", description: "The company's id.", accessGranted: true } }],
      }),
    );
    const fields = await client.enrichLookup("corporate-hierarchy", "input");
    assert.deepEqual(fields, [{ fieldName: "companyId", description: "The company's id.", accessGranted: true }]);
    const sent = requests[0]!;
    assert.equal(sent.method, vendorOperation("data", LOOKUP).method);
    assert.equal(sent.path, vendorOperation("data", LOOKUP).path);
    assert.deepEqual([sent.query.get("filter[entity]"), sent.query.get("filter[fieldType]")], ["corporate-hierarchy", "input"]);
  });

  it("refuses an entity it has no lookup for, sending nothing", async () => {
    const { client, requests } = harness(() => answer(200, { data: [] }));
    const error = await rejection(client.enrichLookup("company" as never, "input"));
    assert.ok(isServiceError(error) && error.kind === "validation");
    assert.equal(requests.length, 0);
  });
});
