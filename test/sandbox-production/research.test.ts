// Research and lookalikes on the production profile over real HTTP (docs/research.md): the
// production client (its copilot paths, through the production edge as the runtime builds it)
// against /gtm/copilot/v1, the gateway's scope checks (ZI0002), contact research not offered
// (refused by the client before sending; its paths are no operation of the service), our
// /data/v1 paths not on production's wire, and AI action credits charged once per research call.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServiceClient, errorText, type ServiceClient } from "../../src/core/api/index.js";
import { productionTransport } from "../../src/core/api/production/index.js";
import { fetchTransport } from "../../src/core/api/client.js";
import { companiesWithContacts, refusal } from "../helpers/research.js";
import { useSandbox } from "../helpers/sandbox.js";

const sandbox = useSandbox({ profile: "production" });
const RESEARCH = ["api:data:company", "api:data:contact", "api:account-summary:read", "api:recommendations:read"];

function productionClient(token: string): ServiceClient {
  return createServiceClient({
    baseUrl: `${sandbox.url}/gtm`,
    audiencesBaseUrl: `${sandbox.url}/gtm/studio`,
    getAccessToken: async () => token,
    fetch: productionTransport(fetchTransport()),
    profile: "production",
    rateLimit: { perSecond: 2000 },
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
  });
}

async function account(id: string, aiCredits: number, scopes = RESEARCH) {
  const res = await fetch(`${sandbox.url}/__sandbox/accounts`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id, credits: 100, aiCredits }),
  });
  assert.equal(res.status, 200);
  const token = await sandbox.token({ account: id, scopes });
  const client = productionClient(token);
  return { client, token, ai: async () => (await client.usage()).aiActions };
}

const seededCompany = (n = 0) => companiesWithContacts(sandbox, 1, n)[0]!;

const get = (path: string, token?: string) => fetch(`${sandbox.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

describe("research on the production profile", () => {
  it("the production client's operations answer from /gtm/copilot/v1", async () => {
    const { client } = await account("prod-research-1", 10);
    const id = seededCompany();
    sandbox.resetStats();
    const briefing = await client.accountBriefing(id);
    assert.match(briefing.markdown, /^# /m);
    const answer = await client.askAccount(id, "How many employees?");
    assert.ok(answer.answer.length > 0);
    const lookalikes = await client.companyLookalikes({ companyId: id, sameCountry: true, size: 10 });
    assert.equal(lookalikes.length, 10);
    assert.ok(lookalikes.every((c) => c.companyId !== id));
    const reference = String((sandbox.ctx.db.prepare("SELECT id FROM contacts WHERE company_id = ? ORDER BY id LIMIT 1").get(Number(id)) as { id: number }).id);
    assert.ok((await client.contactLookalikes({ referencePersonId: reference, size: 5 })).length > 0);
    assert.ok((await client.contactRecommendations({ companyId: id, useCase: "DEAL_ACCELERATION" })).length > 0);
    // Each copilot request reached the profile's core route once (the sandbox counts the routes under /data/v1).
    assert.equal(sandbox.requests("GET /data/v1/research/accounts/:companyId"), 1);
    assert.equal(sandbox.requests("POST /data/v1/research/accounts/:companyId/questions"), 1);
    assert.equal(sandbox.requests("GET /data/v1/lookalikes/companies"), 1);
    assert.equal(sandbox.requests("GET /data/v1/lookalikes/contacts"), 1);
    assert.equal(sandbox.requests("GET /data/v1/recommendations/contacts"), 1);
  });

  it("contact research: the client refuses it before sending; the service has no such operation", async () => {
    const { client, token } = await account("prod-research-2", 10);
    sandbox.resetStats();
    const error = await refusal(client.contactBriefing("1"));
    assert.match(errorText(error), /does not offer contact research over its API/);
    assert.equal(sandbox.requests(), 0);
    for (const path of ["/gtm/copilot/v1/contacts/1/contact-summary", "/gtm/data/v1/research/contacts/1", "/data/v1/research/contacts/1"]) {
      const res = await get(path, token);
      assert.equal(res.status, 404, path);
    }
  });

  it("our specification paths are not on production's wire", async () => {
    const { token } = await account("prod-research-3", 10);
    for (const path of [`/data/v1/research/accounts/${seededCompany()}`, `/data/v1/lookalikes/companies?filter[companyId]=${seededCompany()}`]) {
      const res = await get(path, token);
      assert.equal(res.status, 404, path);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, "ZI9998");
    }
  });

  it("scopes: a briefing needs api:account-summary:read, lookalikes and recommendations api:recommendations:read (ZI0002)", async () => {
    const id = seededCompany();
    const dataOnly = await sandbox.token({ scopes: ["api:data:company", "api:data:contact"] });
    for (const path of [
      `/gtm/copilot/v1/companies/${id}/account-summary`,
      `/gtm/copilot/v1/companies/lookalikes?filter[companyId]=${id}`,
      `/gtm/copilot/v1/contacts/recommendations?filter[ziCompanyId]=${id}&filter[useCaseType]=PROSPECTING`,
    ]) {
      const res = await get(path, dataOnly);
      assert.equal(res.status, 403, path);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, "ZI0002", path);
    }
    const summaryOnly = await sandbox.token({ scopes: ["api:account-summary:read"] });
    assert.equal((await get(`/gtm/copilot/v1/companies/${id}/account-summary`, summaryOnly)).status, 200);
    assert.equal((await get(`/gtm/copilot/v1/companies/lookalikes?filter[companyId]=${id}`, summaryOnly)).status, 403);
    const error = await refusal(productionClient(summaryOnly).companyLookalikes({ companyId: id }));
    assert.equal(error.kind, "forbidden");
    assert.match(errorText(error), /not allowed to use the resource \/gtm\/copilot\/v1\/companies\/lookalikes\. Ask your administrator/);
    assert.equal((await get(`/gtm/copilot/v1/companies/${id}/account-summary`)).status, 401);
  });

  it("AI action credits: one per briefing or question on success, none for a refusal or for free operations, refused at zero", async () => {
    const { client, ai } = await account("prod-research-4", 2);
    const id = seededCompany(1);
    assert.deepEqual(await ai(), { limit: 2, used: 0, remaining: 2 });
    await client.companyLookalikes({ companyId: id, size: 100 });
    await client.contactRecommendations({ companyId: id, useCase: "PROSPECTING" });
    assert.deepEqual(await ai(), { limit: 2, used: 0, remaining: 2 });
    assert.equal((await refusal(client.accountBriefing("999999999"))).kind, "notFound");
    assert.deepEqual(await ai(), { limit: 2, used: 0, remaining: 2 });
    await client.accountBriefing(id);
    await client.askAccount(id, "Revenue?");
    assert.deepEqual(await ai(), { limit: 2, used: 2, remaining: 0 });
    const none = await refusal(client.accountBriefing(id));
    assert.equal(none.kind, "validation");
    assert.match(errorText(none), /no AI action credits left/);
    assert.deepEqual(await ai(), { limit: 2, used: 2, remaining: 0 });
  });

  it("lookalikes: neither id nor name and a page size of 101 are refused by the service too (400)", async () => {
    const { token } = await account("prod-research-5", 1);
    for (const query of ["", "?filter[sameIndustry]=true", `?filter[companyId]=${seededCompany()}&page[size]=101`]) {
      const res = await get(`/gtm/copilot/v1/companies/lookalikes${query}`, token);
      assert.equal(res.status, 400, query);
      const body = (await res.json()) as { errors: { code: string; detail: string }[] };
      assert.ok(body.errors[0]!.detail, query);
    }
  });
});
