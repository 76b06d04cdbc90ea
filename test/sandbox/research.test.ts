// Research and lookalikes on the specification profile over real HTTP (docs/research.md): our
// paths under /data/v1, briefings and answers drawn from the sandbox's own data, lookalikes and
// recommendations ranked and filtered, validation, scopes, and AI action credits (one per
// research call, charged only on success, refused at zero; lookalikes and recommendations free).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { errorText, type ServiceClient } from "../../src/core/api/index.js";
import { sandboxClient, signedInClient } from "../core/api/sandboxClient.js";
import { companiesWithContacts, refusal } from "../helpers/research.js";
import { useSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { call } from "./http.js";

const sandbox = useSandbox();

/** A client of its own account (AI action credit limit `aiCredits`), and that account's AI action balance as usage reads it. */
async function accountClient(s: TestSandbox, account: string, aiCredits?: number, scopes?: string[]) {
  await fetch(`${s.url}/__sandbox/accounts`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id: account, credits: 1000, ...(aiCredits !== undefined ? { aiCredits } : {}) }),
  }).then((r) => assert.equal(r.status, 200));
  const token = await s.token({ account, ...(scopes ? { scopes } : {}) });
  const client = sandboxClient(s.url, () => token);
  return { client, token, ai: async () => (await client.usage()).aiActions };
}

const row = (s: TestSandbox, sql: string, ...args: unknown[]) => s.ctx.db.prepare(sql).get(...args) as Record<string, unknown>;
/** Some seeded companies with employees and a country (the first few by id). */

describe("research on the specification profile: briefings and answers", () => {
  it("a briefing is markdown with headings about the company, its links http(s) only, the same every time", async () => {
    const { client } = await accountClient(sandbox, "brief-1");
    const [id] = companiesWithContacts(sandbox, 1);
    const name = String(row(sandbox, "SELECT name FROM companies WHERE id = ?", Number(id)).name);
    const first = await client.accountBriefing(id!);
    assert.equal(first.companyId, id);
    assert.match(first.markdown, /^# /m);
    assert.match(first.markdown, /^## /m);
    assert.ok(first.markdown.includes(name), "names the company");
    const links = [...first.markdown.matchAll(/\]\(([^)]*)\)/g)].map((m) => m[1]!);
    for (const link of links) assert.match(link, /^https?:\/\//, link);
    assert.doesNotMatch(first.markdown, /<[a-z!/]/i, "no raw HTML");
    assert.equal((await client.accountBriefing(id!)).markdown, first.markdown);
  });

  it("a question is answered from the company's data: revenue, employees, location, and otherwise what is known", async () => {
    const { client } = await accountClient(sandbox, "ask-1");
    const [id] = companiesWithContacts(sandbox, 1);
    const company = row(sandbox, "SELECT name, employees, city, country FROM companies WHERE id = ?", Number(id));
    const employees = await client.askAccount(id!, "How many employees does it have?");
    assert.equal(employees.question, "How many employees does it have?");
    assert.ok(
      employees.answer.includes(Number(company.employees).toLocaleString("en-US")) || employees.answer.includes(String(company.employees)),
      employees.answer,
    );
    const where = await client.askAccount(id!, "Where is it located?");
    if (company.country) assert.ok(where.answer.includes(String(company.country)), where.answer);
    const revenue = await client.askAccount(id!, "What is the revenue?");
    assert.match(revenue.answer, /revenue/i);
    const other = await client.askAccount(id!, "What is the weather like on Mars?");
    assert.ok(other.answer.length > 0);
    assert.ok(other.answer.includes(String(company.name)), other.answer);
    assert.notEqual(other.answer, employees.answer);
  });

  it("a contact's briefing names the person, their title and company", async () => {
    const { client } = await accountClient(sandbox, "contact-1");
    const person = row(sandbox, "SELECT id, first_name, last_name, company_name FROM contacts ORDER BY id LIMIT 1");
    const briefing = await client.contactBriefing(String(person.id));
    assert.equal(briefing.contactId, String(person.id));
    for (const part of [person.first_name, person.last_name, person.company_name]) assert.ok(briefing.markdown.includes(String(part)), String(part));
  });

  it("an unknown company or contact is a 404 and costs nothing", async () => {
    const { client, ai } = await accountClient(sandbox, "unknown-1", 5);
    for (const ask of [
      () => client.accountBriefing("999999999"),
      () => client.askAccount("999999999", "Revenue?"),
      () => client.contactBriefing("999999999"),
    ]) {
      assert.equal((await refusal(ask())).kind, "notFound");
    }
    assert.deepEqual(await ai(), { limit: 5, used: 0, remaining: 5 });
  });

  it("one account or contact a call: a list of ids is refused with a 400", async () => {
    const token = await sandbox.token();
    for (const path of ["/data/v1/research/accounts/1,2", "/data/v1/research/contacts/1,2", "/data/v1/research/accounts/abc"]) {
      const answer = await call(sandbox, "GET", path, { token });
      assert.equal(answer.status, 400, path);
      assert.match(answer.body.errors[0].detail, /digits only/);
    }
  });
});

describe("research on the specification profile: AI action credits", () => {
  it("the usage document has an AI action entry of its own; seeded accounts start with 250", async () => {
    const token = await sandbox.token({ account: "fresh-account" });
    const usage = await call(sandbox, "GET", "/data/v1/users/usage", { token });
    const entry = usage.body.data[0].attributes.usage.find((e: { limitType: string }) => e.limitType === "aiAction");
    assert.deepEqual(
      { ...entry, description: undefined },
      { limitType: "aiAction", description: undefined, totalLimit: 250, currentUsage: 0, usageRemaining: 250 },
    );
    assert.ok(
      usage.body.data[0].attributes.usage.some((e: { limitType: string }) => e.limitType === "record"),
      "the bulk credits stay their own entry",
    );
  });

  it("each briefing, question and contact briefing costs one credit, charged once; lookalikes and recommendations are free", async () => {
    const { client, ai } = await accountClient(sandbox, "credits-1", 10);
    const [id] = companiesWithContacts(sandbox, 1);
    const contact = String(row(sandbox, "SELECT id FROM contacts WHERE company_id = ? ORDER BY id LIMIT 1", Number(id)).id);
    await client.accountBriefing(id!);
    assert.deepEqual(await ai(), { limit: 10, used: 1, remaining: 9 });
    await client.askAccount(id!, "Who are its competitors?");
    await client.contactBriefing(contact);
    assert.deepEqual(await ai(), { limit: 10, used: 3, remaining: 7 });
    await client.companyLookalikes({ companyId: id!, size: 100 });
    await client.contactLookalikes({ referencePersonId: contact });
    for (const useCase of ["PROSPECTING", "DEAL_ACCELERATION", "RENEWAL_AND_GROWTH"] as const) await client.contactRecommendations({ companyId: id!, useCase });
    assert.deepEqual(await ai(), { limit: 10, used: 3, remaining: 7 }, "free operations are free");
  });

  it("a refused request costs nothing: a bad question, a bad id", async () => {
    const { token, ai } = await accountClient(sandbox, "credits-2", 3);
    const [id] = companiesWithContacts(sandbox, 1);
    const bad = await call(sandbox, "POST", `/data/v1/research/accounts/${id}/questions`, {
      token,
      body: { data: { type: "AccountSummaryQuestionRequest", attributes: { question: "" } } },
    });
    assert.equal(bad.status, 400);
    const wrongType = await call(sandbox, "POST", `/data/v1/research/accounts/${id}/questions`, {
      token,
      body: { data: { type: "Question", attributes: { question: "Revenue?" } } },
    });
    assert.equal(wrongType.status, 400);
    assert.equal((await call(sandbox, "GET", "/data/v1/research/accounts/x1", { token })).status, 400);
    assert.deepEqual(await ai(), { limit: 3, used: 0, remaining: 3 });
  });

  it("with no credit left a research call is refused (400 PFAPI0011, in words), nothing is charged, and free operations still answer", async () => {
    const { client, token, ai } = await accountClient(sandbox, "credits-3", 1);
    const [id] = companiesWithContacts(sandbox, 1);
    await client.accountBriefing(id!);
    const raw = await call(sandbox, "GET", `/data/v1/research/accounts/${id}`, { token });
    assert.equal(raw.status, 400);
    assert.equal(raw.body.errors[0].code, "PFAPI0011");
    assert.match(raw.body.errors[0].detail, /AI action credits/);
    const error = await refusal(client.askAccount(id!, "Revenue?"));
    assert.match(errorText(error), /no AI action credits left/);
    assert.deepEqual(await ai(), { limit: 1, used: 1, remaining: 0 });
    assert.ok((await client.companyLookalikes({ companyId: id! })).length > 0);
  });

  it("research calls at once spend exactly the credits there are", async () => {
    const { client, ai } = await accountClient(sandbox, "credits-4", 3);
    const ids = companiesWithContacts(sandbox, 6);
    const outcomes = await Promise.allSettled(ids.map((id) => client.accountBriefing(id)));
    assert.equal(outcomes.filter((o) => o.status === "fulfilled").length, 3);
    assert.deepEqual(await ai(), { limit: 3, used: 3, remaining: 0 });
  });
});

describe("lookalikes and recommendations on the specification profile", () => {
  const seedOf = (client: ServiceClient) => client;
  it("company lookalikes: ranked 1..n by score in 0..1, never the company itself, the size asked", async () => {
    const { client } = await accountClient(sandbox, "look-1");
    const [id] = companiesWithContacts(sandbox, 1);
    const found = await seedOf(client).companyLookalikes({ companyId: id!, size: 40 });
    assert.equal(found.length, 40);
    assert.ok(found.every((c) => c.companyId !== id));
    assert.deepEqual(
      found.map((c) => c.rank),
      found.map((_, i) => i + 1),
    );
    for (let i = 1; i < found.length; i++) assert.ok(found[i - 1]!.score >= found[i]!.score);
    assert.ok(found.every((c) => c.score >= 0 && c.score <= 1 && typeof c.companyName === "string" && c.companyName !== ""));
    assert.equal(new Set(found.map((c) => c.companyId)).size, 40);
    assert.equal((await client.companyLookalikes({ companyId: id! })).length, 25, "25 by default");
  });

  it("the same… filters keep only companies sharing the reference's country, industry, revenue and employee ranges", async () => {
    const { client } = await accountClient(sandbox, "look-2");
    const [id] = companiesWithContacts(sandbox, 1);
    const reference = row(sandbox, "SELECT country FROM companies WHERE id = ?", Number(id));
    const sameCountry = await client.companyLookalikes({ companyId: id!, sameCountry: true, size: 100 });
    assert.ok(sameCountry.length > 0);
    assert.ok(
      sameCountry.every((c) => c.country === reference.country),
      JSON.stringify(sameCountry.slice(0, 3)),
    );
    const all = await client.companyLookalikes({ companyId: id!, sameIndustry: true, sameRevenueRange: true, sameEmployeeRange: true, size: 100 });
    for (const key of ["industry", "revenueRange", "employeeRange"] as const) assert.ok(new Set(all.map((c) => c[key])).size <= 1, key);
    const unfiltered = await client.companyLookalikes({ companyId: id!, size: 100 });
    assert.ok(
      unfiltered.some((c) => c.country !== reference.country),
      "without the filter other countries come too",
    );
  });

  it("by name: the company named is resolved; neither id nor name, a size above 100 or an unknown company is refused", async () => {
    const { client, token } = await accountClient(sandbox, "look-3");
    const [id] = companiesWithContacts(sandbox, 1);
    const name = String(row(sandbox, "SELECT name FROM companies WHERE id = ?", Number(id)).name);
    assert.deepEqual(await client.companyLookalikes({ companyName: name, size: 5 }), await client.companyLookalikes({ companyId: id!, size: 5 }));
    for (const [query, status] of [
      ["", 400],
      ["?filter[sameCountry]=true", 400],
      [`?filter[companyId]=${id}&page[size]=101`, 400],
      [`?filter[companyId]=${id}&page[size]=0`, 400],
      [`?filter[companyId]=${id}&filter[sameCountry]=yes`, 400],
      [`?filter[companyId]=${id}&filter[unknown]=1`, 400],
      ["?filter[companyId]=999999999", 404],
      ["?filter[companyName]=No%20Such%20Company%20Anywhere", 404],
    ] as const) {
      const answer = await call(sandbox, "GET", `/data/v1/lookalikes/companies${query}`, { token });
      assert.equal(answer.status, status, `${query}: ${JSON.stringify(answer.body)}`);
      assert.ok(answer.body.errors[0].detail, query);
    }
  });

  it("contact lookalikes: never the reference, ranked, and only at the target company when one is given", async () => {
    const { client } = await accountClient(sandbox, "look-4");
    const [a, b] = companiesWithContacts(sandbox, 2);
    const reference = String(row(sandbox, "SELECT id FROM contacts WHERE company_id = ? ORDER BY id LIMIT 1", Number(a)).id);
    const anywhere = await client.contactLookalikes({ referencePersonId: reference, size: 30 });
    assert.equal(anywhere.length, 30);
    assert.ok(anywhere.every((c) => c.contactId !== reference && c.referencePersonId === reference && c.brief !== ""));
    for (let i = 1; i < anywhere.length; i++) assert.ok(anywhere[i - 1]!.score >= anywhere[i]!.score && anywhere[i]!.rank === i + 1);
    const atB = await client.contactLookalikes({ referencePersonId: reference, targetCompanyId: b! });
    const ofB = new Set((sandbox.ctx.db.prepare("SELECT id FROM contacts WHERE company_id = ?").all(Number(b)) as { id: number }[]).map((r) => String(r.id)));
    assert.ok(atB.length > 0);
    assert.ok(atB.every((c) => ofB.has(c.contactId)));
  });

  it("recommendations: the company's own contacts, ranked for the use case (the order differs by use case)", async () => {
    const { client } = await accountClient(sandbox, "look-5");
    const ids = companiesWithContacts(sandbox, 20);
    let differs = false;
    for (const id of ids) {
      const ofCompany = new Set(
        (sandbox.ctx.db.prepare("SELECT id FROM contacts WHERE company_id = ?").all(Number(id)) as { id: number }[]).map((r) => String(r.id)),
      );
      const prospecting = await client.contactRecommendations({ companyId: id, useCase: "PROSPECTING" });
      const renewal = await client.contactRecommendations({ companyId: id, useCase: "RENEWAL_AND_GROWTH" });
      assert.ok(prospecting.length > 0);
      assert.ok(prospecting.every((c) => ofCompany.has(c.contactId) && c.companyId === id));
      assert.deepEqual(
        prospecting.map((c) => c.rank),
        prospecting.map((_, i) => i + 1),
      );
      if (prospecting.map((c) => c.contactId).join() !== renewal.map((c) => c.contactId).join()) differs = true;
    }
    assert.ok(differs, "the use case changes who comes first for some company");
    assert.equal((await client.contactRecommendations({ companyId: ids[0]!, useCase: "PROSPECTING", size: 1 })).length, 1);
    assert.equal((await refusal(client.contactRecommendations({ companyId: "999999999", useCase: "PROSPECTING" }))).kind, "notFound");
  });

  it("scopes: research needs api:account-summary:read, lookalikes and recommendations api:recommendations:read", async () => {
    const [id] = companiesWithContacts(sandbox, 1);
    const noResearch = await sandbox.token({ scopes: ["api:data:company", "api:data:contact", "api:recommendations:read"] });
    assert.equal((await call(sandbox, "GET", `/data/v1/research/accounts/${id}`, { token: noResearch })).status, 403);
    assert.equal((await call(sandbox, "GET", `/data/v1/lookalikes/companies?filter[companyId]=${id}`, { token: noResearch })).status, 200);
    const noRecommendations = await sandbox.token({ scopes: ["api:data:company", "api:account-summary:read"] });
    assert.equal((await call(sandbox, "GET", `/data/v1/lookalikes/companies?filter[companyId]=${id}`, { token: noRecommendations })).status, 403);
    assert.equal(
      (await call(sandbox, "GET", `/data/v1/recommendations/contacts?filter[ziCompanyId]=${id}&filter[useCaseType]=PROSPECTING`, { token: noRecommendations }))
        .status,
      403,
    );
    assert.equal((await call(sandbox, "GET", `/data/v1/research/accounts/${id}`, { token: noRecommendations })).status, 200);
    assert.equal((await call(sandbox, "GET", `/data/v1/research/accounts/${id}`)).status, 401);
  });

  it("a user signed in as the add-in signs in (its scopes) may research and find lookalikes", async () => {
    const client = await signedInClient(sandbox.url);
    const [id] = companiesWithContacts(sandbox, 1);
    assert.match((await client.accountBriefing(id!)).markdown, /^# /m);
    assert.ok((await client.companyLookalikes({ companyId: id! })).length > 0);
  });
});
