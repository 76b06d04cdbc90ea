// All pages of a search as an async iterator. The first page tells the total; the rest are then
// fetched concurrently (a bounded window ahead of the reader, every request still through the
// rate limiter and the concurrency cap) and yielded strictly in page order. The service answers
// at most LIMITS.maxPageNumber pages for one search, so nothing beyond that is requested.
import { LIMITS } from "../contract/index.js";
import type { IteratedPage, IterateProgress, SearchPage } from "./types.js";

export type PageFetcher<T> = (pageNumber: number, pageSize: number, signal: AbortSignal) => Promise<SearchPage<T>>;

export interface PagingOptions {
  pageSize: number;
  maxResults?: number;
  signal?: AbortSignal;
  onProgress?: (progress: IterateProgress) => void;
  /** Pages fetched ahead of the one being read. */
  window: number;
}

/** How many results one search can reach, given the page cap. */
function reachableResults(totalResults: number, pageSize: number): number {
  return Math.min(totalResults, LIMITS.maxPageNumber * pageSize);
}

export async function* iteratePages<T>(fetchPage: PageFetcher<T>, options: PagingOptions): AsyncGenerator<IteratedPage<T>> {
  const { pageSize, maxResults, onProgress } = options;
  if (maxResults !== undefined && maxResults <= 0) return;
  // Stops queued and in-flight page requests when the reader stops early or cancels.
  const stop = new AbortController();
  const onCallerAbort = () => stop.abort(options.signal?.reason);
  if (options.signal?.aborted) stop.abort(options.signal.reason);
  options.signal?.addEventListener("abort", onCallerAbort, { once: true });
  try {
    const first = await fetchPage(1, pageSize, stop.signal);
    const reachable = reachableResults(first.totalResults, pageSize);
    const wantedResults = maxResults === undefined ? reachable : Math.min(reachable, maxResults);
    const pagesTotal = Math.min(Math.ceil(wantedResults / pageSize), first.totalPages || 1, LIMITS.maxPageNumber);
    const progress: IterateProgress = {
      pagesFetched: 1,
      pagesTotal: Math.max(1, pagesTotal),
      itemsYielded: 0,
      totalResults: first.totalResults,
      reachableResults: reachable,
    };
    let remaining = maxResults ?? Number.POSITIVE_INFINITY;
    const emit = (page: SearchPage<T>, pageNumber: number): IteratedPage<T> => {
      const items = page.items.length > remaining ? page.items.slice(0, remaining) : page.items;
      remaining -= items.length;
      progress.itemsYielded += items.length;
      const snapshot = { ...progress };
      onProgress?.(snapshot);
      return { items, pageNumber, progress: snapshot };
    };
    yield emit(first, 1);

    const pending = new Map<number, Promise<SearchPage<T>>>();
    let nextToLaunch = 2;
    const launch = (upTo: number) => {
      while (nextToLaunch <= Math.min(upTo, pagesTotal)) {
        const n = nextToLaunch;
        const request = fetchPage(n, pageSize, stop.signal).then((page) => {
          progress.pagesFetched += 1;
          return page;
        });
        // Read in order below; a failure of a page not read yet must not go unhandled meanwhile.
        request.catch(() => undefined);
        pending.set(n, request);
        nextToLaunch += 1;
      }
    };
    for (let n = 2; n <= pagesTotal && remaining > 0; n += 1) {
      launch(n + options.window - 1);
      const page = await pending.get(n)!;
      pending.delete(n);
      if (page.items.length === 0) break; // the result set shrank since the first page
      yield emit(page, n);
    }
  } finally {
    options.signal?.removeEventListener("abort", onCallerAbort);
    stop.abort();
  }
}
