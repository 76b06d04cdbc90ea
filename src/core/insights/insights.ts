// Insights for a list of companies (docs/signals.md, Insights): ids as given, websites and names
// found first through the enrichment pipeline's match (its resolver and match cache), every
// company once, the ones not cached for this type set asked 50 a request on the one bulk run
// (core/run), with progress and cancel, and kept until they expire (cache.ts). Insights are free:
// nothing is estimated or counted. The answer is one item per insight, newest first, with the
// company as the user named it, and the inputs no company was found for.
import type { InsightOperations } from "../api/insightTypes.js";
import { INSIGHTS_MAX_COMPANIES, type Insight, type InsightType } from "../contract/index.js";
import { cellContent, parseRecordId, type CacheStore, type EnrichmentEngine } from "../enrich/index.js";
import { runBulk, type BulkProgress } from "../run/index.js";
import { InsightCache, insightKey } from "./cache.js";
import { byNewest, type CompanyInsight } from "./rows.js";

export interface InsightsOptions {
  client: InsightOperations;
  /** The enrichment pipeline's persistent store (the signed-in user's, asked each time). */
  cache: () => CacheStore;
  now: () => number;
  /** The pipeline's match, for companies given by website or name. */
  match?: EnrichmentEngine["match"];
}

export interface InsightAsk {
  /** Cells: company ids, websites or names (blanks skipped). */
  companies: readonly unknown[];
  /** The types asked (none: every type). */
  types: readonly InsightType[];
  signal?: AbortSignal;
  onProgress?: (progress: BulkProgress) => void;
  /** Ask the service again even where the cache holds them (a refresh of the day's insights). */
  refresh?: boolean;
}

export interface InsightsResult {
  items: CompanyInsight[];
  /** Inputs no company was found for, with why. */
  misses: { input: string; message: string }[];
  /** Distinct companies asked about. */
  companies: number;
  /** Requests sent. */
  requests: number;
  cancelled: boolean;
  /** Why some companies' insights could not be read (the first refusal), when any. */
  failure?: unknown;
}

interface Resolved {
  /** Each company once, with the label it was first given by. */
  companies: Map<number, string>;
  misses: InsightsResult["misses"];
}

async function resolve(values: readonly unknown[], match: InsightsOptions["match"]): Promise<Resolved> {
  const companies = new Map<number, string>();
  const misses: InsightsResult["misses"] = [];
  const toMatch: string[] = [];
  for (const value of values) {
    const content = cellContent(value);
    if (content === undefined) continue;
    const id = parseRecordId(value);
    if (id !== undefined) {
      if (!companies.has(id)) companies.set(id, String(id));
    } else if (content === "website" || content === "name") toMatch.push(String(value).trim());
    else misses.push({ input: String(value), message: "not a company id, website or name" });
  }
  const found = await Promise.all(
    [...new Set(toMatch)].map(async (input) => ({
      input,
      result: match
        ? await match({ kind: "company", criteria: cellContent(input) === "website" ? { website: input } : { name: input } })
        : ({ ok: false, problem: { message: "companies are matched by id only here" } } as const),
    })),
  );
  for (const { input, result } of found) {
    if (result.ok) {
      if (!companies.has(result.id)) companies.set(result.id, input);
    } else misses.push({ input, message: result.problem.message });
  }
  return { companies, misses };
}

/** Each company's insights in one answer, in the order of the ids asked. */
function perCompany(ids: readonly number[], insights: readonly Insight[]): Insight[][] {
  return ids.map((id) => insights.filter((insight) => insight.ziCompanyId === id));
}

export interface Insights {
  forCompanies(ask: InsightAsk): Promise<InsightsResult>;
}

export function createInsights(options: InsightsOptions): Insights {
  const cache = new InsightCache(options.cache, options.now);
  return {
    async forCompanies(ask) {
      const { companies, misses } = await resolve(ask.companies, options.match);
      const ids = [...companies.keys()];
      const keyOf = (id: number) => insightKey(id, ask.types);
      const known = ask.refresh ? new Map<string, Insight[]>() : await cache.fresh(ids.map(keyOf));
      const toAsk = ids.filter((id) => !known.has(keyOf(id)));
      const run = await runBulk(toAsk, async (batch, call) => perCompany(batch.items, await options.client.companyInsights(batch.items, ask.types, call)), {
        cap: INSIGHTS_MAX_COMPANIES,
        ...(ask.signal ? { signal: ask.signal } : {}),
        ...(ask.onProgress ? { onProgress: ask.onProgress } : {}),
      });
      const fetched: [string, Insight[]][] = [];
      let failure: unknown;
      run.outcomes.forEach((outcome, i) => {
        if (outcome.status === "done") fetched.push([keyOf(toAsk[i]!), outcome.value]);
        else if (outcome.status === "refused") failure ??= outcome.reason;
      });
      await cache.put(fetched);
      for (const [key, insights] of fetched) known.set(key, insights);
      const items = ids.flatMap((id) => (known.get(keyOf(id)) ?? []).map((insight) => ({ company: companies.get(id)!, insight })));
      return {
        items: items.sort(byNewest),
        misses,
        companies: ids.length,
        requests: run.requests,
        cancelled: run.cancelled,
        ...(failure !== undefined ? { failure } : {}),
      };
    },
  };
}

/** The signal ids of these insights (what a list has seen, for the next refresh's "New"). */
export const seenIds = (items: readonly CompanyInsight[]): string[] => [...new Set(items.map((item) => item.insight.signalId))];

/** Whether an insight is new: not among those seen in the previous refresh (a first refresh has seen none: every insight is new). */
export function isNewSince(seen: readonly string[] | undefined): (insight: Insight) => boolean {
  const before = new Set(seen ?? []);
  return (insight) => seen === undefined || !before.has(insight.signalId);
}
