// Enrichment: matching, only requested fields, input order, matchStatus, and credit accounting
// (first enrichment charged, second free, exhausted balance gives LIMIT_EXCEEDED, misses free),
// and the 12-month management window, the same for the account and for the search filter.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SPECIAL_COMPANY_IDS } from "../../src/sandbox/data/specialRecords.js";
import { manualClock, useSandbox } from "../helpers/sandbox.js";
import { call, companySearch } from "./http.js";

const clock = manualClock();
const sandbox = useSandbox({ clock });

const enrichCompanies = (token: string, inputs: object[], outputFields: string[]) =>
  call(sandbox, "POST", "/data/v1/companies/enrich", {
    token,
    body: { data: { type: "CompanyEnrich", attributes: { matchCompanyInput: inputs, outputFields } } },
  });
const enrichContacts = (token: string, inputs: object[], outputFields: string[], requiredFields?: string[]) =>
  call(sandbox, "POST", "/data/v1/contacts/enrich", {
    token,
    body: { data: { type: "ContactEnrich", attributes: { matchPersonInput: inputs, outputFields, ...(requiredFields ? { requiredFields } : {}) } } },
  });
const account = async (id: string) => (await call(sandbox, "GET", `/__sandbox/accounts/${id}`)).body;
const row = (sql: string, ...p: unknown[]) => sandbox.ctx.db.prepare(sql).get(...p) as any;

describe("company enrichment", () => {
  test("one item per input, in input order, with matchStatus and the input echoed", async () => {
    await sandbox.setAccount("order", 100);
    const token = await sandbox.token({ account: "order" });
    const c = row("SELECT id, name, domain, ticker FROM companies WHERE ticker IS NOT NULL ORDER BY id LIMIT 1");
    const inputs = [
      { companyId: 7 },
      { companyId: 99_999_999 },
      { companyCity: "Boston" },
      { companyWebsite: `https://www.${c.domain}/` },
      { companyTicker: c.ticker },
      { companyName: "no such company anywhere" },
    ];
    const res = await enrichCompanies(token, inputs, ["name"]);
    assert.equal(res.status, 200);
    const items = res.body.data;
    assert.deepEqual(
      items.map((i: any) => i.meta.matchStatus),
      ["FULL_MATCH", "NO_MATCH", "INVALID_INPUT", "FULL_MATCH", "FULL_MATCH", "NO_MATCH"],
    );
    assert.deepEqual(
      items.map((i: any) => i.meta.input),
      inputs,
    );
    assert.deepEqual(
      items.map((i: any) => i.id),
      ["7", "0", "0", String(c.id), String(c.id), "0"],
    );
    assert.deepEqual(
      items.map((i: any) => i.type),
      ["Company", "NoMatch", "NoMatch", "Company", "Company", "NoMatch"],
    );
    assert.equal(items[3].attributes.name, c.name);
  });

  test("only the requested fields; fields without a value are omitted; shapes of 2.4", async () => {
    const token = await sandbox.token();
    const noFax = row("SELECT id FROM companies WHERE fax IS NULL AND parent_id = 0 ORDER BY id LIMIT 1").id;
    const fields = [
      "id",
      "name",
      "revenue",
      "certified",
      "parentId",
      "employeeRange",
      "foundedYear",
      "socialMediaUrls",
      "fax",
      "parentName",
      "employeeGrowth",
      "locationCount",
      "numberOfContactsInService",
    ];
    const res = await enrichCompanies(token, [{ companyId: noFax }], fields);
    const attrs = res.body.data[0].attributes;
    const data = row("SELECT * FROM companies WHERE id = ?", noFax);
    assert.deepEqual(Object.keys(attrs).sort(), fields.filter((f) => f !== "fax" && f !== "parentName").sort());
    assert.equal(attrs.id, noFax);
    assert.equal(attrs.revenue, data.revenue);
    assert.equal(typeof attrs.certified, "boolean");
    assert.equal(attrs.parentId, 0);
    assert.equal(attrs.foundedYear, String(data.founded_year));
    assert.equal(typeof attrs.employeeRange, "string");
    assert.equal(attrs.socialMediaUrls[0].type, "LINKED_IN");
    assert.equal(typeof attrs.employeeGrowth.oneYearGrowthRate, "number");
    assert.equal(attrs.numberOfContactsInService, (row("SELECT COUNT(*) AS n FROM contacts WHERE company_id = ?", noFax) as { n: number }).n);
  });

  test("the unsafe test names come back verbatim (they are data)", async () => {
    const token = await sandbox.token();
    const res = await enrichCompanies(token, [{ companyId: SPECIAL_COMPANY_IDS.leadingEquals }, { companyId: SPECIAL_COMPANY_IDS.htmlInjection }], ["name"]);
    assert.equal(res.body.data[0].attributes.name, "=SUM(1+1) Formula Holdings");
    assert.match(res.body.data[1].attributes.name, /<img src=x onerror=alert\(1\)>/);
  });
});

describe("credits", () => {
  test("first enrichment charged, second free, exhausted balance gives LIMIT_EXCEEDED, misses free", async () => {
    await sandbox.setAccount("small", 2);
    const token = await sandbox.token({ account: "small" });
    const first = await enrichCompanies(token, [{ companyId: 101 }], ["name"]);
    assert.equal(first.body.data[0].meta.matchStatus, "FULL_MATCH");
    assert.equal((await account("small")).credits, 1);

    const again = await enrichCompanies(token, [{ companyId: 101 }], ["name", "revenue"]);
    assert.equal(again.body.data[0].meta.matchStatus, "FULL_MATCH");
    assert.equal((await account("small")).credits, 1, "re-enriching a record under management is free");

    const miss = await enrichCompanies(token, [{ companyId: 88_888_888 }, { companyCity: "Paris" }], ["name"]);
    assert.deepEqual(
      miss.body.data.map((i: any) => i.meta.matchStatus),
      ["NO_MATCH", "INVALID_INPUT"],
    );
    assert.equal((await account("small")).credits, 1, "misses cost nothing");

    const mixed = await enrichCompanies(token, [{ companyId: 102 }, { companyId: 103 }, { companyId: 101 }], ["name"]);
    assert.deepEqual(
      mixed.body.data.map((i: any) => i.meta.matchStatus),
      ["FULL_MATCH", "LIMIT_EXCEEDED", "FULL_MATCH"],
    );
    assert.equal(mixed.body.data[1].attributes, undefined, "no data without a credit");
    const summary = await account("small");
    assert.equal(summary.credits, 0);
    assert.deepEqual(summary.underManagement, { company: 2, contact: 0 });
    assert.deepEqual(
      summary.ledger.map((e: any) => [e.kind, e.id, e.charged]),
      [
        ["company", 101, true],
        ["company", 101, false],
        ["company", 102, true],
        ["company", 101, false],
      ],
    );
  });

  test("search shows managementStatus with the purchase date to the account that enriched", async () => {
    await sandbox.setAccount("managed", 10);
    const token = await sandbox.token({ account: "managed" });
    const before = clock.now();
    await enrichCompanies(token, [{ companyId: SPECIAL_COMPANY_IDS.leadingPlus }], ["name"]);
    const search = async (t: string, attributes: object) =>
      (await call(sandbox, "POST", "/data/v1/companies/search", { token: t, body: companySearch(attributes) })).body;
    const mine = await search(token, { companyName: "Formula" });
    const plus = mine.data.find((d: any) => d.id === String(SPECIAL_COMPANY_IDS.leadingPlus));
    assert.equal(plus.attributes.managementStatus.underManagement, true);
    assert.equal(Date.parse(plus.attributes.managementStatus.purchaseDate), before);
    const others = mine.data.filter((d: any) => d.id !== String(SPECIAL_COMPANY_IDS.leadingPlus));
    assert.ok(others.every((d: any) => d.attributes.managementStatus.underManagement === false));
    // Another account sees it as not under management; the underManagement filter narrows.
    const other = await search(await sandbox.token({ account: "someone-else" }), { companyName: "Formula" });
    assert.ok(other.data.every((d: any) => d.attributes.managementStatus.underManagement === false));
    const onlyManaged = await search(token, { underManagement: true });
    assert.deepEqual(
      onlyManaged.data.map((d: any) => d.id),
      [String(SPECIAL_COMPANY_IDS.leadingPlus)],
    );
    const notAsked = await search(token, { underManagement: false });
    assert.equal(notAsked.meta.totalResults, sandbox.ctx.records.companyCount());
  });
});

describe("contact enrichment", () => {
  test("by person id, by email, by name and company; company fields nested", async () => {
    await sandbox.setAccount("people", 100);
    const token = await sandbox.token({ account: "people" });
    const c = row("SELECT * FROM contacts WHERE email IS NOT NULL ORDER BY id LIMIT 1 OFFSET 20");
    const inputs = [
      { personId: 3 },
      { emailAddress: c.email.toUpperCase() },
      { firstName: c.first_name, lastName: c.last_name, companyId: c.company_id },
      { firstName: "Ada" },
      { personId: 99_999_999 },
    ];
    const res = await enrichContacts(token, inputs, ["firstName", "lastName", "email", "companyId", "companyName", "managementLevel"]);
    assert.deepEqual(
      res.body.data.map((i: any) => i.meta.matchStatus),
      ["FULL_MATCH", "FULL_MATCH", "FULL_MATCH", "INVALID_INPUT", "NO_MATCH"],
    );
    const item = res.body.data[1];
    assert.equal(item.id, String(c.id));
    assert.equal(item.type, "Contact");
    assert.deepEqual(item.attributes.company, { id: c.company_id, name: c.company_name });
    assert.equal(item.attributes.companyId, undefined);
    assert.deepEqual(item.attributes.managementLevel, [c.management_level]);
    assert.equal((await account("people")).credits, 98, "two distinct contacts charged (inputs 2 and 3 are the same person)");
  });

  test("requiredFields: a contact lacking one is NON_MATCH_BY_REQUIRED_FIELDS and costs nothing", async () => {
    await sandbox.setAccount("required", 5);
    const token = await sandbox.token({ account: "required" });
    const lacking = row("SELECT id FROM contacts WHERE mobile_phone IS NULL ORDER BY id LIMIT 1").id;
    const res = await enrichContacts(token, [{ personId: lacking }], ["firstName"], ["mobilePhone"]);
    assert.equal(res.body.data[0].meta.matchStatus, "NON_MATCH_BY_REQUIRED_FIELDS");
    assert.equal((await account("required")).credits, 5);
  });
});

describe("the management window", () => {
  // Last in the file: it moves the sandbox's clock a year on.
  test("a year after its purchase a record leaves management, for the account and the underManagement filter alike", async () => {
    await sandbox.setAccount("yearly", 10);
    const id = String(SPECIAL_COMPANY_IDS.leadingPlus);
    await enrichCompanies(await sandbox.token({ account: "yearly" }), [{ companyId: SPECIAL_COMPANY_IDS.leadingPlus }], ["name"]);
    const managed = async () => {
      const token = await sandbox.token({ account: "yearly" });
      const found = await call(sandbox, "POST", "/data/v1/companies/search", { token, body: companySearch({ underManagement: true }) });
      return (found.body.data as { id: string }[]).map((d) => d.id);
    };
    assert.deepEqual(await managed(), [id]);
    await clock.advance(364 * 86_400_000);
    assert.deepEqual(await managed(), [id], "still within the 12 months");
    assert.equal((await account("yearly")).underManagement.company, 1);
    await clock.advance(2 * 86_400_000);
    assert.deepEqual(await managed(), [], "the filter reads the sandbox's clock");
    assert.equal((await account("yearly")).underManagement.company, 0);
  });
});
