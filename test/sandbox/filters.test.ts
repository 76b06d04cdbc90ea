// Each filter family narrows the results to exactly the records that satisfy it, checked against
// the seeded data read directly from the sandbox database.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { useSandbox, TEST_COMPANIES } from "../helpers/sandbox.js";
import { allIds } from "./http.js";
import { TECH_PRODUCT_IDS } from "../../src/sandbox/data/reference.js";

const sandbox = useSandbox();
let token: string;
before(async () => {
  token = await sandbox.token();
});

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
const rows = <T>(sql: string, ...params: unknown[]) => sandbox.ctx.db.prepare(sql).all(...params) as T[];
const idsWhere = (sql: string, ...params: unknown[]) => sorted(rows<{ id: number }>(`SELECT id FROM companies WHERE ${sql}`, ...params).map((r) => r.id));

/** The filter returns exactly `expected`, and it really narrows (not everything, not nothing). */
async function expectCompanies(filters: object, expected: number[]) {
  const got = sorted(await allIds(sandbox, token, "companies", filters));
  assert.ok(expected.length > 0, `the data has companies for ${JSON.stringify(filters)}`);
  assert.ok(expected.length < TEST_COMPANIES, `the filter ${JSON.stringify(filters)} narrows`);
  assert.deepEqual(got, expected);
}

function haversine(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const toRad = (d: number) => (d * Math.PI) / 180;
  const a = Math.sin(toRad(lat2 - lat1) / 2) ** 2 + Math.cos(toRad(lat1)) * Math.cos(toRad(lat2)) * Math.sin(toRad(lon2 - lon1) / 2) ** 2;
  return 2 * 3958.8 * Math.asin(Math.sqrt(a));
}

describe("company filters", () => {
  test("companyName matches part of the name, case-insensitively", async () => {
    await expectCompanies({ companyName: "formula" }, [11, 12, 13, 14, 15]);
  });
  test("companyId takes a comma-separated list", async () => {
    await expectCompanies({ companyId: "5, 17,1999" }, [5, 17, 1999]);
  });
  test("companyWebsite matches the domain whatever the URL form", async () => {
    const [a, b] = rows<{ id: number; domain: string }>("SELECT id, domain FROM companies WHERE id IN (40, 41) ORDER BY id");
    await expectCompanies({ companyWebsite: `http://www.${a!.domain},https://${b!.domain}/about` }, [40, 41]);
  });
  test("companyDescription needs every word", async () => {
    await expectCompanies(
      { companyDescription: "software Boston" },
      idsWhere("id IN (SELECT id FROM company_texts WHERE description LIKE '%software%' AND description LIKE '%Boston%')"),
    );
  });
  test("companyTicker", async () => {
    const t = rows<{ id: number; ticker: string }>("SELECT id, ticker FROM companies WHERE ticker IS NOT NULL ORDER BY id LIMIT 2");
    await expectCompanies(
      { companyTicker: t.map((x) => x.ticker.toLowerCase()) },
      t.map((x) => x.id),
    );
  });
  test("companyType, case-insensitive, with none for untyped companies", async () => {
    await expectCompanies({ companyType: "Public,npo" }, idsWhere("type IN ('public', 'npo')"));
    await expectCompanies({ companyType: "none" }, idsWhere("type IS NULL"));
  });
  test("companyRanking", async () => {
    await expectCompanies(
      { companyRanking: "inc-5000" },
      idsWhere("id IN (SELECT company_id FROM company_tags WHERE kind = 'ranking' AND value = 'inc-5000')"),
    );
  });
  test("businessModel", async () => {
    await expectCompanies({ businessModel: ["B2G"] }, idsWhere("(',' || business_model || ',') LIKE '%,B2G,%'"));
  });
  test("certified 1 and 0", async () => {
    await expectCompanies({ certified: 1 }, idsWhere("certified = 1"));
    await expectCompanies({ certified: 0 }, idsWhere("certified = 0"));
  });
  test("excludeDefunctCompanies", async () => {
    await expectCompanies({ excludeDefunctCompanies: true }, idsWhere("status NOT LIKE 'DEFUNCT%'"));
  });
});

describe("location filters", () => {
  test("state by name or code", async () => {
    const expected = idsWhere("state = 'Texas'");
    await expectCompanies({ state: "Texas" }, expected);
    await expectCompanies({ state: "tx" }, expected);
  });
  test("country by name or ISO code, several at once", async () => {
    await expectCompanies({ country: "Germany, FR" }, idsWhere("country IN ('Germany', 'France')"));
  });
  test("continent", async () => {
    await expectCompanies({ continent: "Europe" }, idsWhere("continent = 'Europe'"));
  });
  test("metroRegion by lookup id", async () => {
    await expectCompanies({ metroRegion: "usa.california.san_francisco" }, idsWhere("metro = 'usa.california.san_francisco'"));
  });
  test("excludedRegions removes states and metro areas", async () => {
    await expectCompanies(
      { country: "United States", excludedRegions: "California,usa.new_york.new_york" },
      idsWhere("country_code = 'US' AND state <> 'California' AND (metro IS NULL OR metro <> 'usa.new_york.new_york')"),
    );
  });
  test("zipCode exact, and zipCode with a radius by true distance", async () => {
    await expectCompanies({ zipCode: "94105,10001" }, idsWhere("zip IN ('94105', '10001')"));
    // 25 miles around downtown San Francisco (94105): every company whose coordinates are that close.
    const center = { lat: 37.7898, lon: -122.3942 };
    const near = rows<{ id: number; lat: number; lon: number }>("SELECT id, lat, lon FROM companies")
      .filter((c) => haversine(center.lat, center.lon, c.lat, c.lon) <= 25)
      .map((c) => c.id);
    await expectCompanies({ zipCode: "94105", zipCodeRadiusMiles: 25 }, sorted(near));
    const wider = rows<{ id: number; lat: number; lon: number }>("SELECT id, lat, lon FROM companies")
      .filter((c) => haversine(center.lat, center.lon, c.lat, c.lon) <= 50)
      .map((c) => c.id);
    assert.ok(wider.length > near.length, "Palo Alto and San Jose are within 50 miles, not 25");
    await expectCompanies({ zipCode: "94105", zipCodeRadiusMiles: 50 }, sorted(wider));
  });
  test("street and address", async () => {
    await expectCompanies({ street: "Market Street" }, idsWhere("street LIKE '%Market Street%'"));
    await expectCompanies({ address: "Oak Avenue, Chicago" }, idsWhere("street LIKE '%Oak Avenue' AND city = 'Chicago'"));
  });
});

describe("industry and technology filters", () => {
  const tagged = (kind: string, value: string) => `id IN (SELECT company_id FROM company_tags WHERE kind = '${kind}' AND value = '${value}')`;
  test("industryCodes match any industry; primaryIndustriesOnly only the primary", async () => {
    await expectCompanies({ industryCodes: "software,banking" }, idsWhere(`${tagged("industry", "software")} OR ${tagged("industry", "banking")}`));
    await expectCompanies({ industryCodes: "software", primaryIndustriesOnly: true }, idsWhere("primary_industry = 'software'"));
  });
  test("industryKeywords with OR and AND", async () => {
    await expectCompanies({ industryKeywords: "banking OR insurance" }, idsWhere("industry_text LIKE '%banking%' OR industry_text LIKE '%insurance%'"));
    await expectCompanies({ industryKeywords: "software AND internet" }, idsWhere("industry_text LIKE '%software%' AND industry_text LIKE '%internet%'"));
  });
  test("sicCodes and naicsCodes", async () => {
    await expectCompanies({ sicCodes: "7372" }, idsWhere(tagged("sic", "7372")));
    await expectCompanies({ naicsCodes: "5221, 5241" }, idsWhere(`${tagged("naics", "5221")} OR ${tagged("naics", "5241")}`));
  });
  test("hashTagString", async () => {
    await expectCompanies({ hashTagString: "#ai" }, idsWhere(tagged("hashtag", "ai")));
  });
  test("techAttributeTagList matches any; excludeTechAttributeTagList removes OR-alternatives of AND-groups", async () => {
    await expectCompanies({ techAttributeTagList: "snowflake,databricks" }, idsWhere(`${tagged("tech", "snowflake")} OR ${tagged("tech", "databricks")}`));
    // The service's names for the same products: the dotted attribute tag (what the pane's picker
    // sends) and the tech-products lookup's numeric id.
    const ids = (slug: string) => TECH_PRODUCT_IDS.find((t) => t.slug === slug)!;
    await expectCompanies(
      { techAttributeTagList: `${ids("snowflake").tag},${ids("databricks").number}` },
      idsWhere(`${tagged("tech", "snowflake")} OR ${tagged("tech", "databricks")}`),
    );
    await expectCompanies(
      { excludeTechAttributeTagList: "aws AND azure,zoom" },
      idsWhere(`NOT ((${tagged("tech", "aws")} AND ${tagged("tech", "azure")}) OR ${tagged("tech", "zoom")})`),
    );
  });
});

describe("size, growth and budget filters", () => {
  test("revenue ranges and revenueMin/Max (thousands)", async () => {
    await expectCompanies({ revenue: "10Mto25M,25Mto50M" }, idsWhere("revenue BETWEEN 10000 AND 49999"));
    await expectCompanies({ revenueMin: 50000, revenueMax: 200000 }, idsWhere("revenue BETWEEN 50000 AND 200000"));
    await expectCompanies({ revenueMin: 1000000 }, idsWhere("revenue >= 1000000"));
  });
  test("employeeCount ranges and employeeRangeMin/Max", async () => {
    await expectCompanies({ employeeCount: "1to4,5to9" }, idsWhere("employees BETWEEN 1 AND 9"));
    await expectCompanies({ employeeRangeMin: "100", employeeRangeMax: "500" }, idsWhere("employees BETWEEN 100 AND 500"));
  });
  test("serviceContactsMin/Max count the contacts held", async () => {
    await expectCompanies({ serviceContactsMin: "5" }, idsWhere("(SELECT COUNT(*) FROM contacts WHERE company_id = companies.id) >= 5"));
  });
  test("growth rates", async () => {
    await expectCompanies({ oneYearEmployeeGrowthRateMin: "20" }, idsWhere("growth1 >= 20"));
    await expectCompanies({ twoYearEmployeeGrowthRateMin: "-10", twoYearEmployeeGrowthRateMax: "0" }, idsWhere("growth2 BETWEEN -10 AND 0"));
  });
  test("department budgets", async () => {
    await expectCompanies({ marketingDepartmentBudgetMin: 5000 }, idsWhere("budget_marketing >= 5000"));
    await expectCompanies({ itDepartmentBudgetMax: 100, hrDepartmentBudgetMin: 10 }, idsWhere("budget_it <= 100 AND budget_hr >= 10"));
    await expectCompanies({ financeDepartmentBudgetMin: 100, financeDepartmentBudgetMax: 1000 }, idsWhere("budget_finance BETWEEN 100 AND 1000"));
  });
});

describe("funding filters", () => {
  const rounds = (cond: string) => `id IN (SELECT company_id FROM funding_rounds WHERE ${cond})`;
  test("fundingAmountMin / Max on the total raised, each alone or together", async () => {
    await expectCompanies({ fundingAmountMin: 50000 }, idsWhere("total_funding >= 50000"));
    await expectCompanies({ fundingAmountMax: 2000 }, idsWhere("total_funding > 0 AND total_funding <= 2000"));
  });
  test("funding dates: a range, and equal dates match that day", async () => {
    await expectCompanies({ fundingStartDate: "2024-01-01", fundingEndDate: "2024-12-31" }, idsWhere(rounds("date BETWEEN '2024-01-01' AND '2024-12-31'")));
    const day = rows<{ date: string }>("SELECT date FROM funding_rounds ORDER BY date DESC LIMIT 1")[0]!.date;
    await expectCompanies({ fundingStartDate: day, fundingEndDate: day }, idsWhere(rounds(`date = '${day}'`)));
  });
  test("recentFundingRoundTypes looks at the latest round only; allFundingRoundTypes at any", async () => {
    const recent = idsWhere("recent_funding_type = 'series-a'");
    const any = idsWhere(rounds("type = 'series-a'"));
    assert.ok(any.length > recent.length, "some companies had a Series A before a later round");
    await expectCompanies({ recentFundingRoundTypes: ["series-a"] }, recent);
    await expectCompanies({ allFundingRoundTypes: ["Series A"] }, any);
  });
});

describe("engagement filters", () => {
  const engaged = (cond: string) => `id IN (SELECT company_id FROM engagements WHERE ${cond})`;
  test("engagement dates and types", async () => {
    await expectCompanies({ engagementStartDate: "2026-01-01" }, idsWhere(engaged("date >= '2026-01-01'")));
    await expectCompanies(
      { engagementStartDate: "2025-01-01", engagementEndDate: "2025-06-30", engagementType: ["phone", "online meeting"] },
      idsWhere(engaged("date BETWEEN '2025-01-01' AND '2025-06-30' AND type IN ('phone', 'online meeting')")),
    );
  });
});

describe("corporate structure filters", () => {
  const parent = () =>
    rows<{ parent_id: number }>("SELECT parent_id FROM companies WHERE parent_id > 0 GROUP BY parent_id ORDER BY COUNT(*) DESC LIMIT 1")[0]!.parent_id;
  test("parentId and ultimateParentId", async () => {
    const p = parent();
    await expectCompanies({ parentId: String(p) }, idsWhere("parent_id = ?", p));
    const u = rows<{ u: number }>("SELECT ultimate_parent_id AS u FROM companies WHERE ultimate_parent_id > 0 GROUP BY u ORDER BY COUNT(*) DESC LIMIT 1")[0]!.u;
    await expectCompanies({ ultimateParentId: String(u) }, idsWhere("ultimate_parent_id = ?", u));
  });
  test("subUnitTypes with a parent", async () => {
    const u = rows<{ u: number }>("SELECT ultimate_parent_id AS u FROM companies WHERE ultimate_parent_id > 0 GROUP BY u ORDER BY COUNT(*) DESC LIMIT 1")[0]!.u;
    const expected = idsWhere("ultimate_parent_id = ? AND sub_unit_type IN ('SUBSIDIARY', 'DIVISION')", u);
    const got = sorted(await allIds(sandbox, token, "companies", { ultimateParentId: String(u), subUnitTypes: "SUBSIDIARY,DIVISION" }));
    assert.deepEqual(got, expected);
  });
  test("companyStructureIncludedSubUnitTypes keeps top-level companies and sub-units of the given types", async () => {
    await expectCompanies({ companyStructureIncludedSubUnitTypes: "LOCATION" }, idsWhere("parent_id = 0 OR sub_unit_type = 'LOCATION'"));
  });
});

describe("filters combine with AND", () => {
  test("state + revenueMin + certified", async () => {
    await expectCompanies({ state: "California", revenueMin: 10000, certified: 1 }, idsWhere("state = 'California' AND revenue >= 10000 AND certified = 1"));
  });
});

describe("contact filters", () => {
  const contactIds = (sql: string, ...params: unknown[]) =>
    sorted(rows<{ id: number }>(`SELECT ct.id FROM contacts ct JOIN companies c ON c.id = ct.company_id WHERE ${sql}`, ...params).map((r) => r.id));
  const expectContacts = async (filters: object, expected: number[]) => {
    assert.ok(expected.length > 0 && expected.length < 5000, `contacts for ${JSON.stringify(filters)}`);
    assert.deepEqual(sorted(await allIds(sandbox, token, "contacts", filters)), expected);
  };
  test("person filters", async () => {
    await expectContacts({ firstName: "mar" }, contactIds("ct.first_name LIKE 'mar%'"));
    await expectContacts({ lastName: "Smith", jobTitle: "Manager" }, contactIds("ct.last_name = 'Smith' AND ct.job_title LIKE '%Manager%'"));
    await expectContacts({ exactJobTitle: "chief financial officer" }, contactIds("ct.job_title = 'Chief Financial Officer'"));
    await expectContacts(
      { managementLevel: "C-Level,VP-Level", department: "finance" },
      contactIds("ct.management_level IN ('C-Level', 'VP-Level') AND ct.department = 'finance'"),
    );
    await expectContacts({ jobFunction: "Recruiting" }, contactIds("ct.job_function = 'Recruiting'"));
    await expectContacts({ contactAccuracyScoreMin: 95 }, contactIds("ct.accuracy >= 95"));
    await expectContacts(
      { executivesOnly: true, excludeJobTitle: "Board" },
      contactIds("ct.management_level IN ('C-Level', 'VP-Level', 'Board Member') AND ct.job_title NOT LIKE '%Board%'"),
    );
    await expectContacts({ lastUpdatedDateAfter: "2026-05-01" }, contactIds("ct.last_updated >= '2026-05-01'"));
    await expectContacts(
      { requiredFields: "mobilePhone,email", department: "legal" },
      contactIds("ct.mobile_phone IS NOT NULL AND ct.email IS NOT NULL AND ct.department = 'legal'"),
    );
  });
  test("company filters apply to the contact's company", async () => {
    await expectContacts(
      { industryCodes: "banking", employeeRangeMin: "100" },
      contactIds("c.id IN (SELECT company_id FROM company_tags WHERE kind = 'industry' AND value = 'banking') AND c.employees >= 100"),
    );
  });
  test("locationSearchType chooses the person's location, the headquarters', or both", async () => {
    await expectContacts({ state: "Illinois", locationSearchType: "Person" }, contactIds("ct.state = 'Illinois'"));
    await expectContacts({ state: "Illinois", locationSearchType: "HQ" }, contactIds("c.state = 'Illinois'"));
    await expectContacts({ state: "Illinois", locationSearchType: "PersonAndHQ" }, contactIds("ct.state = 'Illinois' AND c.state = 'Illinois'"));
    await expectContacts({ state: "Illinois" }, contactIds("ct.state = 'Illinois' OR c.state = 'Illinois'"));
  });
});
