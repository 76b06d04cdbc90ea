// The cheapest way to learn N companies' intent on a topic set. Intent enrich asks about one
// company per request; intent search returns every company signalling on the topics, 100 per
// page. The first page of the search (which a search plan needs anyway) tells how many pages
// there are; the plan with fewer requests wins, and says so before the bulk of the work runs.
import type { CompanySearchFilters, IntentItem, IntentSearchFilters } from "../contract/index.js";
import { LIMITS } from "../contract/index.js";
import { iteratePages } from "../api/paging.js";
import type { RequestPriority, SearchPage, ServiceClient } from "../api/types.js";
import { runAll } from "../run/index.js";

type IntentClient = Pick<ServiceClient, "searchIntent" | "enrichIntent">;

/** Signal filters shared by both plans (dates, score, strength). */
export type IntentRanges = Pick<
  IntentSearchFilters,
  "signalStartDate" | "signalEndDate" | "signalScoreMin" | "signalScoreMax" | "audienceStrengthMin" | "audienceStrengthMax"
>;

export interface IntentPlanInput {
  /** The list's company ids (duplicates are asked about once). */
  companyIds: readonly number[];
  topics: readonly string[];
  ranges?: IntentRanges;
  /** What the whole list is known to share (its country, its industries): narrows the search. */
  narrowing?: Pick<CompanySearchFilters, "country" | "industryCodes" | "state" | "continent">;
  signal?: AbortSignal;
  /** Whose wait the requests are: a person's cells (interactive, the default) or bulk work. */
  priority?: RequestPriority;
}

export interface IntentPlan {
  kind: "enrich" | "search";
  /** Requests the chosen plan makes in all (the search's first page included). */
  requests: number;
  /** The two plans' own costs, for the message and the bench. */
  enrichRequests: number;
  searchRequests: number | undefined;
  /** What a person reads before the run. */
  summary: string;
}

export interface PreparedIntentPlan {
  plan: IntentPlan;
  /** Runs the plan: each company's signals on the topics (companies with none map to []). */
  run(): Promise<Map<number, IntentItem[]>>;
}

const SEARCH_PAGE = LIMITS.maxPageSize;
/** Beyond this many pages a search cannot be read to its end (the service's page cap). */
const READABLE_PAGES = LIMITS.maxPageNumber;
/** Pages read ahead (the client still paces and caps every request). */
const SEARCH_WINDOW = 6;

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/**
 * Chooses the plan. A list of one company is enriched at once; a longer list first reads the
 * search's first page (kept, so a search plan does not ask for it again).
 */
export async function prepareIntentPlan(client: IntentClient, input: IntentPlanInput): Promise<PreparedIntentPlan> {
  const ids = [...new Set(input.companyIds)];
  const topics = [...input.topics];
  const signal = { ...(input.signal ? { signal: input.signal } : {}), ...(input.priority ? { priority: input.priority } : {}) };
  // One enrich request per company, on the one bulk run (the client's queue paces them).
  const enrichAll = async (): Promise<Map<number, IntentItem[]>> => {
    const answers = await runAll(
      ids,
      ({ items: [companyId] }, call) =>
        client.enrichIntent({ companyId: companyId as number, topics, ...input.ranges, findRecommendedContacts: false }, call).then((items) => [items]),
      { cap: 1, ...(input.signal ? { signal: input.signal } : {}), priority: input.priority ?? "interactive" },
    );
    return new Map(ids.map((id, i) => [id, answers[i] ?? []]));
  };
  if (ids.length <= 1) {
    const plan: IntentPlan = {
      kind: "enrich",
      requests: ids.length,
      enrichRequests: ids.length,
      searchRequests: undefined,
      summary: `Intent enrich: ${plural(ids.length, "request", "requests")}, one per company.`,
    };
    return { plan, run: enrichAll };
  }
  const filters: IntentSearchFilters = { topics, ...input.ranges, ...input.narrowing, findRecommendedContacts: false };
  const first = await client.searchIntent(filters, { page: 1, size: SEARCH_PAGE, ...signal });
  const pages = Math.max(1, Math.ceil(first.totalResults / SEARCH_PAGE));
  const searchable = pages <= READABLE_PAGES;
  const enrichRequests = 1 + ids.length;
  if (!searchable || pages >= enrichRequests) {
    const why = searchable ? `fewer than the search's ${plural(pages, "page", "pages")}` : `the search has more than ${READABLE_PAGES} pages`;
    const plan: IntentPlan = {
      kind: "enrich",
      requests: enrichRequests,
      enrichRequests: ids.length,
      searchRequests: searchable ? pages : undefined,
      summary: `Intent enrich: ${plural(ids.length, "request", "requests")}, one per company (${why}).`,
    };
    return { plan, run: enrichAll };
  }
  const plan: IntentPlan = {
    kind: "search",
    requests: pages,
    enrichRequests: ids.length,
    searchRequests: pages,
    summary: `Intent search: ${plural(pages, "request", "requests")} (pages of ${SEARCH_PAGE}) instead of ${plural(ids.length, "request", "requests")} one per company.`,
  };
  return { plan, run: () => joinSearch(client, filters, first, ids, signal) };
}

/** Reads the search's pages through the one paging iterator (its first page already in hand). */
async function joinSearch(
  client: IntentClient,
  filters: IntentSearchFilters,
  first: SearchPage<IntentItem>,
  ids: number[],
  options: { signal?: AbortSignal; priority?: RequestPriority },
): Promise<Map<number, IntentItem[]>> {
  const out = new Map<number, IntentItem[]>(ids.map((id) => [id, []]));
  const pages = iteratePages<IntentItem>(
    (n, size, stop) =>
      n === 1
        ? Promise.resolve(first)
        : client.searchIntent(filters, { page: n, size, signal: stop, ...(options.priority ? { priority: options.priority } : {}) }),
    {
      pageSize: SEARCH_PAGE,
      window: SEARCH_WINDOW,
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
  for await (const page of pages) for (const item of page.items) if (item.attributes.company) out.get(item.attributes.company.id)?.push(item);
  return out;
}
