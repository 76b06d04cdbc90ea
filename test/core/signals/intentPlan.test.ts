// The intent plan's choice at the service's reach: a search of exactly 100 pages (10,000 results)
// can be read to its end and wins over more enrich requests; one of 101 pages cannot (the service
// pages no further than 100), so the list is enriched one company a request, and says why.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { IntentItem } from "../../../src/core/contract/index.js";
import { prepareIntentPlan } from "../../../src/core/signals/index.js";
import type { SearchPage } from "../../../src/core/api/index.js";

/** A service whose intent search finds `total` results; enrich answers no signal. */
function intentService(total: number) {
  const calls = { search: 0, enrich: 0 };
  return {
    calls,
    searchIntent: async (): Promise<SearchPage<IntentItem>> => {
      calls.search += 1;
      return { items: [], totalResults: total, pageNumber: 1, totalPages: Math.ceil(total / 100), links: {} };
    },
    enrichIntent: async (): Promise<IntentItem[]> => {
      calls.enrich += 1;
      return [];
    },
  };
}

const companies = Array.from({ length: 500 }, (_, i) => i + 1);

describe("intent plan at the search's reach", () => {
  it("searches when the search has exactly 100 pages", async () => {
    const { plan } = await prepareIntentPlan(intentService(10_000), { companyIds: companies, topics: ["Cloud Security"] });
    assert.equal(plan.kind, "search");
    assert.equal(plan.requests, 100);
  });

  it("enriches one company a request when the search has more than 100 pages, and says why", async () => {
    const service = intentService(10_001);
    const prepared = await prepareIntentPlan(service, { companyIds: companies, topics: ["Cloud Security"] });
    assert.equal(prepared.plan.kind, "enrich");
    assert.equal(prepared.plan.searchRequests, undefined);
    assert.match(prepared.plan.summary, /^Intent enrich: 500 requests, one per company \(the search has more than 100 pages\)\.$/);
    const signals = await prepared.run();
    assert.equal(service.calls.enrich, 500);
    assert.equal(service.calls.search, 1, "only the first page, which told the size");
    assert.equal(signals.size, 500);
  });
});
