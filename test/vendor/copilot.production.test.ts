// The production profile's research and lookalike answers against the copilot API's published
// schemas (test/fixtures/vendor/copilot.json), over real HTTP by the vendor's operationIds: for a
// broad set of seeded companies and contacts, every filter and use case, every answer validates;
// its refusals (an unknown company, neither id nor name, a page size above 100, no credit left)
// are the published error document.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { useSandbox } from "../helpers/sandbox.js";
import { responseErrors } from "./oracle.js";
import { callProfile } from "./productionProfile.js";

const sandbox = useSandbox({ profile: "production" });
const SCOPES = ["api:data:company", "api:data:contact", "api:account-summary:read", "api:recommendations:read"];

/** Every 30th seeded company that has contacts: 50 companies across the seed. */
const companies = () =>
  (sandbox.ctx.db.prepare("SELECT DISTINCT company_id AS id FROM contacts ORDER BY company_id").all() as { id: number }[])
    .filter((_, i) => i % 30 === 0)
    .slice(0, 50)
    .map((r) => String(r.id));
const firstContactOf = (companyId: string) =>
  String((sandbox.ctx.db.prepare("SELECT id FROM contacts WHERE company_id = ? ORDER BY id LIMIT 1").get(Number(companyId)) as { id: number }).id);

describe("the production profile's copilot answers against the published schemas", () => {
  it("briefings and answers of 50 companies", async () => {
    const token = await sandbox.token({ scopes: SCOPES, account: "copilot-briefings" });
    const ids = companies();
    assert.equal(ids.length, 50);
    for (const companyId of ids) {
      const summary = await callProfile(sandbox, token, "copilot", "AccountSummaryInterface_getAccountSummary", { params: { companyId } });
      assert.equal(summary.status, 200, JSON.stringify(summary.doc));
      assert.deepEqual(responseErrors("copilot", "AccountSummaryInterface_getAccountSummary", summary.doc), [], summary.url);
      const asked = await callProfile(sandbox, token, "copilot", "AccountSummaryInterface_askAccountSummaryQuestion", {
        params: { companyId },
        body: { data: { type: "AccountSummaryQuestionRequest", attributes: { question: "What technologies and competitors does it have?" } } },
      });
      assert.equal(asked.status, 200, JSON.stringify(asked.doc));
      assert.deepEqual(responseErrors("copilot", "AccountSummaryInterface_askAccountSummaryQuestion", asked.doc), [], asked.url);
    }
  });

  it("the question also goes as application/json, which the operation takes too", async () => {
    const token = await sandbox.token({ scopes: SCOPES, account: "copilot-json" });
    const [companyId] = companies();
    const asked = await callProfile(sandbox, token, "copilot", "AccountSummaryInterface_askAccountSummaryQuestion", {
      params: { companyId: companyId! },
      body: { data: { type: "AccountSummaryQuestionRequest", attributes: { question: "Revenue?" } } },
      contentType: "application/json",
    });
    assert.equal(asked.status, 200);
  });

  it("company lookalikes of 50 companies, with each filter, by id and by name", async () => {
    const token = await sandbox.token({ scopes: SCOPES });
    const filters: Record<string, string>[] = [
      {},
      { "filter[sameCountry]": "true" },
      { "filter[sameIndustry]": "true" },
      { "filter[sameRevenueRange]": "true", "filter[sameEmployeeRange]": "true" },
    ];
    let answers = 0;
    for (const [i, companyId] of companies().entries()) {
      const query = { "filter[companyId]": companyId, "page[size]": 100, ...filters[i % filters.length] };
      const found = await callProfile(sandbox, token, "copilot", "CompanyLookalikesInterface_companyLookalikes", { query });
      assert.equal(found.status, 200, JSON.stringify(found.doc));
      assert.deepEqual(responseErrors("copilot", "CompanyLookalikesInterface_companyLookalikes", found.doc), [], found.url);
      answers += (found.doc as { data: unknown[] }).data.length;
    }
    assert.ok(answers > 1000, `${answers} lookalikes`);
    const name = String((sandbox.ctx.db.prepare("SELECT name FROM companies WHERE id = ?").get(Number(companies()[0])) as { name: string }).name);
    const byName = await callProfile(sandbox, token, "copilot", "CompanyLookalikesInterface_companyLookalikes", { query: { "filter[companyName]": name } });
    assert.equal(byName.status, 200);
    assert.deepEqual(responseErrors("copilot", "CompanyLookalikesInterface_companyLookalikes", byName.doc), []);
  });

  it("contact lookalikes and recommendations for 50 companies, every use case", async () => {
    const token = await sandbox.token({ scopes: SCOPES });
    const useCases = ["PROSPECTING", "DEAL_ACCELERATION", "RENEWAL_AND_GROWTH"];
    for (const [i, companyId] of companies().entries()) {
      const reference = firstContactOf(companyId);
      const like = await callProfile(sandbox, token, "copilot", "ContactLookalikesInterface_getContactLookalikes", {
        query: { "filter[referencePersonId]": reference, ...(i % 2 === 0 ? { "filter[targetCompanyId]": companies()[(i + 1) % 50]! } : {}) },
      });
      assert.equal(like.status, 200, JSON.stringify(like.doc));
      assert.deepEqual(responseErrors("copilot", "ContactLookalikesInterface_getContactLookalikes", like.doc), [], like.url);
      const recommended = await callProfile(sandbox, token, "copilot", "ContactRecommendationsInterface_getContactRecommendations", {
        query: { "filter[ziCompanyId]": companyId, "filter[useCaseType]": useCases[i % 3]!, "page[size]": 10 },
      });
      assert.equal(recommended.status, 200, JSON.stringify(recommended.doc));
      assert.deepEqual(responseErrors("copilot", "ContactRecommendationsInterface_getContactRecommendations", recommended.doc), [], recommended.url);
    }
  });

  it("refusals are the published error document: unknown company 404, neither id nor name 400, page size 101 400, no credit left 400", async () => {
    const token = await sandbox.token({ scopes: SCOPES, account: "copilot-refusals" });
    const errorDoc = (operationId: string, answer: { status: number; doc: unknown; url: string }, status: number) => {
      assert.equal(answer.status, status, `${answer.url}: ${JSON.stringify(answer.doc)}`);
      assert.deepEqual(responseErrors("copilot", operationId, answer.doc, status), [], answer.url);
    };
    errorDoc(
      "AccountSummaryInterface_getAccountSummary",
      await callProfile(sandbox, token, "copilot", "AccountSummaryInterface_getAccountSummary", { params: { companyId: "999999999" } }),
      404,
    );
    errorDoc(
      "CompanyLookalikesInterface_companyLookalikes",
      await callProfile(sandbox, token, "copilot", "CompanyLookalikesInterface_companyLookalikes", { query: { "filter[sameCountry]": "true" } }),
      400,
    );
    errorDoc(
      "CompanyLookalikesInterface_companyLookalikes",
      await callProfile(sandbox, token, "copilot", "CompanyLookalikesInterface_companyLookalikes", {
        query: { "filter[companyId]": companies()[0]!, "page[size]": 101 },
      }),
      400,
    );
    errorDoc(
      "ContactRecommendationsInterface_getContactRecommendations",
      await callProfile(sandbox, token, "copilot", "ContactRecommendationsInterface_getContactRecommendations", {
        query: { "filter[ziCompanyId]": companies()[0]! },
      }),
      400,
    );
    await fetch(`${sandbox.url}/__sandbox/accounts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: "copilot-refusals", credits: 10, aiCredits: 0 }),
    });
    const none = await callProfile(sandbox, token, "copilot", "AccountSummaryInterface_askAccountSummaryQuestion", {
      params: { companyId: companies()[0]! },
      body: { data: { type: "AccountSummaryQuestionRequest", attributes: { question: "Revenue?" } } },
    });
    errorDoc("AccountSummaryInterface_askAccountSummaryQuestion", none, 400);
    assert.equal((none.doc as { errors: { code: string }[] }).errors[0]!.code, "PFAPI0011");
  });
});
