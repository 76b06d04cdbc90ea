// Prepares an import: the first page (full size) tells the total; a total beyond one search's
// reach is partitioned. The first page is kept, so a search within reach costs no extra request.
import type { ServiceClient, SearchPage } from "../api/index.js";
import { LIMITS, type CompanyItem, type ContactItem } from "../contract/index.js";
import type { FetchedPage } from "./importer.js";
import { planPartition, SEARCH_REACH, type Filters, type PartitionPlan, type SearchKind } from "./partition.js";

export type SearchClient = Pick<ServiceClient, "searchCompanies" | "searchContacts">;
export type Item = CompanyItem | ContactItem;

interface PreparedImport {
  plan: PartitionPlan;
  /** Pages already fetched, keyed "part:page". */
  prefetched: Map<string, FetchedPage<Item>>;
}

/** One page of a sub-search, through the client's public search operations: bulk work, behind a person's cells. */
export function pageFetcher(client: SearchClient, kind: SearchKind, sort: string | undefined) {
  return async (filters: Filters, page: number, size: number, signal?: AbortSignal): Promise<SearchPage<Item>> => {
    const options = { page, size, priority: "bulk" as const, ...(sort ? { sort } : {}), ...(signal ? { signal } : {}) };
    return kind === "company" ? client.searchCompanies(filters, options) : client.searchContacts(filters, options);
  };
}

export async function prepareImport(
  client: SearchClient,
  search: { kind: SearchKind; filters: Filters; sort?: string },
  options: { pageSize?: number; signal?: AbortSignal; reach?: number },
): Promise<PreparedImport> {
  const pageSize = options.pageSize ?? LIMITS.maxPageSize;
  const reach = options.reach ?? SEARCH_REACH;
  // The first page and the count probes are bulk requests too: the client's retry policy gives them a page's patience.
  const fetchPage = pageFetcher(client, search.kind, search.sort);
  const first = await fetchPage(search.filters, 1, pageSize, options.signal);
  const sort = search.sort ? { sort: search.sort } : {};
  if (first.totalResults <= reach) {
    const plan: PartitionPlan = {
      kind: search.kind,
      ...sort,
      total: first.totalResults,
      parts: [{ filters: search.filters, count: first.totalResults, bounds: [], unsplittable: false }],
      probes: 0,
      reachable: first.totalResults,
    };
    return { plan, prefetched: new Map([["0:1", first]]) };
  }
  const plan = await planPartition({
    kind: search.kind,
    filters: search.filters,
    ...sort,
    total: first.totalResults,
    reach,
    ...(options.signal ? { signal: options.signal } : {}),
    count: async (filters, signal) => (await fetchPage(filters, 1, 1, signal)).totalResults,
  });
  return { plan, prefetched: new Map() };
}
