// The client against the service's own published signal examples (test/fixtures/vendor): each
// example request goes out as the service's request schema allows, each example answer is
// accepted, and what a cell or a table shows is read from it (type names, not objects; ids as ids;
// dates as dates).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ServiceClient } from "../../src/core/api/index.js";
import { flattenSignal, intentScore, latestNews, latestScoop, scoopCount, strongestTopics, usesTechnology } from "../../src/core/signals/index.js";
import { harness } from "../core/api/harness.js";
import { answer, type RecordedRequest } from "../core/api/scripted.js";
import { requestErrors, vendorOperation } from "./oracle.js";

type Attributes = Record<string, unknown>;

/** The signal operations the add-in uses: the vendor's operationId and how the client calls it. */
const OPERATIONS = {
  intentSearch: { id: "SearchInterface_searchIntent", call: (c: ServiceClient, a: Attributes) => c.searchIntent(a as never).then((p) => p.items) },
  intentEnrich: { id: "EnrichInterface_enrichIntent", call: (c: ServiceClient, a: Attributes) => c.enrichIntent(a as never) },
  scoopSearch: { id: "SearchInterface_searchScoop", call: (c: ServiceClient, a: Attributes) => c.searchScoops(a as never).then((p) => p.items) },
  scoopEnrich: { id: "EnrichInterface_enrichScoop", call: (c: ServiceClient, a: Attributes) => c.enrichScoops(a as never) },
  newsSearch: { id: "SearchInterface_searchNews", call: (c: ServiceClient, a: Attributes) => c.searchNews(a as never).then((p) => p.items) },
  newsEnrich: { id: "EnrichInterface_enrichNews", call: (c: ServiceClient, a: Attributes) => c.enrichNews(a as never) },
  technologiesEnrich: { id: "EnrichInterface_enrichTechnology", call: (c: ServiceClient, a: Attributes) => c.enrichTechnologies(Number(a.companyId)) },
} as const;
type Operation = keyof typeof OPERATIONS;

function example(operation: Operation): { request: Attributes; answer: unknown } {
  const op = vendorOperation("data", OPERATIONS[operation].id);
  const request = op.requestExamples[0]?.value as { data: { attributes: Attributes } } | undefined;
  assert.ok(request && op.responseExamples[0], `${operation}: the fixture has its examples`);
  return { request: request.data.attributes, answer: op.responseExamples[0].value };
}

/** Sends the vendor's example request through the client; the transport answers the vendor's example answer. */
async function replay(operation: Operation): Promise<{ items: { id: string; attributes: Attributes }[]; sent: RecordedRequest[] }> {
  const { request, answer: published } = example(operation);
  const { client, requests } = harness(() => answer(200, published));
  const items = (await OPERATIONS[operation].call(client, request)) as { id: string; attributes: Attributes }[];
  return { items, sent: requests };
}

describe("the client on the service's published signal examples", () => {
  for (const operation of Object.keys(OPERATIONS) as Operation[]) {
    it(`${operation}: sends the example request as the service's schema takes it, and reads the example answer`, async () => {
      const { items, sent } = await replay(operation);
      assert.ok(sent.length >= 1);
      for (const request of sent)
        assert.deepEqual(requestErrors("data", OPERATIONS[operation].id, request.body), [], `${operation}: ${JSON.stringify(request.body)}`);
      assert.ok(items.length > 0, `${operation}: read nothing`);
    });
  }

  it("sends the example's own values: news categories as a list, strengths C to A, an integer company id", async () => {
    const sentBody = async (operation: Operation) => (await replay(operation)).sent[0]!.body as { data: { type: string; attributes: Attributes } };
    assert.deepEqual((await sentBody("newsEnrich")).data.attributes, example("newsEnrich").request);
    assert.deepEqual((await sentBody("intentSearch")).data.attributes, example("intentSearch").request);
    assert.deepEqual((await sentBody("technologiesEnrich")).data, { type: "TechnologyEnrich", attributes: { companyId: 344589814 } });
  });

  it("reads an intent signal without a company, its contacts' string ids as numbers and its date-time as a date", async () => {
    const { items } = await replay("intentSearch");
    const signal = items[0]!.attributes;
    assert.equal(signal.company, undefined);
    assert.equal(signal.signalDate, "2025-05-24");
    assert.deepEqual(
      (signal.recommendedContacts as { id: number }[]).map((c) => c.id),
      [4191419698, 1260398587],
    );
    const row = flattenSignal("intent", items[0] as never).attributes;
    assert.equal(row.recommendedContacts, "Filip Popovic (Chief Technology Officer); John Doe (Software Engineer)");
    assert.equal(row.companyId, undefined);
  });

  it("reads intent enrich: the company's string id, job functions as names, the score a cell shows", async () => {
    const { items } = await replay("intentEnrich");
    const signal = items[0]!.attributes as { company: { id: number; website: string }; recommendedContacts: { jobFunctions: string[] }[] };
    assert.equal(signal.company.id, 344589814);
    assert.equal(signal.company.website, "www.zoominfo.com");
    assert.deepEqual(signal.recommendedContacts[0]!.jobFunctions, ["Information Technology"]);
    assert.equal(intentScore(items as never, "node.js"), 97);
    assert.equal(strongestTopics(items as never, 1), "Node.js (97)");
  });

  it("reads scoops: type and topic names from their objects, the headline and date a cell shows", async () => {
    for (const operation of ["scoopSearch", "scoopEnrich"] as const) {
      const { items } = await replay(operation);
      for (const item of items) {
        const a = item.attributes as { types: unknown[]; company: { id: number } };
        assert.ok(
          a.types.every((t) => typeof t === "string"),
          JSON.stringify(a.types),
        );
        assert.equal(a.company.id, 344589814);
      }
    }
    const { items } = await replay("scoopSearch");
    const row = flattenSignal("scoops", items[1] as never).attributes;
    assert.equal(row.types, "Award");
    assert.equal(row.topics, "Award");
    assert.equal(row.companyId, 344589814);
    const latest = latestScoop(items as never, "award");
    assert.deepEqual(latest, {
      headline: "ZoomInfo Datanyze has recently been ranked #986 on the 2019 SaaS 1000 Top SaaS Companies list.",
      date: "2019-02-22",
    });
    assert.equal(scoopCount(items as never, { type: "Award", days: 30, now: Date.parse("2019-03-01T00:00:00Z") }), 3);
    const enriched = await replay("scoopEnrich");
    assert.equal(latestScoop(enriched.items as never, "facilities")?.date, "2020-02-11");
  });

  it("reads news: categories, the article's company id, the date as a date", async () => {
    const { items } = await replay("newsSearch");
    const latest = latestNews(items as never, "product");
    assert.deepEqual(latest, {
      headline: "ZoomInfo Launches New AI Product",
      date: "2024-05-20",
      url: "https://www.techcrunch.com/articles/zoominfo-launch-ai-product",
    });
    const row = flattenSignal("news", items[0] as never).attributes;
    assert.equal(row.companyId, "344589814");
    assert.equal(row.categories, "PRODUCT");
  });

  it("reads technologies: the product a cell asks about and its dotted attribute tag", async () => {
    const { items } = await replay("technologiesEnrich");
    assert.equal(items[0]!.attributes.attribute, "333.198.20393979");
    assert.equal(usesTechnology(items as never, "jupyter"), true);
    assert.equal(items[0]!.attributes.createdDate, "2016-07-16");
  });
});
