// Company searches answered from the in-memory columns must be the SQL's answers exactly: the
// same totals and the same records in the same order on every page, for the filters the columns
// hold (edge values included). A searcher with the columns turned off is the SQL reference.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import type Database from "better-sqlite3";
import type { CompanySearchFilters } from "../../src/core/contract/index.js";
import { COLUMNAR_FILTERS, columnarSearch } from "../../src/sandbox/search/columnar.js";
import { createSearcher, type Searcher } from "../../src/sandbox/search/runSearch.js";
import { openColumnIndex } from "../../src/sandbox/store/columnsFile.js";
import { openDatabase } from "../../src/sandbox/store/database.js";
import type { ColumnIndex } from "../../src/sandbox/store/columns.js";

let db: Database.Database;
let columns: Searcher;
let sql: Searcher;
let index: ColumnIndex;
let someEmployees: number;
let someRevenue: number;
let zipPoint: (zip: string) => { lat: number; lon: number } | undefined;

before(() => {
  db = openDatabase(undefined, { seed: 7, companies: 3000, contacts: 10 }).db;
  // Names that exercise LIKE's rules: non-ASCII letters (only ASCII folds case) and wildcards.
  db.prepare("UPDATE companies SET name = ? WHERE id = 40").run("Ärzte Émile Straße GmbH");
  db.prepare("UPDATE companies SET name = ? WHERE id = 41").run("100% Pure_Water Co");
  db.prepare("UPDATE companies SET name = ? WHERE id = 42").run("ärzte émile small");
  columns = createSearcher(db);
  sql = createSearcher(db, undefined, { columns: false });
  index = openColumnIndex(db);
  const row = db.prepare("SELECT employees, revenue FROM companies WHERE id = 500").get() as { employees: number; revenue: number };
  someEmployees = row.employees;
  someRevenue = row.revenue;
  const lookup = db.prepare("SELECT lat, lon FROM zips WHERE zip = ?");
  zipPoint = (zip) => lookup.get(zip) as { lat: number; lon: number } | undefined;
});

const SORTS = [undefined, "-revenue", "revenue", "name", "-name", "employeeCount", "-employeeCount"];

function filterSets(): CompanySearchFilters[] {
  const e = someEmployees;
  const r = someRevenue;
  return [
    {},
    { employeeRangeMin: String(e), employeeRangeMax: String(e) },
    { employeeRangeMin: String(e + 1) },
    { employeeRangeMax: String(e - 1) },
    { employeeRangeMin: "4.5", employeeRangeMax: "7.5" },
    { employeeRangeMin: " ", employeeRangeMax: "" },
    { employeeRangeMin: "0", employeeRangeMax: "2147483647" },
    { revenueMin: 0, revenueMax: 2_147_483_647 },
    { revenueMin: r, revenueMax: r },
    { revenueMin: r + 1, revenueMax: r * 3 },
    { revenueMax: 500, employeeRangeMin: "2" },
    { employeeRangeMin: "50", employeeRangeMax: "20" },
    { country: "United States" },
    { country: "usa, de" },
    { country: "Germany,Atlantis" },
    { country: "u.s.a.", state: "ca" },
    { continent: "Europe" },
    { continent: "north-america", country: "Canada" },
    { continent: "Europe", country: "United States" },
    { state: "California, TX, new york" },
    { state: "Nowhere" },
    { certified: 1 },
    { certified: 0, excludeDefunctCompanies: true },
    { excludeDefunctCompanies: false },
    { industryCodes: "software" },
    { industryCodes: "Software, hospitals" },
    { industryCodes: "software", primaryIndustriesOnly: true },
    { industryCodes: "not-an-industry" },
    { industryCodes: "software", primaryIndustriesOnly: false, revenueMin: 1000, country: "US" },
    { companyName: "harbor" },
    { companyName: "  Summit " },
    { companyName: "ärzte" },
    { companyName: "ÄRZTE" },
    { companyName: "Émile" },
    { companyName: "100%" },
    { companyName: "e_W" },
    { companyName: "%" },
    { companyName: "formula", industryCodes: "software" },
    { companyName: "" },
    { country: "United States", employeeRangeMin: "50", employeeRangeMax: "5000", certified: 1, revenueMin: 2000 },
    { zipCode: "94105", zipCodeRadiusMiles: 25 },
    { zipCode: "94105, 10001", zipCodeRadiusMiles: 250 },
    { zipCode: "10001,10001", zipCodeRadiusMiles: 10, employeeRangeMin: "20" },
    { zipCode: "00000", zipCodeRadiusMiles: 50 },
    { zipCode: "ec2v 7hh", zipCodeRadiusMiles: 10 },
    { zipCode: " ", zipCodeRadiusMiles: 50 },
    { zipCodeRadiusMiles: 100, country: "Germany" },
    { zipCode: "60601", zipCodeRadiusMiles: 100, companyName: "a", industryCodes: "software" },
  ];
}

function pagesOf(total: number): { number: number; size: number }[] {
  const last = Math.max(1, Math.ceil(total / 10));
  return [
    { number: 1, size: 10 },
    { number: 1, size: 1 },
    { number: 2, size: 7 },
    { number: Math.min(last, 100), size: 10 },
    { number: last + 1, size: 10 },
  ];
}

describe("searches on the in-memory columns", () => {
  it("answers every filter set of the battery (so the comparison below is not SQL against SQL)", () => {
    for (const f of filterSets()) assert.ok(columnarSearch(index, f, zipPoint), `columns should answer ${JSON.stringify(f)}`);
  });

  it("compares every filter the columns hold: a filter added to them is in the battery too", () => {
    const compared = new Set(filterSets().flatMap((f) => Object.keys(f)));
    assert.deepEqual(
      [...COLUMNAR_FILTERS].filter((name) => !compared.has(name)),
      [],
    );
  });

  it("gives the SQL's totals and pages, in the SQL's order, for every sort", () => {
    for (const f of filterSets()) {
      for (const sort of SORTS) {
        const first = sql.companies(f, { number: 1, size: 10, ...(sort ? { sort } : {}) }, "acct", "/p");
        for (const page of pagesOf(first.totalResults)) {
          const p = { ...page, ...(sort ? { sort } : {}) };
          const expected = sql.companies(f, p, "acct", "/p");
          const actual = columns.companies(f, p, "acct", "/p");
          assert.deepEqual(actual, expected, `${JSON.stringify(f)} sort ${sort} page ${JSON.stringify(page)}`);
        }
      }
    }
  });

  it("leaves filters it does not hold to SQL", () => {
    assert.equal(columnarSearch(index, { zipCode: "94105" }), undefined);
    assert.equal(columnarSearch(index, { underManagement: true }), undefined);
    assert.equal(columnarSearch(index, { country: "US", techAttributeTagList: "snowflake" }), undefined);
    assert.equal(columnarSearch(index, { employeeRangeMin: "many" }), undefined);
  });
});

describe("the count cache key of a columnar search", () => {
  const key = (f: CompanySearchFilters) => columnarSearch(index, f, zipPoint)!.key;

  it("is the same for filters written differently that ask for the same companies", () => {
    assert.equal(key({ country: "United States" }), key({ country: "us" }));
    assert.equal(key({ country: "usa" }), key({ country: "US" }));
    assert.equal(key({ state: "California" }), key({ state: "ca" }));
    assert.equal(key({ industryCodes: "Software, hospitals" }), key({ industryCodes: "hospitals,software" }));
    assert.equal(key({ revenueMin: 0, revenueMax: 2_147_483_647 }), key({}));
    assert.equal(key({ employeeRangeMin: "0", employeeRangeMax: "2147483647", excludeDefunctCompanies: false }), key({}));
    assert.equal(key({ employeeRangeMin: "10", revenueMin: someRevenue }), key({ revenueMin: someRevenue, employeeRangeMin: " 10" }));
    assert.equal(key({ zipCode: "94105,10001", zipCodeRadiusMiles: 25 }), key({ zipCode: "10001, 94105", zipCodeRadiusMiles: 25 }));
    // No company has revenue below 10 ($K), so a minimum of 10 asks for every company.
    assert.equal(key({ revenueMin: 10 }), key({}));
  });

  it("differs when the companies asked for differ", () => {
    const keys = [
      key({}),
      key({ country: "us" }),
      key({ continent: "north-america" }),
      key({ employeeRangeMin: "10" }),
      key({ revenueMin: someRevenue }),
      key({ industryCodes: "software" }),
      key({ industryCodes: "software", primaryIndustriesOnly: true }),
      key({ certified: 1 }),
      key({ certified: 0 }),
      key({ excludeDefunctCompanies: true }),
      key({ companyName: "harbor" }),
      key({ zipCode: "94105", zipCodeRadiusMiles: 25 }),
      key({ zipCode: "94105", zipCodeRadiusMiles: 50 }),
    ];
    assert.equal(new Set(keys).size, keys.length);
  });
});
