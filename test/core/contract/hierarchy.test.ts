// The corporate-hierarchy and org-chart contract against the service's published description:
// the published example requests pass the contract's checks, the published example answers read
// with its answer schemas, and what the contract builds is a request the service's schemas take.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Value } from "@sinclair/typebox/value";
import {
  CorporateHierarchyDocument,
  HIERARCHY_MAX_INPUTS,
  OrgChartDocument,
  familyRows,
  hierarchyBody,
  orgChartBody,
  readOrgChartQuery,
  validateHierarchyBody,
  validateOrgChartBody,
  type FamilyTreeTop,
} from "../../../src/core/contract/index.js";
import { requestErrors, vendorOperation } from "../../vendor/oracle.js";

const HIERARCHY = "EnrichInterface_enrichCorporateHierarchy";
const ORG_CHART = "EnrichInterface_enrichOrgChart";
const example = (operationId: string) => vendorOperation("data", operationId);

describe("contract: corporate hierarchy", () => {
  it("takes the service's example request and reads its example answer", () => {
    const [request] = example(HIERARCHY).requestExamples;
    assert.deepEqual(validateHierarchyBody(request!.value), []);
    const [answer] = example(HIERARCHY).responseExamples;
    assert.ok(Value.Check(CorporateHierarchyDocument, answer!.value));
  });

  it("builds requests the service's schema takes, by id, name or website, up to 25 companies", () => {
    const inputs = Array.from({ length: HIERARCHY_MAX_INPUTS }, (_, i) =>
      i % 3 === 0 ? { companyId: i + 1 } : i % 3 === 1 ? { companyName: `Co ${i}` } : { companyWebsite: `co${i}.com` },
    );
    const body = hierarchyBody(inputs);
    assert.deepEqual(validateHierarchyBody(body), []);
    assert.deepEqual(requestErrors("data", HIERARCHY, body), []);
  });

  it("refuses a 26th company, an unknown output field and an unknown criterion", () => {
    const tooMany = validateHierarchyBody(hierarchyBody(Array.from({ length: HIERARCHY_MAX_INPUTS + 1 }, (_, i) => ({ companyId: i + 1 }))));
    assert.deepEqual(
      tooMany.map((i) => [i.pointer, i.rule]),
      [["/data/attributes/matchCompanyInput", "maxItems"]],
    );
    const field = validateHierarchyBody({
      data: { type: "CorporateHierarchyEnrich", attributes: { matchCompanyInput: [{ companyId: 1 }], outputFields: ["revenue"] } },
    });
    assert.deepEqual(
      field.map((i) => [i.rule, i.code]),
      [["outputField", "PFAPI0009"]],
    );
    const criterion = validateHierarchyBody(hierarchyBody([{ companyTicker: "X" } as never]));
    assert.equal(criterion[0]?.rule, "unknown");
  });

  it("lays a family tree out as rows: top first, each company with its parent, ultimate parent, relationship and level", () => {
    const tree: FamilyTreeTop = {
      companyId: 1,
      name: "Top",
      familyNodes: [
        {
          companyId: 2,
          name: "Sub",
          subUnitTypeInfo: { typeDescription: "Subsidiary", typeId: 4 },
          familyNodes: [{ companyId: 3, name: "Deep", subUnitTypeInfo: { typeDescription: "Acquisition" } }],
        },
        { companyId: 4, name: "Old name", subUnitTypeInfo: { typeDescription: "Former Name" } },
      ],
    };
    assert.deepEqual(
      familyRows(tree).map((r) => [r.companyId, r.parentId, r.ultimateParentId, r.relationship, r.level]),
      [
        [1, undefined, 1, "", 0],
        [2, 1, 1, "Subsidiary", 1],
        [3, 2, 1, "Acquisition", 2],
        [4, 1, 1, "Former Name", 1],
      ],
    );
  });
});

describe("contract: org chart", () => {
  it("takes the service's example request and reads its example answer", () => {
    assert.deepEqual(validateOrgChartBody(example(ORG_CHART).requestExamples[0]!.value), []);
    assert.ok(Value.Check(OrgChartDocument, example(ORG_CHART).responseExamples[0]!.value));
  });

  it("builds requests the service's schema takes, with departments and accuracy scores", () => {
    const body = orgChartBody({ companyId: 344589814, departments: ["sales", "C-Suite"], accuracyMin: 80, accuracyMax: 99 });
    assert.deepEqual(body.data.attributes, {
      companyId: "344589814",
      department: "sales,C-Suite",
      contactAccuracyScoreMin: "80",
      contactAccuracyScoreMax: "99",
    });
    assert.deepEqual(validateOrgChartBody(body), []);
    assert.deepEqual(requestErrors("data", ORG_CHART, body), []);
  });

  it("refuses accuracy scores outside 70 to 99 or in the wrong order", () => {
    const rules = (min?: number, max?: number) =>
      validateOrgChartBody(orgChartBody({ companyId: 1, accuracyMin: min, accuracyMax: max })).map((i) => i.pointer);
    assert.deepEqual(rules(69, 99), ["/data/attributes/contactAccuracyScoreMin"]);
    assert.deepEqual(rules(70, 100), ["/data/attributes/contactAccuracyScoreMax"]);
    assert.deepEqual(rules(90, 80), ["/data/attributes/contactAccuracyScoreMin"]);
    assert.deepEqual(rules(70, 99), []);
  });

  it("reads pages of 1 to 100 people and the sort keys it knows, ignoring the others as the service does", () => {
    assert.deepEqual(readOrgChartQuery({}).query, { page: { number: 1, size: 25 }, sort: [] });
    const read = readOrgChartQuery({ "page[number]": "3", "page[size]": "100", sort: "-contactAccuracyScore,title,lastName" });
    assert.deepEqual(read.issues, []);
    assert.deepEqual(read.query.sort, [
      { field: "contactAccuracyScore", descending: true },
      { field: "lastName", descending: false },
    ]);
    for (const [name, value] of [
      ["page[size]", "101"],
      ["page[size]", "0"],
      ["page[number]", "0"],
      ["page[number]", "x"],
    ] as const) {
      assert.deepEqual(
        readOrgChartQuery({ [name]: value }).issues.map((i) => i.parameter),
        [name],
        `${name}=${value}`,
      );
    }
  });
});
