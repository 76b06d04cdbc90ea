// The BIZ functions on a list without ids, with the real client and the real sandbox over HTTP:
// websites in any spelling, names with a country, emails, the matched id for the sheet, misses
// as #N/A with the reason and no credit, and recalculation or reopening with no request.
import assert from "node:assert/strict";
import { after, afterEach, before, describe, it } from "node:test";
import { createServiceClient, type ServiceClient } from "../../src/core/api/index.js";
import { createEnrichmentEngine, MemoryCacheStore } from "../../src/core/enrich/index.js";
import { MATCH_COMPANY_IDS as ID } from "../../src/sandbox/match/seed.js";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { cellOutcome, invocation, loadFunctions } from "./fakeCustomFunctions.js";

const fns = await loadFunctions();

const COMPANY_ENRICH = "POST /data/v1/companies/enrich";
let sandbox: TestSandbox;
before(async () => {
  sandbox = await startTestSandbox();
});
after(async () => {
  await sandbox.close();
});
afterEach(() => fns.configureFunctions(undefined));

async function configure(account: string, store = new MemoryCacheStore()) {
  const token = await sandbox.token({ account });
  const client: ServiceClient = createServiceClient({ baseUrl: sandbox.url, getAccessToken: async () => token, retry: { baseDelayMs: 5, maxDelayMs: 50 } });
  const engine = createEnrichmentEngine({ client, cache: store, windowMs: 5 });
  fns.configureFunctions({ engine, isSignedIn: () => true });
  return store;
}
const credits = async (account: string) => ((await (await fetch(`${sandbox.url}/__sandbox/accounts/${account}`)).json()) as { credits: number }).credits;

describe("BIZ functions without ids", () => {
  it("COMPANY takes a website in any spelling: one request, one credit, recalculation and reopening free", async () => {
    await sandbox.setAccount("cells-web", 100);
    const store = await configure("cells-web");
    sandbox.resetStats();
    const spellings = ["https://www.contoso.com/en-us/home", "CONTOSO.COM", "contoso.com.", "www.contoso.com"];
    const outcomes = await Promise.all([
      ...spellings.map((s) => cellOutcome(fns.company(s, "name", invocation()))),
      cellOutcome(fns.company("contoso.com", "city", invocation())),
    ]);
    assert.deepEqual(outcomes, [...spellings.map(() => ({ value: "Contoso, LLC" })), { value: "Chicago" }]);
    assert.equal(sandbox.requests(COMPANY_ENRICH), 1);
    assert.equal(await credits("cells-web"), 99);

    await Promise.all(spellings.map((s) => cellOutcome(fns.company(s, "name", invocation()))));
    await configure("cells-web", store); // the workbook opened again: same persistent store
    assert.deepEqual(await cellOutcome(fns.companyRow("contoso.com", [["name", "city"]], invocation())), { value: [["Contoso, LLC", "Chicago"]] });
    assert.equal(sandbox.requests(COMPANY_ENRICH), 1, "recalculation and reopening ask nothing");
    assert.deepEqual(await cellOutcome(fns.company("www.contoso.com", "country", invocation())), { value: "United States" });
    assert.equal(sandbox.requests(COMPANY_ENRICH), 2, "a new field asks once, by id");
    assert.equal(await credits("cells-web"), 99);
  });

  it("MATCHCOMPANY returns the id; a shared name needs its country; misses are #N/A with the reason and cost nothing", async () => {
    await sandbox.setAccount("cells-name", 100);
    await configure("cells-name");
    const [de, uk, shared, none, invalid, byWebsite] = await Promise.all([
      cellOutcome(fns.matchCompany("Northwind Traders", "Germany", null, invocation())),
      cellOutcome(fns.matchCompany("NORTHWIND TRADERS LTD", "GB", "", invocation())),
      cellOutcome(fns.matchCompany("Northwind Traders", null, null, invocation())),
      cellOutcome(fns.matchCompany("No Such Company Anywhere", null, null, invocation())),
      cellOutcome(fns.matchCompany("https://", null, null, invocation())),
      cellOutcome(fns.matchCompany("https://www.tailspintoys.com/", null, null, invocation())),
    ]);
    assert.deepEqual(de, { value: ID.northwindDe });
    assert.deepEqual(uk, { value: ID.northwindUk });
    assert.equal(shared.error, "#N/A");
    assert.match(
      shared.message ?? "",
      /^Ambiguous: several companies match "Northwind Traders" \(name used\); a country or city column, or the website, would decide/,
    );
    assert.equal(none.error, "#N/A");
    assert.match(none.message ?? "", /^No match/);
    assert.equal(invalid.error, "#N/A");
    assert.match(invalid.message ?? "", /^Invalid input/);
    assert.deepEqual(byWebsite, { value: ID.tailspin });
    assert.equal(await credits("cells-name"), 97, "three companies found, misses free");
    assert.deepEqual(await cellOutcome(fns.company(ID.northwindDe, "city", invocation())), { value: "Berlin" }, "the id keeps working");
  });

  it("CONTACT takes an email; MATCHCONTACT a name with the company", async () => {
    await sandbox.setAccount("cells-people", 100);
    await configure("cells-people");
    const c = sandbox.ctx.db
      .prepare(
        "SELECT id, first_name, last_name, email, job_title FROM contacts WHERE company_id = ? AND email IS NOT NULL AND job_title IS NOT NULL ORDER BY id LIMIT 1",
      )
      .get(ID.contoso) as {
      id: number;
      first_name: string;
      last_name: string;
      email: string;
      job_title: string;
    };
    assert.deepEqual(await cellOutcome(fns.contact(c.email.toUpperCase(), "jobTitle", invocation())), { value: c.job_title });
    assert.deepEqual(await cellOutcome(fns.matchContact(`${c.first_name} ${c.last_name}`, "Contoso", invocation())), { value: c.id });
    assert.deepEqual(await cellOutcome(fns.matchContact(c.email, null, invocation())), { value: c.id });
    const alone = await cellOutcome(fns.contact(`${c.first_name} ${c.last_name}`, "jobTitle", invocation()));
    assert.equal(alone.error, "#N/A");
    assert.match(alone.message ?? "", /give the company/);
  });

  it("ids, and numbers that are not ids, behave as before", async () => {
    await configure("cells-ids");
    assert.deepEqual(await cellOutcome(fns.company(String(ID.contoso), "name", invocation())), { value: "Contoso, LLC" });
    assert.equal((await cellOutcome(fns.company(12.5, "name", invocation()))).error, "#VALUE!");
    assert.equal((await cellOutcome(fns.company("-3", "name", invocation()))).error, "#VALUE!");
    assert.equal((await cellOutcome(fns.company("", "name", invocation()))).error, "#VALUE!");
    const unknownName = await cellOutcome(fns.company("No Company Is Called This", "name", invocation()));
    assert.equal(unknownName.error, "#N/A");
    assert.match(unknownName.message ?? "", /^No match: no company found for "No Company Is Called This"/);
    assert.deepEqual(await cellOutcome(fns.matchCompany(ID.contoso, null, null, invocation())), { value: ID.contoso });
  });
});
