// Signal operations (docs/signals.md): intent, scoop and news searches (one page, or every page
// through the one paging iterator), their enrich operations (every page of one request's answer)
// and technologies enrich. Bodies and page queries are checked with the contract before sending.
import {
  IntentDocument,
  LIMITS,
  NewsDocument,
  ScoopDocument,
  TechnologiesDocument,
  SIGNAL_FAMILY,
  signalBody,
  validateSignalBody,
  validateSignalQuery,
  type IntentItem,
  type NewsItem,
  type PagedSignalOperation,
  type ScoopItem,
  type SignalOperation,
} from "../contract/index.js";
import { idNumber, readIntent, readNews, readScoop, readTechnology } from "./signalAnswers.js";
import { refuse, withSignal, type ClientContext } from "./clientContext.js";
import { callOperation, operationLabel } from "./operationCall.js";
import { iteratePages } from "./paging.js";
import { toSearchPage, type SearchDocLike } from "./searchOperations.js";
import type { IteratedPage, IterateOptions, RequestPriority, SearchOptions, SearchPage, ServiceClient, SignalEnrichOptions } from "./types.js";

type SignalOperations = Pick<
  ServiceClient,
  | "searchIntent"
  | "iterateIntent"
  | "enrichIntent"
  | "searchScoops"
  | "iterateScoops"
  | "enrichScoops"
  | "searchNews"
  | "iterateNews"
  | "enrichNews"
  | "enrichTechnologies"
>;

const SCHEMA = { intent: IntentDocument, scoops: ScoopDocument, news: NewsDocument } as const;
/** Each family's answers read into the plain shape (signalAnswers.ts). */
const READ = { intent: readIntent, scoops: readScoop, news: readNews } as const;

type Paged = PagedSignalOperation;

/**
 * The body as the service's schemas type it: one company id is a number (intent, news and
 * technologies enrich), scoop enrich's comma-separated list stays text.
 */
function wireAttributes(operation: SignalOperation, attributes: object): object {
  const companyId = (attributes as { companyId?: unknown }).companyId;
  const id = operation === "scoopEnrich" ? undefined : idNumber(companyId);
  return id === undefined ? attributes : { ...attributes, companyId: id };
}

/** A request body, checked before sending. */
function bodyOf(operation: SignalOperation, attributes: object) {
  const body = signalBody(operation, wireAttributes(operation, attributes));
  const issues = validateSignalBody(operation, body);
  if (issues.length > 0) refuse(issues, operationLabel(operation));
  return body;
}

interface PageAsk {
  n?: number | undefined;
  size?: number | undefined;
  sort?: string | undefined;
  signal?: AbortSignal | undefined;
  priority?: RequestPriority | undefined;
}

/** One page of a paged signal operation, read into the plain records. */
async function signalPage<T>(ctx: ClientContext, operation: Paged, body: unknown, ask: PageAsk): Promise<SearchPage<T>> {
  const query = {
    "page[number]": ask.n === undefined ? undefined : String(ask.n),
    "page[size]": ask.size === undefined ? undefined : String(ask.size),
    sort: ask.sort,
  };
  const issues = validateSignalQuery(query, operation);
  if (issues.length > 0) refuse(issues, operationLabel(operation));
  const family = SIGNAL_FAMILY[operation];
  const doc = await callOperation(ctx, operation, { query, body, answer: SCHEMA[family], signal: ask.signal, priority: ask.priority });
  const pageSize = ask.size ?? LIMITS.defaultPageSize;
  const read = READ[family] as (item: unknown) => T;
  const result = toSearchPage<T>({ ...doc, data: doc.data.map(read) } as SearchDocLike<T>, ask.n ?? 1, pageSize);
  // Pages are counted from the total and the page size (capped at 100 pages), whatever meta.page says.
  return { ...result, totalPages: Math.min(Math.ceil(result.totalResults / pageSize), LIMITS.maxPageNumber) };
}

export function signalOperations(ctx: ClientContext): SignalOperations {
  const search =
    <T>(operation: Paged) =>
    async (filters: object, options: SearchOptions = {}) =>
      signalPage<T>(ctx, operation, bodyOf(operation, filters), {
        n: options.page,
        size: options.size,
        sort: options.sort,
        signal: options.signal,
        priority: options.priority,
      });

  const iterate =
    <T>(operation: Paged) =>
    (filters: object, options: IterateOptions = {}): AsyncIterable<IteratedPage<T>> => ({
      async *[Symbol.asyncIterator]() {
        const body = bodyOf(operation, filters);
        yield* iteratePages<T>((n, size, signal) => signalPage<T>(ctx, operation, body, { n, size, sort: options.sort, signal, priority: options.priority }), {
          pageSize: options.pageSize ?? LIMITS.maxPageSize,
          window: ctx.concurrency,
          ...(options.maxResults !== undefined ? { maxResults: options.maxResults } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        });
      },
    });

  const enrich =
    <T>(operation: Paged) =>
    async (input: object, options: SignalEnrichOptions = {}): Promise<T[]> => {
      const out: T[] = [];
      for await (const p of iterate<T>(operation)(input, {
        pageSize: LIMITS.maxPageSize,
        ...withSignal(options.signal),
        ...(options.priority ? { priority: options.priority } : {}),
      }))
        out.push(...p.items);
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
    async enrichTechnologies(companyId, options = {}) {
      const body = bodyOf("technologiesEnrich", { companyId });
      const doc = await callOperation(ctx, "technologiesEnrich", { body, answer: TechnologiesDocument, signal: options.signal, priority: options.priority });
      return doc.data.map(readTechnology);
    },
  };
}
