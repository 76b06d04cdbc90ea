// The client's signal operations and the intent plan chooser against the real sandbox over HTTP,
// requests counted at the sandbox; both profiles for the client operations.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServiceClient, fetchTransport, isServiceError, type ServiceClient } from "../../../src/core/api/index.js";
import { productionTransport } from "../../../src/core/api/production/index.js";
import { intentScore, latestScoop, prepareIntentPlan, scoopBatches, scoopsForCompanies } from "../../../src/core/signals/index.js";
import { manualClock, useSandbox, type TestSandbox } from "../../helpers/sandbox.js";

const NOW = Date.parse("2026-06-15T12:00:00Z");
const ALL = ["api:data:company", "api:data:contact", "api:data:lookup", "api:data:intent", "api:data:news", "api:data:scoops"];
const TOPICS = ["Cloud Security", "CRM Software", "Machine Learning"];
const SEARCH = "POST /data/v1/intent/search";
const ENRICH = "POST /data/v1/intent/enrich";

async function clientOf(sandbox: TestSandbox, production = false): Promise<ServiceClient> {
  const token = await sandbox.token({ scopes: ALL });
  return createServiceClient({
    baseUrl: production ? `${sandbox.url}/gtm` : sandbox.url,
    getAccessToken: async () => token,
    rateLimit: { perSecond: 1000 },
    ...(production ? { fetch: productionTransport(fetchTransport()) } : {}),
  });
}

for (const profile of ["default", "production"] as const) {
  describe(`signal client operations, ${profile} profile`, () => {
    const sandbox = useSandbox({ profile, clock: manualClock(NOW), rateLimit: { perSecond: 10_000 } });
    it("searches every page, enriches one company and checks requests before sending", async () => {
      const client = await clientOf(sandbox, profile === "production");
      const first = await client.searchIntent({ topics: TOPICS }, { size: 100 });
      assert.ok(first.totalPages > 1 && first.totalPages === Math.ceil(first.totalResults / 100));
      let seen = 0;
      for await (const page of client.iterateIntent({ topics: TOPICS })) seen += page.items.length;
      assert.equal(seen, first.totalResults);
      const companyId = first.items[0]!.attributes.company!.id;
      const enriched = await client.enrichIntent({ companyId, topics: TOPICS });
      const inSearch = new Set(first.items.filter((i) => i.attributes.company?.id === companyId).map((i) => i.attributes.topic));
      assert.ok([...inSearch].every((t) => enriched.some((i) => i.attributes.topic === t)));
      assert.ok(enriched.some((i) => Array.isArray(i.attributes.topSignalLocations)));
      assert.ok((await client.enrichScoops({ companyId: "1,2,3,4,5,6,7,8" })).length > 0);
      assert.ok((await client.searchNews({ categories: ["FUNDING"] })).totalResults > 0);
      assert.ok((await client.enrichTechnologies(3)).every((t) => typeof t.attributes.product === "string"));
      await assert.rejects(
        client.searchIntent({ topics: [] }),
        (e: unknown) => isServiceError(e) && e.kind === "validation" && e.issues.some((i) => i.pointer === "/data/attributes/topics"),
      );
    });
  });
}

describe("the intent plan chooser", () => {
  const sandbox = useSandbox({ clock: manualClock(NOW), rateLimit: { perSecond: 10_000 } });

  it("joins the search's pages for a long list and asks one by one for a short one, with fewer requests each time", async () => {
    const client = await clientOf(sandbox);
    const ids = Array.from({ length: 400 }, (_, i) => i + 1);
    sandbox.resetStats();
    const long = await prepareIntentPlan(client, { companyIds: ids, topics: TOPICS });
    const viaSearch = await long.run();
    assert.equal(long.plan.kind, "search");
    assert.equal(sandbox.requests(SEARCH), long.plan.requests);
    assert.equal(sandbox.requests(ENRICH), 0);
    assert.ok(long.plan.requests < ids.length);

    // The same values as asking each company.
    for (const id of [1, 2, 3, 17, 250]) {
      const direct = await client.enrichIntent({ companyId: id, topics: TOPICS });
      for (const topic of TOPICS) assert.equal(intentScore(viaSearch.get(id) ?? [], topic), intentScore(direct, topic), `company ${id} ${topic}`);
    }

    sandbox.resetStats();
    const short = await prepareIntentPlan(client, { companyIds: ids.slice(0, 2), topics: TOPICS });
    await short.run();
    assert.equal(short.plan.kind, "enrich");
    assert.equal(sandbox.requests(ENRICH), 2);
    assert.ok((short.plan.searchRequests ?? 0) >= 2);
    assert.equal(sandbox.requests(SEARCH), 1);
    assert.match(short.plan.summary, /one per company/);
  });

  it("narrows the search by what the list shares", async () => {
    const client = await clientOf(sandbox);
    const wide = await prepareIntentPlan(client, { companyIds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], topics: TOPICS });
    const narrow = await prepareIntentPlan(client, { companyIds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], topics: TOPICS, narrowing: { country: "France" } });
    assert.ok((narrow.plan.searchRequests ?? 0) < (wide.plan.searchRequests ?? 0));
  });

  it("asks for scoops 25 companies per request", async () => {
    const client = await clientOf(sandbox);
    const ids = Array.from({ length: 60 }, (_, i) => i + 1);
    assert.deepEqual(
      scoopBatches(ids).map((b) => b.length),
      [25, 25, 10],
    );
    sandbox.resetStats();
    const scoops = await scoopsForCompanies(client, ids);
    assert.equal(sandbox.requests("POST /data/v1/scoops/enrich"), 3);
    const one = await client.enrichScoops({ companyId: "9" });
    assert.deepEqual(latestScoop(scoops.get(9) ?? []), latestScoop(one));
  });
});
