// Signals as records of a company, for the enrichment pipeline: one request of a signal kind
// takes company ids and the fields wanted, and answers one record per company.
//   intent        fields are topics; a topic's value is the company's score (0: not signalling).
//                 A request is the intent plan (per-company enrich or the search joined locally).
//   scoops        field "scoops": the company's scoops, newest first, as compact JSON text;
//                 cells count them in a window or read the latest, by type, without asking again.
//   news          field "news": the company's articles, newest first, as compact JSON text.
//   technologies  field "technologies": the installed products, as compact JSON text.
import { systemClock } from "../api/clock.js";
import type { Clock, RequestPriority, ServiceClient } from "../api/types.js";
import { MAX_TOPICS, type SignalRecordKind } from "../contract/index.js";
import { intentScore, latestNews, latestScoop, scoopCount, technologiesInCategory, usesTechnology } from "./values.js";
import { prepareIntentPlan } from "./intentPlan.js";
import { SCOOP_BATCH, scoopsForCompanies } from "./scoopBatches.js";
import type { NewsItem, ScoopItem, TechnologiesItem } from "../contract/index.js";

/** The signal kinds are the contract's one list (SIGNAL_RECORD_KINDS). */
type SignalKind = SignalRecordKind;

export type SignalClient = Pick<ServiceClient, "searchIntent" | "enrichIntent" | "enrichScoops" | "enrichNews" | "enrichTechnologies">;

/** Companies one request takes: the intent plan wants the whole list; scoops go 25 a request. */
export const SIGNAL_MAX_INPUTS: Record<SignalKind, number> = { intent: 10_000, scoops: SCOOP_BATCH, news: 1, technologies: 1 };
/** The one field of the list kinds. */
export const LIST_FIELD = { scoops: "scoops", news: "news", technologies: "technologies" } as const;

interface CompactScoop {
  d: string;
  h: string;
  t: string[];
}
interface CompactNews {
  d: string;
  h: string;
  u: string;
  c: string[];
}
interface CompactTech {
  p: string;
  v: string;
  c: string;
  pc: string;
}

const compactScoop = (s: ScoopItem): CompactScoop => ({
  d: s.attributes.publishedDate,
  h: s.attributes.linkText ?? s.attributes.description ?? "",
  t: s.attributes.types ?? [],
});
const compactNews = (n: NewsItem): CompactNews => ({ d: n.attributes.pageDate, h: n.attributes.title, u: n.attributes.url, c: n.attributes.categories ?? [] });
const compactTech = (t: TechnologiesItem): CompactTech => ({
  p: t.attributes.product,
  v: t.attributes.vendor ?? "",
  c: t.attributes.category,
  pc: t.attributes.categoryParent ?? "",
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
    for (const id of companyIds) out.get(id)!.scoops = JSON.stringify((scoops.get(id) ?? []).map(compactScoop));
    return out;
  }
  await Promise.all(
    companyIds.map(async (id) => {
      if (kind === "news") out.get(id)!.news = JSON.stringify((await client.enrichNews({ companyId: String(id) }, signal)).map(compactNews));
      else out.get(id)!.technologies = JSON.stringify((await client.enrichTechnologies(id, signal)).map(compactTech));
    }),
  );
  return out;
}

const parse = <T>(text: unknown): T[] => {
  if (typeof text !== "string" || text === "") return [];
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
};

// The cached records back as the shapes values.ts reads (only the fields it needs).
const asScoops = (text: unknown) =>
  parse<CompactScoop>(text).map(
    (s) => ({ id: "", type: "Scoop", attributes: { id: "", publishedDate: s.d, linkText: s.h, types: s.t, company: { id: 0 } } }) as ScoopItem,
  );
const asNews = (text: unknown) =>
  parse<CompactNews>(text).map((n) => ({ id: "", type: "News", attributes: { title: n.h, url: n.u, pageDate: n.d, categories: n.c } }) as NewsItem);
const asTech = (text: unknown) =>
  parse<CompactTech>(text).map(
    (t) => ({ id: "", type: "Technology", attributes: { product: t.p, vendor: t.v, category: t.c, categoryParent: t.pc } }) as TechnologiesItem,
  );

/** What the signal cells show, from a company's cached record. */
export const signalCellValues = {
  scoopCount: (record: unknown, options: { type?: string; days?: number; now: number }) => scoopCount(asScoops(record), options),
  latestScoop: (record: unknown, type?: string) => latestScoop(asScoops(record), type),
  latestNews: (record: unknown, category?: string) => latestNews(asNews(record), category),
  usesTechnology: (record: unknown, product: string) => usesTechnology(asTech(record), product),
  technologiesInCategory: (record: unknown, category: string) => technologiesInCategory(asTech(record), category),
};
