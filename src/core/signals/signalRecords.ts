// Signals as records of a company, for the enrichment pipeline: one request of a signal kind
// takes company ids and the fields wanted, and answers one record per company.
//   intent        fields are topics; a topic's value is the company's score (0: not signalling).
//                 A request is the intent plan (per-company enrich or the search joined locally).
//   scoops        field "scoops": the company's scoops, newest first, as records (date,
//                 headline, types); cells count them in a window or read the latest, by type,
//                 without asking again.
//   news          field "news": the company's articles, newest first (date, headline, url, categories).
//   technologies  field "technologies": the installed products (product, vendor, category, parent).
// The lists are cached as these records (the engine's getRecords hands them to the cells as held).
import { systemClock } from "../api/clock.js";
import type { Clock, RequestPriority, ServiceClient } from "../api/types.js";
import { MAX_TOPICS, type SignalRecordKind } from "../contract/index.js";
import { intentScore, latestNews, latestScoop, scoopCount, technologiesInCategory, usesTechnology } from "./values.js";
import { prepareIntentPlan } from "./intentPlan.js";
import { SCOOP_BATCH, scoopsForCompanies } from "./scoopBatches.js";
import { runAll } from "../run/index.js";
import type { NewsItem, ScoopItem, TechnologiesItem } from "../contract/index.js";

/** The signal kinds are the contract's one list (SIGNAL_RECORD_KINDS). */
type SignalKind = SignalRecordKind;

export type SignalClient = Pick<ServiceClient, "searchIntent" | "enrichIntent" | "enrichScoops" | "enrichNews" | "enrichTechnologies">;

/** Companies one request takes: the intent plan wants the whole list; scoops go 25 a request. */
export const SIGNAL_MAX_INPUTS: Record<SignalKind, number> = { intent: 10_000, scoops: SCOOP_BATCH, news: 1, technologies: 1 };
/** The one field of the list kinds. */
export const LIST_FIELD = { scoops: "scoops", news: "news", technologies: "technologies" } as const;

/** A scoop as the record cache holds it. */
export interface ScoopRecord {
  date: string;
  headline: string;
  types: string[];
}
/** An article as the record cache holds it. */
export interface NewsRecord {
  date: string;
  headline: string;
  url: string;
  categories: string[];
}
/** An installed product as the record cache holds it. */
export interface TechnologyRecord {
  product: string;
  vendor: string;
  category: string;
  categoryParent: string;
}

const scoopRecord = (s: ScoopItem): ScoopRecord => ({
  date: s.attributes.publishedDate,
  headline: s.attributes.linkText ?? s.attributes.description ?? "",
  types: s.attributes.types ?? [],
});
const newsRecord = (n: NewsItem): NewsRecord => ({
  date: n.attributes.pageDate,
  headline: n.attributes.title,
  url: n.attributes.url,
  categories: n.attributes.categories ?? [],
});
const technologyRecord = (t: TechnologiesItem): TechnologyRecord => ({
  product: t.attributes.product,
  vendor: t.attributes.vendor ?? "",
  category: t.attributes.category,
  categoryParent: t.attributes.categoryParent ?? "",
});

/**
 * One request of a kind (the plan for intent): each company's record with the fields asked.
 * Topics beyond 50 are asked in groups of 50 (the service's limit per request).
 */
export async function fetchSignalRecords(
  client: SignalClient,
  kind: SignalKind,
  companyIds: readonly number[],
  fields: readonly string[],
  options: { signal?: AbortSignal; priority?: RequestPriority; clock?: Pick<Clock, "now"> } = {},
): Promise<Map<number, Record<string, unknown>>> {
  const records = await fetchLists(client, kind, companyIds, fields, options);
  // The readable fields come with every answer (one request yields them all).
  if (kind !== "intent") for (const record of records.values()) Object.assign(record, readableFields(kind, record[kind], (options.clock ?? systemClock).now()));
  return records;
}

/** The readable fields of a list record (Enrich selection's columns). */
function readableFields(kind: Exclude<SignalKind, "intent">, list: unknown, now: number): Record<string, unknown> {
  if (kind === "scoops") {
    const scoops = asScoops(list);
    const latest = scoops[0]?.attributes;
    return {
      latestScoop: latest?.linkText ?? "",
      latestScoopDate: latest?.publishedDate ?? "",
      latestScoopTypes: (latest?.types ?? []).join(", "),
      scoops90: scoopCount(scoops, { days: 90, now }),
      scoops365: scoopCount(scoops, { days: 365, now }),
    };
  }
  if (kind === "news") {
    const latest = latestNews(asNews(list));
    return { latestNews: latest?.headline ?? "", latestNewsDate: latest?.date ?? "", latestNewsUrl: latest?.url ?? "" };
  }
  const tech = asTech(list).map((t) => t.attributes);
  return {
    technologyProducts: tech
      .map((t) => t.product)
      .sort()
      .join(", "),
    technologyCategories: [...new Set(tech.map((t) => t.category))].sort().join(", "),
  };
}

async function fetchLists(
  client: SignalClient,
  kind: SignalKind,
  companyIds: readonly number[],
  fields: readonly string[],
  options: { signal?: AbortSignal; priority?: RequestPriority },
): Promise<Map<number, Record<string, unknown>>> {
  const out = new Map<number, Record<string, unknown>>(companyIds.map((id) => [id, {}]));
  const signal = { ...(options.signal ? { signal: options.signal } : {}), ...(options.priority ? { priority: options.priority } : {}) };
  if (kind === "intent") {
    const topics = [...new Set(fields)];
    for (let i = 0; i < topics.length; i += MAX_TOPICS) {
      const group = topics.slice(i, i + MAX_TOPICS);
      const plan = await prepareIntentPlan(client, { companyIds, topics: group, ...signal });
      const signals = await plan.run();
      for (const id of companyIds) {
        const record = out.get(id)!;
        for (const topic of group) record[topic] = intentScore(signals.get(id) ?? [], topic);
      }
    }
    return out;
  }
  if (kind === "scoops") {
    const scoops = await scoopsForCompanies(client, companyIds, {}, signal);
    for (const id of companyIds) out.get(id)!.scoops = (scoops.get(id) ?? []).map(scoopRecord);
    return out;
  }
  // News and technologies answer one company a request: one request each, on the one bulk run.
  const lists = await runAll(
    companyIds,
    async ({ items: [id] }, call): Promise<object[][]> =>
      kind === "news"
        ? [(await client.enrichNews({ companyId: String(id) }, call)).map(newsRecord)]
        : [(await client.enrichTechnologies(id as number, call)).map(technologyRecord)],
    { cap: 1, ...(options.signal ? { signal: options.signal } : {}), priority: options.priority ?? "interactive" },
  );
  companyIds.forEach((id, i) => (out.get(id)![kind] = lists[i] ?? []));
  return out;
}

/** A cached list's records (anything else, e.g. a damaged entry, is an empty list). */
const recordsOf = <T>(list: unknown, isRecord: (r: Record<string, unknown>) => boolean): T[] =>
  Array.isArray(list) ? (list.filter((r) => typeof r === "object" && r !== null && isRecord(r as Record<string, unknown>)) as T[]) : [];
const texts = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

// The cached records as the shapes values.ts reads (only the fields it needs).
const asScoops = (list: unknown) =>
  recordsOf<ScoopRecord>(list, (r) => typeof r.date === "string").map(
    (s) =>
      ({
        id: "",
        type: "Scoop",
        attributes: { id: "", publishedDate: s.date, linkText: String(s.headline ?? ""), types: texts(s.types), company: { id: 0 } },
      }) as ScoopItem,
  );
const asNews = (list: unknown) =>
  recordsOf<NewsRecord>(list, (r) => typeof r.date === "string").map(
    (n) =>
      ({
        id: "",
        type: "News",
        attributes: { title: String(n.headline ?? ""), url: String(n.url ?? ""), pageDate: n.date, categories: texts(n.categories) },
      }) as NewsItem,
  );
const asTech = (list: unknown) =>
  recordsOf<TechnologyRecord>(list, (r) => typeof r.product === "string").map(
    (t) =>
      ({
        id: "",
        type: "Technology",
        attributes: { product: t.product, vendor: String(t.vendor ?? ""), category: String(t.category ?? ""), categoryParent: String(t.categoryParent ?? "") },
      }) as TechnologiesItem,
  );

/** What the signal cells show, from a company's cached record. */
export const signalCellValues = {
  scoopCount: (record: unknown, options: { type?: string; days?: number; now: number }) => scoopCount(asScoops(record), options),
  latestScoop: (record: unknown, type?: string) => latestScoop(asScoops(record), type),
  latestNews: (record: unknown, category?: string) => latestNews(asNews(record), category),
  usesTechnology: (record: unknown, product: string) => usesTechnology(asTech(record), product),
  technologiesInCategory: (record: unknown, category: string) => technologiesInCategory(asTech(record), category),
};
