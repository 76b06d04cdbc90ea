// What signal cells show, from the answers and from the cached records they become.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { IntentItem, NewsItem, ScoopItem, TechnologiesItem } from "../../../src/core/contract/index.js";
import { createEnrichmentEngine, MemoryCacheStore } from "../../../src/core/enrich/index.js";
import { fetchSignalRecords, intentScore, signalCellValues, strongestTopics, type SignalClient } from "../../../src/core/signals/index.js";

const intent = (company: number, topic: string, score: number): IntentItem => ({
  id: `${company}-${topic}`,
  type: "Intent",
  attributes: { category: "C", topic, signalScore: score, audienceStrength: "B", signalDate: "2026-06-01", company: { id: company } },
});
const scoop = (company: number, date: string, headline: string, types: string[]): ScoopItem => ({
  id: `${company}-${date}`,
  type: "Scoop",
  attributes: { id: `${company}-${date}`, publishedDate: date, linkText: headline, types, company: { id: company } },
});
const news = (date: string, title: string): NewsItem => ({
  id: title,
  type: "News",
  attributes: { title, url: `https://news.example/${date}`, pageDate: date, categories: ["Funding"] },
});
const tech = (product: string, category: string, vendor: string): TechnologiesItem => ({
  id: product,
  type: "Technology",
  attributes: { product, category, vendor, categoryParent: "Parent" },
});

const NOW = Date.parse("2026-06-15T12:00:00Z");

describe("signal values", () => {
  it("scores a topic (0 when not signalling) and names the strongest topics", () => {
    const items = [intent(1, "Cloud Security", 71), intent(1, "Machine Learning", 93), intent(1, "CRM Software", 80)];
    assert.equal(intentScore(items, "cloud security"), 71);
    assert.equal(intentScore(items, "Zero Trust"), 0);
    assert.equal(strongestTopics(items, 2), "Machine Learning (93), CRM Software (80)");
  });

  it("turns answers into cached records, and cells read them without asking again", async () => {
    const calls: string[] = [];
    const client: SignalClient = {
      searchIntent: async () => {
        calls.push("intent search");
        return { items: [intent(1, "Cloud Security", 88)], totalResults: 1, pageNumber: 1, totalPages: 1, links: {} };
      },
      enrichIntent: async (input) => {
        calls.push(`intent ${String(input.companyId)}`);
        return [];
      },
      enrichScoops: async (input) => {
        calls.push(`scoops ${String(input.companyId)}`);
        return [
          scoop(1, "2026-06-10", "Acme raises a round", ["Funding"]),
          scoop(1, "2026-01-05", "Acme hires a CFO", ["Executive Move - Hire"]),
          scoop(2, "2026-05-01", "Beta opens an office", ["Expansion - New Location"]),
        ];
      },
      enrichNews: async () => [news("2026-05-01", "Older"), news("2026-06-01", "Newer")],
      enrichTechnologies: async () => [tech("Snowflake", "Data Warehousing", "Snowflake"), tech("Tableau", "Business Intelligence", "Salesforce")],
    };
    const intents = await fetchSignalRecords(client, "intent", [1, 2], ["Cloud Security"]);
    assert.deepEqual(intents.get(1), { "Cloud Security": 88 });
    assert.deepEqual(intents.get(2), { "Cloud Security": 0 });
    assert.deepEqual(calls, ["intent search"]);

    const scoops = await fetchSignalRecords(client, "scoops", [1, 2], ["scoops"], { clock: { now: () => NOW } });
    assert.deepEqual(calls.slice(1), ["scoops 1,2"]);
    // The readable counts are taken on the clock given: 90 days back from NOW reaches one of Acme's two.
    assert.equal(scoops.get(1)!.scoops90, 1);
    assert.equal(scoops.get(1)!.scoops365, 2);
    const acme = scoops.get(1)!.scoops;
    assert.equal(signalCellValues.scoopCount(acme, { now: NOW, days: 30 }), 1);
    assert.equal(signalCellValues.scoopCount(acme, { now: NOW, days: 365 }), 2);
    assert.equal(signalCellValues.scoopCount(acme, { now: NOW, days: 365, type: "hire" }), 1);
    assert.deepEqual(signalCellValues.latestScoop(acme), { headline: "Acme raises a round", date: "2026-06-10" });
    assert.deepEqual(signalCellValues.latestScoop(acme, "Executive Move - Hire"), { headline: "Acme hires a CFO", date: "2026-01-05" });
    assert.equal(signalCellValues.latestScoop(scoops.get(2)!.scoops, "funding"), undefined);

    const articles = (await fetchSignalRecords(client, "news", [1], ["news"])).get(1)!.news;
    assert.equal(signalCellValues.latestNews(articles)?.headline, "Newer");
    const stack = (await fetchSignalRecords(client, "technologies", [1], ["technologies"])).get(1)!.technologies;
    assert.equal(signalCellValues.usesTechnology(stack, "snowflake"), true);
    assert.equal(signalCellValues.usesTechnology(stack, "Salesforce Tableau"), true);
    assert.equal(signalCellValues.usesTechnology(stack, "Power BI"), false);
    assert.equal(signalCellValues.technologiesInCategory(stack, "Business Intelligence"), "Tableau");
  });
});

describe("signal lists in the record cache", () => {
  const SCOOPS = [scoop(7, "2026-06-10", "Acme raises a round", ["Funding"]), scoop(7, "2026-01-05", "Acme hires a CFO", ["Executive Move - Hire"])];
  const scoopClient = (calls: string[]) => ({
    enrichBatch: async () => [],
    searchIntent: async () => ({ items: [], totalResults: 0, pageNumber: 1, totalPages: 0, links: {} }),
    enrichIntent: async () => [],
    enrichNews: async () => [],
    enrichTechnologies: async () => [],
    enrichScoops: async (input: { companyId?: string }) => {
      calls.push(`scoops ${String(input.companyId)}`);
      return SCOOPS;
    },
  });

  it("are held as records, in memory and in the store (versioned), and handed to the cells as held", async () => {
    const calls: string[] = [];
    const store = new MemoryCacheStore();
    const engine = createEnrichmentEngine({ client: scoopClient(calls), cache: store, windowMs: 1, clock: { now: () => NOW } });
    const result = await engine.getRecords("scoops", 7, "scoops");
    assert.deepEqual(result, {
      ok: true,
      fields: ["scoops"],
      values: [
        [
          { date: "2026-06-10", headline: "Acme raises a round", types: ["Funding"] },
          { date: "2026-01-05", headline: "Acme hires a CFO", types: ["Executive Move - Hire"] },
        ],
      ],
    });
    await engine.whenIdle();
    const stored = JSON.parse(store.entries.get("biz-enrich:v1:scoops:7")!) as { format: number; fields: { scoops: [unknown, number] } };
    assert.equal(stored.format, 2);
    assert.deepEqual(stored.fields.scoops[0], (result as { values: unknown[] }).values[0]);
    assert.equal(signalCellValues.scoopCount((result as { values: unknown[] }).values[0], { now: NOW, days: 365, type: "hire" }), 1);
  });

  it("drop an entry of the old format (lists as compact JSON text) cleanly: it is fetched again and replaced, not misread", async () => {
    const calls: string[] = [];
    const store = new MemoryCacheStore();
    const old = JSON.stringify({ fields: { scoops: ['[{"d":"2026-06-10","h":"Old","t":["Funding"]}]', NOW] } });
    store.entries.set("biz-enrich:v1:scoops:7", old);
    const engine = createEnrichmentEngine({ client: scoopClient(calls), cache: store, windowMs: 1, clock: { now: () => NOW } });
    const result = await engine.getRecords("scoops", 7, "scoops");
    assert.deepEqual(calls, ["scoops 7"], "the old entry is a miss");
    assert.equal(signalCellValues.latestScoop(result.ok ? result.values[0] : undefined)?.headline, "Acme raises a round");
    await engine.whenIdle();
    assert.equal((JSON.parse(store.entries.get("biz-enrich:v1:scoops:7")!) as { format: number }).format, 2, "replaced in the new format");
  });
});
