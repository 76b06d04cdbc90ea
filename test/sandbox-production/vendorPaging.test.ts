// The vendor's own n8n node pages "Return All" this way: page[size]=100, the next page while
// meta.page.number < meta.page.total (page.total being the number of pages). Replayed here over
// real HTTP against the production profile, it must collect every result, exactly once.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.js";

const JSONAPI = "application/vnd.api+json";
const COMPANIES = 1234;

type Page = { data: { id: string }[]; meta: { totalResults: number; page: { number: number; total: number } } };

describe("the vendor node's paging loop against the production profile", () => {
  let sandbox: TestSandbox;
  let token: string;
  before(async () => {
    sandbox = await startTestSandbox({ profile: "production", companies: COMPANIES, contacts: 700 });
    token = await sandbox.token({ scopes: ["api:data:company", "api:data:contact"] });
  });
  after(() => sandbox.close());

  /** The node's loop, as its pagination block runs it: page numbers read back from meta.page.number. */
  async function returnAll(path: string, type: string, query = ""): Promise<{ ids: string[]; requests: number; totalResults: number }> {
    const ids: string[] = [];
    let requests = 0;
    let number = 0;
    let total = 1;
    let totalResults = 0;
    do {
      const res = await fetch(`${sandbox.url}${path}?page[size]=100&page[number]=${number + 1}${query}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": JSONAPI, accept: JSONAPI },
        body: JSON.stringify({ data: { type, attributes: {} } }),
      });
      requests += 1;
      assert.equal(res.status, 200, `page ${number + 1}: ${await res.clone().text()}`);
      const page = (await res.json()) as Page;
      ids.push(...page.data.map((d) => d.id));
      number = page.meta.page.number ?? 1;
      total = page.meta.page.total ?? 1;
      totalResults = page.meta.totalResults;
    } while (number < total);
    return { ids, requests, totalResults };
  }

  it("collects every company, one request per page", async () => {
    const { ids, requests, totalResults } = await returnAll("/gtm/data/v1/companies/search", "CompanySearch");
    assert.equal(totalResults, COMPANIES);
    assert.equal(ids.length, COMPANIES, "every result");
    assert.equal(new Set(ids).size, COMPANIES, "each once");
    assert.equal(requests, Math.ceil(COMPANIES / 100), "no request past the last page");
  });

  it("collects every contact in a production-only sort order", async () => {
    const { ids, requests, totalResults } = await returnAll("/gtm/data/v1/contacts/search", "ContactSearch", "&sort=-lastMentioned");
    assert.equal(ids.length, totalResults);
    assert.equal(new Set(ids).size, totalResults);
    assert.equal(requests, Math.ceil(totalResults / 100));
  });
});
