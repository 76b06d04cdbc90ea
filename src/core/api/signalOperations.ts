// Signal operations (docs/signals.md): intent, scoop and news searches (one page, or every page
// through the one paging iterator), their enrich operations (every page of one request's answer)
// and technologies enrich. Bodies and page queries are checked with the contract before sending.
import {
  IntentDocument,
  LIMITS,
  NewsDocument,
  ScoopDocument,
  SIGNAL_PATHS,
  TechnologiesDocument,
  signalBody,
  validateSignalBody,
  validateSignalQuery,
  type IntentItem,
  type NewsItem,
  type ScoopItem,
  type SignalFamily,
  type SignalOperation,
} from "../contract/index.js";
import { queryString, refuse, withSignal, type ClientContext } from "./clientContext.js";
import { iteratePages } from "./paging.js";
import { toSearchPage, type SearchDocLike } from "./searchOperations.js";
import type { IteratedPage, IterateOptions, SearchOptions, SearchPage, ServiceClient } from "./types.js";

type SignalOperations = Pick<ServiceClient, "searchIntent" | "iterateIntent" | "enrichIntent" | "searchScoops" | "iterateScoops" | "enrichScoops" | "searchNews" | "iterateNews" | "enrichNews" | "enrichTechnologies">;


const FAMILY: Record<Exclude<SignalOperation, "technologiesEnrich">, SignalFamily> = {
  intentSearch: "intent",
  intentEnrich: "intent",
  scoopSearch: "scoops",
  scoopEnrich: "scoops",
  newsSearch: "news",
  newsEnrich: "news",
};
const SCHEMA = { intent: IntentDocument, scoops: ScoopDocument, news: NewsDocument } as const;

type Paged = keyof typeof FAMILY;

export function signalOperations(ctx: ClientContext): SignalOperations {
  const bodyOf = (operation: SignalOperation, attributes: object) => {
    const body = signalBody(operation, attributes);
    const issues = validateSignalBody(operation, body);
    if (issues.length > 0) refuse(issues, `POST ${SIGNAL_PATHS[operation]}`);
    return body;
  };

  async function page<T>(operation: Paged, body: unknown, n: number | undefined, size: number | undefined, sort: string | undefined, signal?: AbortSignal): Promise<SearchPage<T>> {
    const path = SIGNAL_PATHS[operation];
    const query = { "page[number]": n === undefined ? undefined : String(n), "page[size]": size === undefined ? undefined : String(size), sort };
    const issues = validateSignalQuery(query, FAMILY[operation]);
    if (issues.length > 0) refuse(issues, `POST ${path}`);
    const doc = await ctx.call(SCHEMA[FAMILY[operation]], {
      method: "POST",
      url: `${ctx.baseUrl}${path}${queryString(query)}`,
      operation: `POST ${path}`,
      body,
      idempotent: true,
      ...withSignal(signal),
    });
    const pageSize = size ?? LIMITS.defaultPageSize;
    const result = toSearchPage<T>(doc as SearchDocLike<T>, n ?? 1, pageSize);
    // Pages are counted from the total, as production's meta.page.total holds the page's records.
    return { ...result, totalPages: Math.min(Math.ceil(result.totalResults / pageSize), LIMITS.maxPageNumber) };
  }

  const search = <T>(operation: Paged) => async (filters: object, o: SearchOptions = {}) => page<T>(operation, bodyOf(operation, filters), o.page, o.size, o.sort, o.signal);

  const iterate = <T>(operation: Paged) => (filters: object, o: IterateOptions = {}): AsyncIterable<IteratedPage<T>> => ({
    async *[Symbol.asyncIterator]() {
      const body = bodyOf(operation, filters);
      yield* iteratePages<T>((n, size, signal) => page<T>(operation, body, n, size, o.sort, signal), {
        pageSize: o.pageSize ?? LIMITS.maxPageSize,
        window: ctx.concurrency,
        ...(o.maxResults !== undefined ? { maxResults: o.maxResults } : {}),
        ...(o.signal ? { signal: o.signal } : {}),
        ...(o.onProgress ? { onProgress: o.onProgress } : {}),
      });
    },
  });

  const enrich = <T>(operation: Paged) => async (input: object, o: { signal?: AbortSignal } = {}): Promise<T[]> => {
    const out: T[] = [];
    for await (const p of iterate<T>(operation)(input, { pageSize: LIMITS.maxPageSize, ...withSignal(o.signal) })) out.push(...p.items);
    return out;
  };

  return {
    searchIntent: search<IntentItem>("intentSearch"),
    iterateIntent: iterate<IntentItem>("intentSearch"),
    enrichIntent: enrich<IntentItem>("intentEnrich"),
    searchScoops: search<ScoopItem>("scoopSearch"),
    iterateScoops: iterate<ScoopItem>("scoopSearch"),
    enrichScoops: enrich<ScoopItem>("scoopEnrich"),
    searchNews: search<NewsItem>("newsSearch"),
    iterateNews: iterate<NewsItem>("newsSearch"),
    enrichNews: enrich<NewsItem>("newsEnrich"),
    async enrichTechnologies(companyId, o = {}) {
      const path = SIGNAL_PATHS.technologiesEnrich;
      const body = bodyOf("technologiesEnrich", { companyId: String(companyId) });
      const doc = await ctx.call(TechnologiesDocument, { method: "POST", url: `${ctx.baseUrl}${path}`, operation: `POST ${path}`, body, idempotent: true, ...withSignal(o.signal) });
      return doc.data;
    },
  };
}
