// The BIZ signal functions on the production profile's answers (the service's published shapes:
// string company ids, {id, type} scoop types, date-times, news category codes): each cell shows
// the value the service's own answer gives, read directly; scoop types match by name.
import assert from "node:assert/strict";
import { after, afterEach, before, describe, it } from "node:test";
import { createServiceClient, fetchTransport, type ServiceClient } from "../../src/core/api/index.js";
import { productionTransport } from "../../src/core/api/production/index.js";
import { HASHTAGS_PATH, HashtagsDocument, hashtagBody, readHashtags } from "../../src/core/contract/index.js";
import { createEnrichmentEngine, MemoryCacheStore } from "../../src/core/enrich/index.js";
import { intentScore, latestNews, latestScoop, usesTechnology } from "../../src/core/signals/index.js";
import { manualClock, startTestSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { cellOutcome, invocation, loadFunctions } from "./fakeCustomFunctions.js";

const fns = await loadFunctions();

const NOW = Date.parse("2026-06-15T12:00:00Z");
const TOPIC = "Cloud Security";
let sandbox: TestSandbox;
let client: ServiceClient;
before(async () => {
  sandbox = await startTestSandbox({ profile: "production", companies: 300, contacts: 600, clock: manualClock(NOW), rateLimit: { perSecond: 10_000 } });
  const token = await sandbox.token({ scopes: ["api:data:company", "api:data:contact", "api:data:intent", "api:data:news", "api:data:scoops"] });
  client = createServiceClient({
    baseUrl: `${sandbox.url}/gtm`,
    getAccessToken: async () => token,
    rateLimit: { perSecond: 1000 },
    fetch: productionTransport(fetchTransport()),
  });
});
after(async () => {
  await sandbox.close();
});
afterEach(() => fns.configureFunctions(undefined));

describe("BIZ signal functions on the production profile", () => {
  it("show what the service's answers say: intent score, latest scoop and news, a product in use", async () => {
    fns.configureFunctions({ engine: createEnrichmentEngine({ client, cache: new MemoryCacheStore(), windowMs: 5 }), isSignedIn: () => true });
    const ids = Array.from({ length: 12 }, (_, i) => i + 1);
    for (const id of ids) {
      const [score, scoop, news] = await Promise.all([
        cellOutcome(fns.intent(id, TOPIC, invocation())),
        cellOutcome(fns.latestScoop(id, null, invocation())),
        cellOutcome(fns.latestNews(id, null, invocation())),
      ]);
      assert.equal(score.value, intentScore(await client.enrichIntent({ companyId: id, topics: [TOPIC] }), TOPIC), `intent ${id}`);
      const directScoop = latestScoop(await client.enrichScoops({ companyId: String(id) }));
      assert.deepEqual(scoop.value, [[directScoop?.headline ?? "", directScoop?.date ?? ""]], `scoop ${id}`);
      assert.match(String((scoop.value as string[][])[0]![1]), /^(\d{4}-\d{2}-\d{2})?$/, "a date, not a date-time");
      const directNews = latestNews(await client.enrichNews({ companyId: String(id) }));
      assert.deepEqual(news.value, [[directNews?.headline ?? "", directNews?.date ?? ""]], `news ${id}`);
    }
    const technologies = await client.enrichTechnologies(1);
    assert.ok(technologies.length > 0);
    const product = technologies[0]!.attributes.product;
    assert.equal((await cellOutcome(fns.usesTech(1, product, invocation()))).value, usesTechnology(technologies, product));
    assert.equal((await cellOutcome(fns.usesTech(1, product, invocation()))).value, true);
  });

  it("BIZ.HASHTAGS shows the hashtags the service's answer gives", async () => {
    fns.configureFunctions({ engine: createEnrichmentEngine({ client, cache: new MemoryCacheStore(), windowMs: 5 }), isSignedIn: () => true });
    let tagged = 0;
    for (let id = 1; id <= 12; id++) {
      const direct = readHashtags(await client.postDocument({ path: HASHTAGS_PATH, body: hashtagBody(id), document: HashtagsDocument }));
      tagged += direct.length > 0 ? 1 : 0;
      assert.equal((await cellOutcome(fns.hashtags(id, invocation()))).value, direct.map((h) => h.label).join(", "), `hashtags ${id}`);
    }
    assert.ok(tagged > 0, "some of these companies are tagged");
  });

  it("counts scoops of a type named as the service names it", async () => {
    fns.configureFunctions({ engine: createEnrichmentEngine({ client, cache: new MemoryCacheStore(), windowMs: 5 }), isSignedIn: () => true });
    let found = 0;
    for (let id = 1; id <= 40; id++) {
      const scoops = await client.enrichScoops({ companyId: String(id) });
      const type = scoops[0]?.attributes.types?.[0];
      if (!type) continue;
      const expected = scoops.filter((s) => s.attributes.types?.includes(type)).length;
      assert.equal((await cellOutcome(fns.scoops(id, type, 3650, invocation()))).value, expected, `${type} at ${id}`);
      found += 1;
    }
    assert.ok(found > 5, `${found} companies with scoops`);
  });
});
