// A signal search into a table, on the import machinery of company search (core/search): the
// first page tells the total and is written, not asked again; a total beyond one search's reach
// is split into disjoint parts on the company size ranges the intent and scoop searches accept
// (news search has none, so it stops at what one search reaches and says so); pages are fetched
// as bulk requests (the client's one retry policy gives them a page's patience, behind a person's
// cells) and written in order, ids never twice.
import type { SearchPage, ServiceClient } from "../api/types.js";
import { LIMITS } from "../contract/index.js";
import { allPages, importPages, planPartition, SEARCH_REACH, type FetchedPage, type ImportResult, type PartitionPlan, type PageKey } from "../search/index.js";
import type { SignalSearchFamily, SignalSearchItem } from "./columns.js";

export type SignalSearchClient = Pick<ServiceClient, "searchIntent" | "searchScoops" | "searchNews">;
type Filters = Record<string, unknown>;

/** Which families can be split: their searches take the company size filters. */
export const SPLITTABLE: Record<SignalSearchFamily, boolean> = { intent: true, scoops: true, news: false };

export function signalPageFetcher(client: SignalSearchClient, family: SignalSearchFamily, sort: string | undefined) {
  return (filters: Filters, page: number, size: number, signal?: AbortSignal): Promise<SearchPage<SignalSearchItem>> => {
    const options = { page, size, priority: "bulk" as const, ...(sort ? { sort } : {}), ...(signal ? { signal } : {}) };
    // Filters come from the form, checked against the family's schema before sending.
    if (family === "intent") return client.searchIntent(filters as Parameters<SignalSearchClient["searchIntent"]>[0], options);
    if (family === "scoops") return client.searchScoops(filters as Parameters<SignalSearchClient["searchScoops"]>[0], options);
    return client.searchNews(filters as Parameters<SignalSearchClient["searchNews"]>[0], options);
  };
}

export interface SignalImportRequest {
  client: SignalSearchClient;
  family: SignalSearchFamily;
  filters: Filters;
  sort?: string;
  signal?: AbortSignal;
  /** Results one search reaches (tests make it small). */
  reach?: number;
  pageSize?: number;
  /**
   * Asked, above one search's reach, before any page after the first is fetched: the plan (its
   * parts; one unsplittable part for news, which stops at the reach) and the rows it writes.
   * False imports nothing more. Without it, the import goes on.
   */
  confirmPlan?(plan: PartitionPlan, rows: number): Promise<boolean>;
  /** Told the plan before any page after the first is fetched (to size the table). */
  onPlan?(plan: PartitionPlan, rows: number): Promise<void>;
  deliver(items: SignalSearchItem[], key: PageKey): Promise<void>;
  onPage?(pagesDone: number, pagesTotal: number): void;
}

export interface SignalImportOutcome {
  plan: PartitionPlan;
  /** Absent when the user declined the plan (nothing was imported). */
  result?: ImportResult;
  declined?: boolean;
}

export async function importSignalSearch(request: SignalImportRequest): Promise<SignalImportOutcome> {
  const pageSize = request.pageSize ?? LIMITS.maxPageSize;
  const reach = request.reach ?? SEARCH_REACH;
  const fetchPage = signalPageFetcher(request.client, request.family, request.sort);
  const first = await fetchPage(request.filters, 1, pageSize, request.signal);
  const sort = request.sort ? { sort: request.sort } : {};
  const whole: PartitionPlan = {
    kind: "company",
    ...sort,
    total: first.totalResults,
    parts: [{ filters: request.filters, count: first.totalResults, bounds: [], unsplittable: first.totalResults > reach && !SPLITTABLE[request.family] }],
    probes: 0,
    reachable: Math.min(first.totalResults, reach),
  };
  const split = first.totalResults > reach && SPLITTABLE[request.family];
  const plan = split
    ? await planPartition({
        kind: "company",
        filters: request.filters,
        ...sort,
        total: first.totalResults,
        reach,
        ...(request.signal ? { signal: request.signal } : {}),
        count: async (f, s) => (await fetchPage(f, 1, 1, s)).totalResults,
      })
    : whole;
  const rows = plan.parts.reduce((sum, p) => sum + Math.min(p.count, reach), 0);
  if (plan.total > reach && request.confirmPlan && !(await request.confirmPlan(plan, rows))) return { plan, declined: true };
  await request.onPlan?.(plan, rows);
  const prefetched = split ? new Map<string, FetchedPage<SignalSearchItem>>() : new Map([["0:1", first]]);
  const result = await importPages<SignalSearchItem>({
    parts: plan.parts.map((p) => ({ filters: p.filters, count: p.count })),
    // The pages one search reaches in each part (what `rows` counted).
    pages: allPages(
      plan.parts.map((p) => ({ count: Math.min(p.count, reach) })),
      pageSize,
    ),
    pageSize,
    fetch: fetchPage,
    prefetched,
    idOf: (item) => item.id,
    deliver: request.deliver,
    ...(request.signal ? { signal: request.signal } : {}),
    onPage: ({ pagesDone, pagesTotal }) => request.onPage?.(pagesDone, pagesTotal),
  });
  return { plan, result };
}
