// Paging, the one mechanism for reading pages ahead: readAhead fetches items by index a bounded
// window ahead of the reader (every request still through the rate limiter and the concurrency
// cap) and yields their outcomes strictly in order; iteratePages reads all pages of one search
// with it (the first page tells the total), and the partitioned import reads its plan's pages
// with it. The service answers at most LIMITS.maxPageNumber pages for one search, so nothing
// beyond that is requested.
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

    const rest = readAhead(pagesTotal - 1, (i, signal) => fetchPage(i + 2, pageSize, signal), { window: options.window, signal: stop.signal });
    let n = 2;
    for await (const slot of rest) {
      if (remaining <= 0) break;
      if ("error" in slot) throw slot.error;
      progress.pagesFetched += 1;
      if (slot.value.items.length === 0) break; // the result set shrank since the first page
      yield emit(slot.value, n);
      n += 1;
    }
  } finally {
    options.signal?.removeEventListener("abort", onCallerAbort);
    stop.abort();
  }
}

/** One fetch's outcome: a failure is a value, so the reader decides what it means. */
export type Settled<T> = { value: T } | { error: unknown };

/**
 * Fetches items 0..count-1 at most `window` ahead of the one being read and yields their
 * outcomes in index order. Stopping early (break, return, or the signal) aborts what is still
 * in flight.
 */
export async function* readAhead<T>(
  count: number,
  fetch: (index: number, signal: AbortSignal) => Promise<T>,
  options: { window: number; signal?: AbortSignal },
): AsyncGenerator<Settled<T>> {
  const stop = new AbortController();
  const onCallerAbort = () => stop.abort(options.signal?.reason);
  if (options.signal?.aborted) stop.abort(options.signal.reason);
  options.signal?.addEventListener("abort", onCallerAbort, { once: true });
  const pending = new Map<number, Promise<Settled<T>>>();
  let next = 0;
  try {
    for (let i = 0; i < count; i += 1) {
      // Once stopped nothing new is launched; what was launched settles (cancelled) and is read.
      while (!stop.signal.aborted && next < count && next < i + Math.max(1, options.window)) {
        const index = next;
        pending.set(
          index,
          fetch(index, stop.signal).then(
            (value) => ({ value }),
            (error: unknown) => ({ error }),
          ),
        );
        next += 1;
      }
      const launched = pending.get(i);
      if (!launched) return;
      const slot = await launched;
      pending.delete(i);
      yield slot;
    }
  } finally {
    options.signal?.removeEventListener("abort", onCallerAbort);
    stop.abort();
  }
}
