// Every validation rule answers 400 with one error object per issue and the right pointer, and
// the sandbox's verdict is the shared validator's (the client gives the same one before sending).
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { validateCompanyEnrichBody, validateCompanySearchBody, validateContactEnrichBody, validateContactSearchBody } from "../../src/core/contract/index.js";
import { useSandbox } from "../helpers/sandbox.js";
import { call, companySearch, contactSearch } from "./http.js";

const sandbox = useSandbox();
let token: string;
before(async () => {
  token = await sandbox.token();
});

const A = "/data/attributes";
const long = "x".repeat(501);
const many = Array.from({ length: 51 }, (_, i) => `v${i}`);

/** [what, filters, pointer of the one expected error] */
const COMPANY_CASES: [string, Record<string, unknown>, string][] = [
  ["unknown attribute", { companyNme: "Acme" }, `${A}/companyNme`],
  ["wrong type (number for text)", { companyName: 42 }, `${A}/companyName`],
  ["wrong type (text for boolean)", { excludeDefunctCompanies: "yes" }, `${A}/excludeDefunctCompanies`],
  ["wrong type (text for integer)", { revenueMin: "100" }, `${A}/revenueMin`],
  ["string longer than 500", { companyName: long }, `${A}/companyName`],
  ["array of more than 50 items", { companyTicker: many }, `${A}/companyTicker`],
  ["zip code with other characters", { zipCode: "94105;DROP" }, `${A}/zipCode`],
  ["radius not in 10, 25, 50, 100, 250", { zipCode: "94105", zipCodeRadiusMiles: 30 }, `${A}/zipCodeRadiusMiles`],
  ["radius without a zip code", { zipCodeRadiusMiles: 25 }, `${A}/zipCodeRadiusMiles`],
  ["budget min below 0", { marketingDepartmentBudgetMin: -1 }, `${A}/marketingDepartmentBudgetMin`],
  ["budget max below 1", { itDepartmentBudgetMax: 0 }, `${A}/itDepartmentBudgetMax`],
  ["budget above int32", { hrDepartmentBudgetMax: 2147483648 }, `${A}/hrDepartmentBudgetMax`],
  ["certified not 0 or 1", { certified: 2 }, `${A}/certified`],
  ["companyType outside its values", { companyType: "public,startup" }, `${A}/companyType`],
  ["companyStructureIncludedSubUnitTypes outside its values", { companyStructureIncludedSubUnitTypes: "BRANCH" }, `${A}/companyStructureIncludedSubUnitTypes`],
  ["locationSearchType outside its values", { locationSearchType: "Anywhere" }, `${A}/locationSearchType`],
  ["engagementType outside its values", { engagementType: ["fax"] }, `${A}/engagementType/0`],
  ["businessModel outside its values", { businessModel: ["B2X"] }, `${A}/businessModel/0`],
  ["date not YYYY-MM-DD", { fundingStartDate: "01/02/2024" }, `${A}/fundingStartDate`],
  ["date that does not exist", { engagementStartDate: "2025-02-30" }, `${A}/engagementStartDate`],
  ["funding start after funding end", { fundingStartDate: "2025-03-01", fundingEndDate: "2025-02-01" }, `${A}/fundingStartDate`],
  ["engagement end without start", { engagementEndDate: "2025-02-01" }, `${A}/engagementEndDate`],
  ["both funding round type filters", { recentFundingRoundTypes: ["seed"], allFundingRoundTypes: ["seed"] }, `${A}/allFundingRoundTypes`],
  ["revenue min greater than max", { revenueMin: 500, revenueMax: 100 }, `${A}/revenueMin`],
  ["employee range min greater than max", { employeeRangeMin: "500", employeeRangeMax: "100" }, `${A}/employeeRangeMin`],
  ["funding amount min greater than max", { fundingAmountMin: 10, fundingAmountMax: 5 }, `${A}/fundingAmountMin`],
  ["numeric text that is not a number", { oneYearEmployeeGrowthRateMin: "ten" }, `${A}/oneYearEmployeeGrowthRateMin`],
  ["SIC codes not four digits", { sicCodes: "737" }, `${A}/sicCodes`],
  ["subUnitTypes without a parent", { subUnitTypes: "DIVISION" }, `${A}/subUnitTypes`],
];

async function expectRejected(path: string, body: unknown, pointers: string[], local: (b: unknown) => { pointer?: string; message: string }[]) {
  const res = await call(sandbox, "POST", path, { token, body });
  assert.equal(res.status, 400);
  assert.match(res.headers.get("content-type") ?? "", /application\/vnd\.api\+json/);
  const errors = res.body.errors as { id: string; code: string; status: string; title: string; detail: string; source: { pointer?: string } }[];
  assert.deepEqual(
    errors.map((e) => e.source.pointer),
    pointers,
  );
  for (const e of errors) {
    assert.equal(e.status, "400");
    assert.ok(e.id && e.code && e.title && e.detail);
  }
  // Same verdict as the shared validator the client runs.
  const issues = local(body);
  assert.deepEqual(
    issues.map((i) => i.pointer),
    pointers,
  );
  assert.deepEqual(
    issues.map((i) => i.message),
    errors.map((e) => e.detail),
  );
}

describe("company search validation (one failing case per rule)", () => {
  for (const [what, filters, pointer] of COMPANY_CASES) {
    test(what, () => expectRejected("/data/v1/companies/search", companySearch(filters), [pointer], validateCompanySearchBody));
  }
  test("several problems give one error each", () =>
    expectRejected(
      "/data/v1/companies/search",
      companySearch({ companyName: long, certified: 5 }),
      [`${A}/companyName`, `${A}/certified`],
      validateCompanySearchBody,
    ));
  test("wrong request type", () =>
    expectRejected("/data/v1/companies/search", { data: { type: "ContactSearch", attributes: {} } }, ["/data/type"], validateCompanySearchBody));
  test("missing attributes", () =>
    expectRejected("/data/v1/companies/search", { data: { type: "CompanySearch" } }, ["/data/attributes"], validateCompanySearchBody));
  test("unknown top-level member", () =>
    expectRejected("/data/v1/companies/search", { data: { type: "CompanySearch", attributes: {} }, extra: 1 }, ["/extra"], validateCompanySearchBody));
  test("the codes: PFAPI0002 for form, PFAPI0006 for values", async () => {
    const res = await call(sandbox, "POST", "/data/v1/companies/search", { token, body: companySearch({ companyNme: "x", revenueMin: 5, revenueMax: 1 }) });
    assert.deepEqual(
      res.body.errors.map((e: { code: string }) => e.code),
      ["PFAPI0002", "PFAPI0006"],
    );
  });
});

describe("contact search validation", () => {
  test("accuracy score outside 70..99", () =>
    expectRejected("/data/v1/contacts/search", contactSearch({ contactAccuracyScoreMin: 50 }), [`${A}/contactAccuracyScoreMin`], validateContactSearchBody));
  test("accuracy min greater than max", () =>
    expectRejected(
      "/data/v1/contacts/search",
      contactSearch({ contactAccuracyScoreMin: 95, contactAccuracyScoreMax: 80 }),
      [`${A}/contactAccuracyScoreMin`],
      validateContactSearchBody,
    ));
  test("company rules apply to contact search too", () =>
    expectRejected("/data/v1/contacts/search", contactSearch({ companyType: "startup" }), [`${A}/companyType`], validateContactSearchBody));
});

describe("enrichment validation", () => {
  const enrich = (attributes: object) => ({ data: { type: "CompanyEnrich", attributes } });
  test("no inputs", () =>
    expectRejected(
      "/data/v1/companies/enrich",
      enrich({ matchCompanyInput: [], outputFields: ["name"] }),
      [`${A}/matchCompanyInput`],
      validateCompanyEnrichBody,
    ));
  test("more than 25 inputs", () =>
    expectRejected(
      "/data/v1/companies/enrich",
      enrich({ matchCompanyInput: Array.from({ length: 26 }, (_, i) => ({ companyId: i + 1 })), outputFields: ["name"] }),
      [`${A}/matchCompanyInput`],
      validateCompanyEnrichBody,
    ));
  test("an output field the service does not have (PFAPI0009)", async () => {
    await expectRejected(
      "/data/v1/companies/enrich",
      enrich({ matchCompanyInput: [{ companyId: 1 }], outputFields: ["name", "shoeSize"] }),
      [`${A}/outputFields/1`],
      validateCompanyEnrichBody,
    );
    const res = await call(sandbox, "POST", "/data/v1/companies/enrich", {
      token,
      body: enrich({ matchCompanyInput: [{ companyId: 1 }], outputFields: ["shoeSize"] }),
    });
    assert.equal(res.body.errors[0].code, "PFAPI0009");
  });
  test("an unknown input attribute", () =>
    expectRejected(
      "/data/v1/companies/enrich",
      enrich({ matchCompanyInput: [{ companyID: 1 }], outputFields: ["name"] }),
      [`${A}/matchCompanyInput/0/companyID`],
      validateCompanyEnrichBody,
    ));
  test("a company id that is not a whole number", () =>
    expectRejected(
      "/data/v1/companies/enrich",
      enrich({ matchCompanyInput: [{ companyId: "12" }], outputFields: ["name"] }),
      [`${A}/matchCompanyInput/0/companyId`],
      validateCompanyEnrichBody,
    ));
  test("missing outputFields", () =>
    expectRejected("/data/v1/companies/enrich", enrich({ matchCompanyInput: [{ companyId: 1 }] }), [`${A}/outputFields`], validateCompanyEnrichBody));
  test("contact enrichment: unknown required field", () =>
    expectRejected(
      "/data/v1/contacts/enrich",
      { data: { type: "ContactEnrich", attributes: { matchPersonInput: [{ personId: 1 }], outputFields: ["email"], requiredFields: ["shoeSize"] } } },
      [`${A}/requiredFields/0`],
      validateContactEnrichBody,
    ));
});

describe("bodies", () => {
  test("malformed JSON is a 400 that says so", async () => {
    const res = await call(sandbox, "POST", "/data/v1/companies/search", { token, rawBody: '{"data": {' });
    assert.equal(res.status, 400);
    assert.match(res.body.errors[0].detail, /not valid JSON/);
    assert.equal(res.body.errors[0].status, "400");
  });
  test("application/json is accepted as well as application/vnd.api+json", async () => {
    const res = await call(sandbox, "POST", "/data/v1/companies/search", { token, body: companySearch({}), contentType: "application/json" });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /application\/vnd\.api\+json/);
  });
  test("another media type is refused with a JSON:API error", async () => {
    const res = await call(sandbox, "POST", "/data/v1/companies/search", { token, rawBody: "companyName=x", contentType: "application/x-www-form-urlencoded" });
    assert.equal(res.status, 415);
    assert.equal(res.body.errors[0].status, "415");
  });
  test("a missing body is a 400", async () => {
    const res = await call(sandbox, "POST", "/data/v1/companies/search", { token });
    assert.equal(res.status, 400);
    assert.equal(res.body.errors[0].source.pointer, "");
  });
  test("unknown routes answer a JSON:API 404", async () => {
    const res = await call(sandbox, "GET", "/data/v1/companies/everything", { token });
    assert.equal(res.status, 404);
    assert.equal(res.body.errors[0].code, "NOT_FOUND");
    assert.equal(res.body.errors[0].status, "404");
  });
});
