// The sandbox's matching rules over real HTTP: websites in any spelling, company names without
// case, punctuation and legal suffixes, a shared name decided by country or city or else refused
// as ambiguous (never guessed), emails exactly without case, a person by name and company; a
// miss costs no credit. The seeded match companies (src/sandbox/match/seed.ts) exercise them.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { MATCH_COMPANIES, MATCH_COMPANY_IDS as ID } from "../../src/sandbox/match/seed.js";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { call } from "./http.js";

let sandbox: TestSandbox;
before(async () => {
  sandbox = await startTestSandbox();
});
after(async () => {
  await sandbox.close();
});

type Item = { id: string; type: string; attributes?: Record<string, unknown>; meta: { matchStatus: string; warnings?: string[] } };

async function companies(inputs: object[], account = "match", fields = ["name", "country", "city"]): Promise<Item[]> {
  const token = await sandbox.token({ account });
  const res = await call(sandbox, "POST", "/data/v1/companies/enrich", {
    token,
    body: { data: { type: "CompanyEnrich", attributes: { matchCompanyInput: inputs, outputFields: fields } } },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data as Item[];
}

async function people(inputs: object[], account = "match"): Promise<Item[]> {
  const token = await sandbox.token({ account });
  const res = await call(sandbox, "POST", "/data/v1/contacts/enrich", {
    token,
    body: { data: { type: "ContactEnrich", attributes: { matchPersonInput: inputs, outputFields: ["firstName", "email", "companyName"] } } },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data as Item[];
}

const ids = (items: Item[]) => items.map((item) => item.id);
const statuses = (items: Item[]) => items.map((item) => item.meta.matchStatus);
const ambiguous = (item: Item | undefined) => item?.meta.matchStatus === "NO_MATCH" && (item.meta.warnings ?? []).some((w) => /ambiguous/i.test(w));
const credits = async (account: string) => (await call(sandbox, "GET", `/__sandbox/accounts/${account}`)).body.credits as number;

describe("seeded match companies", () => {
  test("are stored with www., schemes and paths, and with names that differ only by suffix or country", () => {
    const rows = sandbox.ctx.db.prepare("SELECT id, name, website, country, city FROM companies WHERE id IN (21,22,23,24,25,26,27) ORDER BY id").all() as Array<
      Record<string, string>
    >;
    assert.deepEqual(
      rows.map((r) => r.name),
      MATCH_COMPANIES.map((c) => c.name),
    );
    assert.ok(
      rows.some((r) => r.website?.includes("://www.") && /\.[a-z]+\/[a-z]/.test(r.website)),
      "a website with www. and a path",
    );
    assert.deepEqual(
      rows.slice(0, 3).map((r) => r.country),
      ["United States", "Germany", "United Kingdom"],
    );
    const emails = sandbox.ctx.db.prepare("SELECT email FROM contacts WHERE company_id = ? AND email IS NOT NULL").all(ID.contoso) as Array<{ email: string }>;
    assert.ok(emails.length > 0 && emails.every((e) => e.email.endsWith("@contoso.com")), "contacts moved with their company");
  });
});

describe("company matching", () => {
  test("a website matches in any usual spelling", async () => {
    const spellings = [
      "https://www.northwindtraders.com/about-us",
      "NORTHWINDTRADERS.COM",
      "northwindtraders.com.",
      "http://northwindtraders.com:8080/contact?x=1#top",
      "www.NorthwindTraders.com/",
    ];
    const items = await companies(spellings.map((companyWebsite) => ({ companyWebsite })));
    assert.deepEqual(
      ids(items),
      spellings.map(() => String(ID.northwindUs)),
    );
    assert.deepEqual(
      statuses(items),
      spellings.map(() => "FULL_MATCH"),
    );
    const [tailspin] = await companies([{ companyWebsite: "tailspintoys.com" }]);
    assert.equal(tailspin?.id, String(ID.tailspin), "stored as http://WWW.TailspinToys.com./");
  });

  test("a website that is not one is invalid input; an unknown one is no match", async () => {
    const items = await companies([{ companyWebsite: "not a website" }, { companyWebsite: "https://nobody-has-this-domain.example" }]);
    assert.deepEqual(statuses(items), ["INVALID_INPUT", "NO_MATCH"]);
  });

  test("a name matches without case, punctuation or legal suffix", async () => {
    const items = await companies([
      { companyName: "Contoso" },
      { companyName: "CONTOSO LLC" },
      { companyName: "contoso, l.l.c." },
      { companyName: "Tailspin Toys" },
      { companyName: "tailspin toys corp." },
    ]);
    assert.deepEqual(ids(items), [ID.contoso, ID.contoso, ID.contoso, ID.tailspin, ID.tailspin].map(String));
    assert.equal(items[0]?.attributes?.name, "Contoso, LLC");
  });

  test("a name several companies share is decided by country, or by city within a country", async () => {
    const items = await companies([
      { companyName: "Northwind Traders", companyCountry: "Germany" },
      { companyName: "Northwind Traders", companyCountry: "gb" },
      { companyName: "northwind traders inc", companyCountry: "United States" },
      { companyName: "Fabrikam", companyCountry: "France", companyCity: "Lyon" },
      { companyName: "Fabrikam S.A.", companyCity: "paris" },
    ]);
    assert.deepEqual(ids(items), [ID.northwindDe, ID.northwindUk, ID.northwindUs, ID.fabrikamLyon, ID.fabrikamParis].map(String));
  });

  test("a name still shared after country and city is NO_MATCH with an ambiguous warning, never a guess", async () => {
    const items = await companies([
      { companyName: "Northwind Traders" },
      { companyName: "Northwind Traders GmbH" },
      { companyName: "Fabrikam SA", companyCountry: "France" },
    ]);
    assert.deepEqual(ids(items), ["0", "0", "0"]);
    assert.ok(items.every(ambiguous), JSON.stringify(items.map((i) => i.meta)));
    const [none] = await companies([{ companyName: "Northwind Traders", companyCountry: "Japan" }]);
    assert.equal(none?.meta.matchStatus, "NO_MATCH");
    assert.equal(ambiguous(none), false, "a place that fits none is a plain no match");
  });

  test("a miss (no match, ambiguous, invalid) costs no credit; a match costs one", async () => {
    await sandbox.setAccount("match-credits", 10);
    await companies([{ companyName: "Northwind Traders" }, { companyWebsite: "nobody-has-this-domain.example" }, { companyWebsite: "no" }], "match-credits");
    assert.equal(await credits("match-credits"), 10);
    await companies([{ companyWebsite: "contoso.com" }, { companyName: "Contoso" }], "match-credits");
    assert.equal(await credits("match-credits"), 9, "one company, matched twice");
  });
});

describe("person matching", () => {
  const contact = () =>
    sandbox.ctx.db
      .prepare("SELECT id, first_name, last_name, email FROM contacts WHERE company_id = ? AND email IS NOT NULL ORDER BY id LIMIT 1")
      .get(ID.contoso) as {
      id: number;
      first_name: string;
      last_name: string;
      email: string;
    };

  test("an email matches exactly, without case", async () => {
    const c = contact();
    const items = await people([
      { emailAddress: c.email.toUpperCase() },
      { emailAddress: ` ${c.email} ` },
      { emailAddress: `x${c.email}` },
      { emailAddress: "not-an-email" },
    ]);
    assert.deepEqual(ids(items).slice(0, 2), [String(c.id), String(c.id)]);
    assert.deepEqual(statuses(items).slice(2), ["NO_MATCH", "INVALID_INPUT"]);
  });

  test("a name matches together with the company's name, compared as company names are", async () => {
    const c = contact();
    const items = await people([
      { firstName: c.first_name.toUpperCase(), lastName: c.last_name, companyName: "Contoso" },
      { fullName: `${c.first_name} ${c.last_name}`, companyName: "contoso llc" },
      { fullName: `${c.first_name} ${c.last_name}`, companyName: "Tailspin Toys" },
      { firstName: c.first_name, lastName: c.last_name },
    ]);
    assert.deepEqual(ids(items).slice(0, 2), [String(c.id), String(c.id)]);
    assert.deepEqual(statuses(items).slice(2), ["NO_MATCH", "INVALID_INPUT"]);
  });
});
