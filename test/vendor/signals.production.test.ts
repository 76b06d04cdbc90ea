// The sandbox's production profile against the service's own published signal description
// (test/fixtures/vendor): every example request is answered 200, and every answer over a broad
// set of requests (each operation, several filters, every page) validates against the service's
// answer schemas with a JSON Schema validator. The vendor node's Return All loop collects every
// intent and scoop result.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SIGNAL_LOOKUPS } from "../../src/core/contract/index.js";
import { manualClock, useSandbox } from "../helpers/sandbox.js";
import { call, type Answer } from "../sandbox/http.js";
import { responseErrors, vendorOperation } from "./oracle.js";

const NOW = Date.parse("2026-06-15T12:00:00Z");
const SCOPES = ["api:data:company", "api:data:contact", "api:data:lookup", "api:data:intent", "api:data:news", "api:data:scoops"];
const doc = (type: string, attributes: object) => ({ data: { type, attributes } });

const OPERATION_IDS = {
  "/data/v1/intent/search": "SearchInterface_searchIntent",
  "/data/v1/intent/enrich": "EnrichInterface_enrichIntent",
  "/data/v1/scoops/search": "SearchInterface_searchScoop",
  "/data/v1/scoops/enrich": "EnrichInterface_enrichScoop",
  "/data/v1/news/search": "SearchInterface_searchNews",
  "/data/v1/news/enrich": "EnrichInterface_enrichNews",
  "/data/v1/companies/technologies/enrich": "EnrichInterface_enrichTechnology",
} as const;
type Path = keyof typeof OPERATION_IDS;

/** The requests of the broad set: every operation, several filters (pages are read to the end). */
const BROAD: [Path, object][] = [
  ["/data/v1/intent/search", doc("IntentSearch", { topics: ["Cloud Security", "Machine Learning"] })],
  [
    "/data/v1/intent/search",
    doc("IntentSearch", { topics: ["Cloud Applications", "Java", "Node.js"], signalScoreMin: 70, audienceStrengthMin: "C", audienceStrengthMax: "A" }),
  ],
  ["/data/v1/intent/search", doc("IntentSearch", { topics: ["CRM Software"], findRecommendedContacts: false, country: "United States" })],
  ["/data/v1/scoops/search", doc("ScoopSearch", { scoopType: "1,6,8" })],
  ["/data/v1/scoops/search", doc("ScoopSearch", { publishedStartDate: "2026-03-01", department: "2" })],
  ["/data/v1/news/search", doc("NewsSearch", { categories: ["PRODUCT", "PERSON", "GENERAL_NEWS"] })],
  ["/data/v1/news/search", doc("NewsSearch", { pageDateMin: "2026-05-01" })],
  ["/data/v1/scoops/enrich", doc("ScoopEnrich", { companyId: "1,2,3,4,5,6,7,8,9,10" })],
  ["/data/v1/news/enrich", doc("NewsEnrich", { companyId: 3 })],
];

describe("the production profile against the service's published signal description", () => {
  const sandbox = useSandbox({ profile: "production", companies: 600, contacts: 1500, clock: manualClock(NOW), rateLimit: { perSecond: 10_000 } });
  const post = async (path: string, body: unknown, query = ""): Promise<Answer> =>
    call(sandbox, "POST", `/gtm${path}${query}`, { token: await sandbox.token({ scopes: SCOPES }), body });
  const valid = (path: Path, res: Answer, what: string) => {
    assert.equal(res.status, 200, `${what}: ${JSON.stringify(res.body)}`);
    assert.deepEqual(responseErrors("data", OPERATION_IDS[path], res.body), [], what);
  };

  it("answers every published example request 200, with an answer of the published schema", async () => {
    for (const [path, id] of Object.entries(OPERATION_IDS) as [Path, string][]) {
      const examples = vendorOperation("data", id).requestExamples;
      assert.ok(examples.length > 0, id);
      for (const example of examples) valid(path, await post(path, example.value), `${id} (${example.name})`);
    }
  });

  it("answers the broad set in the published schemas, every page of it", async () => {
    let validated = 0;
    for (const [path, body] of BROAD) {
      const first = await post(path, body, "?page[size]=100");
      valid(path, first, `${path} ${JSON.stringify(body)}`);
      assert.ok(first.body.meta.totalResults > 0, `${path} ${JSON.stringify(body)} found nothing`);
      for (let n = 2; n <= first.body.meta.page.total; n++) valid(path, await post(path, body, `?page[size]=100&page[number]=${n}`), `${path} page ${n}`);
      validated += first.body.meta.page.total;
    }
    assert.ok(validated > BROAD.length, `${validated} pages`);
  });

  it("answers intent and technologies enrich for companies that have signals, in the published schemas", async () => {
    const search = await post("/data/v1/intent/search", doc("IntentSearch", { topics: ["Cloud Security", "CRM Software", "Java"] }), "?page[size]=100");
    const ids = [...new Set(search.body.data.map((i: { attributes: { company: { id: string } } }) => i.attributes.company.id))].slice(0, 5);
    for (const id of ids) {
      const enrich = await post("/data/v1/intent/enrich", doc("IntentEnrich", { companyId: Number(id), topics: ["Cloud Security", "CRM Software", "Java"] }));
      valid("/data/v1/intent/enrich", enrich, `intent enrich ${id}`);
      assert.ok(enrich.body.data.length > 0);
      valid(
        "/data/v1/companies/technologies/enrich",
        await post("/data/v1/companies/technologies/enrich", doc("TechnologyEnrich", { companyId: Number(id) })),
        `technologies ${id}`,
      );
    }
  });

  it("answers every signal lookup in the published lookup schema, with the service's ids", async () => {
    const token = await sandbox.token({ scopes: SCOPES });
    for (const name of SIGNAL_LOOKUPS) {
      const res = await call(sandbox, "GET", `/gtm/data/v1/lookup/${name}`, { token });
      assert.equal(res.status, 200, name);
      assert.deepEqual(responseErrors("data", "LookupInterface_lookup", res.body), [], name);
    }
    const types = await call(sandbox, "GET", "/gtm/data/v1/lookup/scoop-types", { token });
    assert.ok(types.body.data.every((t: { id: string }) => /^\d+$/.test(t.id)));
    assert.ok(types.body.data.some((t: { id: string; attributes: { name: string } }) => t.id === "6" && t.attributes.name === "Award"));
    const news = await call(sandbox, "GET", "/gtm/data/v1/lookup/news-categories", { token });
    assert.ok(["PRODUCT", "PERSON", "GENERAL_NEWS"].every((c) => news.body.data.some((n: { id: string }) => n.id === c)));
    const topics = await call(sandbox, "GET", "/gtm/data/v1/lookup/intent-topics", { token });
    const cloud = topics.body.data.find((t: { id: string }) => t.id === "Cloud Applications");
    assert.ok(cloud && ["category", "department", "description", "jobFunction"].every((k) => k in cloud.attributes));
    const categories = await call(sandbox, "GET", "/gtm/data/v1/lookup/tech-categories", { token });
    assert.ok(categories.body.data.every((c: { attributes: { categories: unknown } }) => Array.isArray(c.attributes.categories)));
    const products = await call(sandbox, "GET", "/gtm/data/v1/lookup/tech-products", { token });
    assert.ok(
      products.body.data.every((p: { id: string; attributes: { attribute: string } }) => /^\d+$/.test(p.id) && /^\d+(\.\d+)+$/.test(p.attributes.attribute)),
    );
  });

  it("describes the signal searches' fields in the search lookup, in the published schema", async () => {
    const token = await sandbox.token({ scopes: SCOPES });
    for (const entity of ["intent", "scoop", "news"]) {
      for (const fieldType of ["input", "output"]) {
        const res = await call(sandbox, "GET", `/gtm/data/v1/lookup/search?filter[entity]=${entity}&filter[fieldType]=${fieldType}`, { token });
        assert.equal(res.status, 200, `${entity} ${fieldType}: ${JSON.stringify(res.body)}`);
        assert.ok(res.body.data.length > 3);
        assert.deepEqual(responseErrors("data", "LookupSearchInterface_lookupSearch", res.body), [], `${entity} ${fieldType}`);
      }
    }
  });

  /** The vendor node's Return All: page[size]=100, the next page while page.number < page.total. */
  async function returnAll(path: Path, body: object): Promise<{ ids: string[]; totalResults: number; requests: number }> {
    const ids: string[] = [];
    let requests = 0;
    let number = 0;
    let total = 1;
    let totalResults = 0;
    do {
      const res = await post(path, body, `?page[size]=100&page[number]=${number + 1}`);
      requests += 1;
      assert.equal(res.status, 200, `page ${number + 1}: ${JSON.stringify(res.body)}`);
      ids.push(...res.body.data.map((d: { id: string }) => d.id));
      number = res.body.meta.page.number;
      total = res.body.meta.page.total;
      totalResults = res.body.meta.totalResults;
    } while (number < total);
    return { ids, totalResults, requests };
  }

  it("lets the vendor node's Return All loop collect every intent and scoop result, each once", async () => {
    for (const [path, body] of [
      [
        "/data/v1/intent/search",
        doc("IntentSearch", { topics: ["Cloud Security", "CRM Software", "Machine Learning", "Generative AI", "Zero Trust", "SEO", "Java", "Node.js"] }),
      ],
      ["/data/v1/scoops/search", doc("ScoopSearch", {})],
    ] as [Path, object][]) {
      const { ids, totalResults, requests } = await returnAll(path, body);
      assert.ok(totalResults > 100, `${path}: only ${totalResults}`);
      assert.equal(ids.length, totalResults, path);
      assert.equal(new Set(ids).size, totalResults, path);
      assert.equal(requests, Math.ceil(totalResults / 100), `${path}: no request past the last page`);
    }
  });
});
