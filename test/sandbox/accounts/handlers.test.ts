// The hierarchy and org-chart operations of the twin, called directly: the service's example
// requests answered, the answers over a broad set (every input kind, NoMatch, every page) in the
// service's published shapes (its schemas, with Ajv), the 25-company cap and the paging limits
// refused with the service's errors, and credits spent as the service says.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type Database from "better-sqlite3";
import { hierarchyBody, orgChartBody, type CorporateHierarchyItem, type HierarchyMatchInput, type OrgChartDocument } from "../../../src/core/contract/index.js";
import { openDatabase } from "../../../src/sandbox/store/database.js";
import { createAccountStore, type AccountStore } from "../../../src/sandbox/credits.js";
import { ApiError, ValidationFailure } from "../../../src/sandbox/errors.js";
import { recordMatchers } from "../../../src/sandbox/routes/enrich.js";
import { accountOperations, enrichCorporateHierarchy, enrichOrgChart, type AccountOperations } from "../../../src/sandbox/accounts/handlers.js";
import { accountLookupDocument } from "../../../src/sandbox/accounts/lookupFields.js";
import { DESIGNED_FAMILY } from "../../../src/sandbox/accounts/seed.js";
import { responseErrors, vendorOperation } from "../../vendor/oracle.js";
import { TEST_COMPANIES, TEST_CONTACTS } from "../../helpers/sandbox.js";

const HIERARCHY = "EnrichInterface_enrichCorporateHierarchy";
const ORG_CHART = "EnrichInterface_enrichOrgChart";
const LOOKUP = "LookupEnrichInterface_lookupEnrich";

describe("twin: hierarchy and org chart operations", () => {
  let db: Database.Database;
  let accounts: AccountStore;
  let ops: AccountOperations;
  /** The answer matches the service's published schema. */
  const conforms = <T>(operationId: string, doc: T, what: string): T => {
    assert.deepEqual(responseErrors("data", operationId, doc), [], what);
    return doc;
  };
  const hierarchy = (account: string, inputs: HierarchyMatchInput[]) =>
    conforms(HIERARCHY, enrichCorporateHierarchy(hierarchyBody(inputs), account, ops), JSON.stringify(inputs)).data;
  const company = (id: number) => db.prepare("SELECT id, name, domain FROM companies WHERE id = ?").get(id) as { id: number; name: string; domain: string };

  before(() => {
    db = openDatabase(undefined, { seed: 1, companies: TEST_COMPANIES, contacts: TEST_CONTACTS }).db;
    accounts = createAccountStore(db);
    const matchers = recordMatchers(db);
    ops = accountOperations({ db, credits: accounts }, (input) => matchers.company(input));
    accounts.resetAccount("rich", 100_000);
  });

  it("answers the service's example requests", () => {
    for (const example of vendorOperation("data", HIERARCHY).requestExamples)
      conforms(HIERARCHY, enrichCorporateHierarchy(example.value, "rich", ops), example.name);
    for (const example of vendorOperation("data", ORG_CHART).requestExamples) conforms(ORG_CHART, enrichOrgChart(example.value, {}, "rich", ops), example.name);
  });

  it("matches by id, name and website, each with its parentage and family tree, and answers NoMatch in its place", () => {
    const deep = company(33);
    const data = hierarchy("rich", [
      { companyId: 33 },
      { companyName: deep.name },
      { companyWebsite: `https://www.${deep.domain}/about` },
      { companyId: 999_999 },
      { companyName: "No Such Company Anywhere" },
    ]);
    assert.deepEqual(
      data.map((item) => [item.type, item.id, item.meta?.matchStatus]),
      [
        ["CorporateHierarchy", "33", "FULL_MATCH"],
        ["CorporateHierarchy", "33", "FULL_MATCH"],
        ["CorporateHierarchy", "33", "FULL_MATCH"],
        ["NoMatch", "0", "NO_MATCH"],
        ["NoMatch", "0", "NO_MATCH"],
      ],
    );
    const match = data[0] as CorporateHierarchyItem;
    assert.deepEqual(
      match.attributes.parentage?.map((p) => p.companyId),
      ["32", "31", "30"],
    );
    assert.equal(match.attributes.familyTree?.[0]?.companyId, DESIGNED_FAMILY.top);
    assert.deepEqual(data[3]!.meta?.input, { companyId: 999_999 });
  });

  it("answers only the output fields asked, and every company of many families in the published shape", () => {
    const [only] = conforms(HIERARCHY, enrichCorporateHierarchy(hierarchyBody([{ companyId: 31 }], ["parentage"]), "rich", ops), "parentage only").data;
    assert.deepEqual(Object.keys((only as CorporateHierarchyItem).attributes), ["parentage"]);
    const subUnits = db.prepare("SELECT id FROM companies WHERE parent_id > 0 ORDER BY id LIMIT 100").all() as { id: number }[];
    for (let i = 0; i < subUnits.length; i += 25)
      hierarchy(
        "rich",
        subUnits.slice(i, i + 25).map((row) => ({ companyId: row.id })),
      );
  });

  it("refuses a 26th company and an unknown output field with the service's validation errors", () => {
    const tooMany = hierarchyBody(Array.from({ length: 26 }, (_, i) => ({ companyId: i + 1 })));
    assert.throws(
      () => enrichCorporateHierarchy(tooMany, "rich", ops),
      (e: unknown) => e instanceof ValidationFailure && e.issues[0]?.rule === "maxItems",
    );
    const field = { data: { type: "CorporateHierarchyEnrich", attributes: { matchCompanyInput: [{ companyId: 1 }], outputFields: ["revenue"] } } };
    assert.throws(
      () => enrichCorporateHierarchy(field, "rich", ops),
      (e: unknown) => e instanceof ValidationFailure && e.issues[0]?.code === "PFAPI0009",
    );
  });

  it("charges a credit per matched company not under management, none for a NoMatch, and answers LIMIT_EXCEEDED when credits run out", () => {
    accounts.resetAccount("two-credits", 2);
    const statuses = hierarchy("two-credits", [{ companyId: 101 }, { companyId: 102 }, { companyId: 999_999 }, { companyId: 103 }, { companyId: 101 }]).map(
      (i) => i.meta?.matchStatus,
    );
    assert.deepEqual(statuses, ["FULL_MATCH", "FULL_MATCH", "NO_MATCH", "LIMIT_EXCEEDED", "FULL_MATCH"]);
    assert.equal(accounts.balance("two-credits"), 0);
    assert.deepEqual(
      hierarchy("two-credits", [{ companyId: 102 }, { companyId: 101 }]).map((i) => i.meta?.matchStatus),
      ["FULL_MATCH", "FULL_MATCH"],
      "under management: free",
    );
  });

  const busiest = () =>
    (db.prepare("SELECT company_id AS id FROM contacts GROUP BY company_id ORDER BY COUNT(*) DESC, company_id LIMIT 1").get() as { id: number }).id;
  const orgChart = (account: string, body: unknown, query: Record<string, string> = {}) =>
    conforms(ORG_CHART, enrichOrgChart(body, query, account, ops), `${JSON.stringify(body)} ${JSON.stringify(query)}`) as OrgChartDocument;

  it("answers every page of an org chart in the published shape, the pages together the whole chart", () => {
    const id = busiest();
    const first = orgChart("rich", orgChartBody({ companyId: id }), { "page[size]": "3" });
    const total = first.meta!.totalResults;
    assert.ok(total > 6, `${total} people`);
    const seen = [...first.data];
    for (let n = 2; n <= first.meta!.page.total; n++) {
      const page = orgChart("rich", orgChartBody({ companyId: id }), { "page[size]": "3", "page[number]": String(n) });
      assert.equal(Boolean(page.links?.next), n < first.meta!.page.total, `next link on page ${n}`);
      seen.push(...page.data);
    }
    assert.equal(new Set(seen.map((p) => p.id)).size, total);
    assert.equal(orgChart("rich", orgChartBody({ companyId: id }), { "page[number]": "99" }).data.length, 0, "beyond the last page: no one");
    const whole = orgChart("rich", orgChartBody({ companyId: id }), { "page[size]": "100", sort: "-contactAccuracyScore" }).data.map(
      (p) => p.attributes.contactAccuracyScore!,
    );
    assert.deepEqual(
      whole,
      [...whole].sort((a, b) => b - a),
    );
  });

  it("keeps the departments asked, by id or name, and refuses one the departments lookup does not have", () => {
    const id = busiest();
    const doc = orgChart("rich", orgChartBody({ companyId: id, departments: ["sales", "C-Suite"], accuracyMin: 75 }), { "page[size]": "100" });
    for (const person of doc.data) {
      assert.ok(["Sales", "C-Suite"].includes(person.attributes.department!), person.attributes.department);
      assert.ok(person.attributes.contactAccuracyScore! >= 75);
    }
    assert.throws(
      () => enrichOrgChart(orgChartBody({ companyId: id, departments: ["Astrology"] }), {}, "rich", ops),
      (e: unknown) => e instanceof ApiError && e.status === 400 && e.code === "PFAPI0006" && e.message.includes("Astrology"),
    );
  });

  it("refuses pages of more than 100 people or beyond page 100", () => {
    for (const query of [{ "page[size]": "101" }, { "page[number]": "101" }, { "page[size]": "0" }]) {
      assert.throws(() => enrichOrgChart(orgChartBody({ companyId: 1 }), query, "rich", ops), ValidationFailure, JSON.stringify(query));
    }
  });

  it("charges the company once per request however many people come back, nothing when under management, and refuses with no credit left", () => {
    const id = busiest();
    accounts.resetAccount("one-credit", 1);
    orgChart("one-credit", orgChartBody({ companyId: id }), { "page[size]": "100" });
    assert.equal(accounts.balance("one-credit"), 0);
    orgChart("one-credit", orgChartBody({ companyId: id, departments: ["sales"] }), { "page[number]": "2" });
    assert.equal(orgChart("one-credit", orgChartBody({ companyId: 999_999 })).data.length, 0, "an unknown company: no one, free");
    assert.throws(
      () => enrichOrgChart(orgChartBody({ companyId: id === 1 ? 2 : 1 }), {}, "one-credit", ops),
      (e: unknown) => e instanceof ApiError && e.status === 400 && e.code === "PFAPI0011",
    );
  });

  it("lists the fields of both operations in the enrich lookup's published shape", () => {
    for (const entity of ["corporate-hierarchy", "orgChart"] as const) {
      for (const fieldType of ["input", "output"]) {
        const doc = accountLookupDocument(entity, fieldType)!;
        assert.ok(doc.data.length >= 3);
        conforms(LOOKUP, doc, `${entity} ${fieldType}`);
      }
    }
    assert.equal(accountLookupDocument("orgChart", "other"), undefined);
  });
});
