// Fetches the pages of one or more sub-searches and hands them to a writer in plan order. The
// pages are read ahead with the client's one pager (readAhead of core/api/paging.ts) and every
// request is a bulk one, so the client's one retry policy gives it a page's patience (more
// attempts after a 5xx than a cell gets, minutes of waiting for the organization's rate limit)
// and a person's cells and previews go first. A page that still fails is skipped and reported
// as missing, so the rest of the import goes on and a later Resume fetches just the missing
// pages. Ids already written are never written again (a result set that moved between pages can
// repeat a record).
import { readAhead } from "../api/paging.js";
import { LIMITS } from "../contract/index.js";

export interface PageKey {
  part: number;
  page: number;
}

export interface FetchedPage<T> {
  items: T[];
  totalResults: number;
}

export interface ImportRequest<T> {
  /** The sub-searches, with the counts they had when planned. */
  parts: readonly { filters: Record<string, unknown>; count: number }[];
  /** Pages to fetch, in the order they are written (default: every reachable page of every part). */
  pages?: readonly PageKey[];
  pageSize?: number;
  fetch(filters: Record<string, unknown>, page: number, size: number, signal: AbortSignal): Promise<FetchedPage<T>>;
  /** Receives each page's new rows in order; a failure here stops the import. */
  deliver(items: T[], key: PageKey): Promise<void>;
  idOf(item: T): string;
  /** Ids already in the table (a Resume), so they are not written twice. */
  seen?: Set<string>;
  /** Pages already in hand (the first page that told the total), keyed "part:page". */
  prefetched?: Map<string, FetchedPage<T>>;
  /** How far fetching may run ahead of writing, in pages (the client's cap and rate limiter still apply). */
  window?: number;
  signal?: AbortSignal;
  onPage?(progress: { pagesDone: number; pagesTotal: number; rowsDelivered: number }): void;
}

export interface ImportResult {
  /** Pages not written: failed for good, or not reached (cancel, a failure that stops all). */
  missing: PageKey[];
  pagesFetched: number;
  rowsDelivered: number;
  /** Records a page repeated (already written) and were therefore skipped. */
  duplicates: number;
  /** Parts whose total changed since they were counted. */
  moved: { part: number; planned: number; now: number }[];
  cancelled: boolean;
  /** The failure that stopped everything (sign-in, refused request, writer), if any. */
  fatal?: unknown;
  /** The last failure of a page given up on, if any. */
  lastPageError?: unknown;
}

/** What Resume needs (its schema is in savedSearchSchema.ts, where it is stored). */
export type { ResumeState } from "./savedSearchSchema.js";

const REACH_PAGES = LIMITS.maxPageNumber;

/** Every reachable page of every part, in order. */
export function allPages(parts: readonly { count: number }[], pageSize: number): PageKey[] {
  const keys: PageKey[] = [];
  parts.forEach((p, part) => {
    const pages = Math.min(REACH_PAGES, Math.ceil(p.count / pageSize));
    for (let page = 1; page <= pages; page++) keys.push({ part, page });
  });
  return keys;
}

const TRANSIENT = new Set(["server", "network", "timeout", "rateLimited"]);
function isTransient(error: unknown): boolean {
  const kind = typeof error === "object" && error !== null ? (error as { kind?: unknown }).kind : undefined;
  return typeof kind === "string" && TRANSIENT.has(kind);
}

export async function importPages<T>(request: ImportRequest<T>): Promise<ImportResult> {
  const pageSize = request.pageSize ?? LIMITS.maxPageSize;
  const keys = request.pages ? [...request.pages] : allPages(request.parts, pageSize);
  const seen = request.seen ?? new Set<string>();
  const stop = new AbortController();
  const onAbort = () => stop.abort(request.signal?.reason);
  if (request.signal?.aborted) stop.abort(request.signal.reason);
  request.signal?.addEventListener("abort", onAbort, { once: true });
  const result: ImportResult = { missing: [], pagesFetched: 0, rowsDelivered: 0, duplicates: 0, moved: [], cancelled: false };
  let delivered = 0;

  const fetchPage = async (index: number, signal: AbortSignal): Promise<FetchedPage<T>> => {
    const key = keys[index]!;
    const ready = request.prefetched?.get(`${key.part}:${key.page}`);
    if (ready) return ready;
    const page = await request.fetch(request.parts[key.part]!.filters, key.page, pageSize, signal);
    result.pagesFetched++;
    return page;
  };

  try {
    let i = 0;
    for await (const slot of readAhead(keys.length, fetchPage, { window: Math.max(1, request.window ?? 50), signal: stop.signal })) {
      if (stop.signal.aborted) break;
      const key = keys[i]!;
      if ("error" in slot) {
        if (!isTransient(slot.error)) {
          // Refused for a reason a retry would not change (sign-in, a bad filter): stop.
          result.fatal = slot.error;
          break;
        }
        // Given up on after the client's retries: this page is missing, the others go on.
        result.lastPageError = slot.error;
        result.missing.push(key);
      } else {
        const planned = request.parts[key.part]!.count;
        if (slot.value.totalResults !== planned && !result.moved.some((m) => m.part === key.part)) {
          result.moved.push({ part: key.part, planned, now: slot.value.totalResults });
        }
        const fresh = slot.value.items.filter((item) => {
          const id = request.idOf(item);
          if (seen.has(id)) return false;
          seen.add(id);
          return true;
        });
        result.duplicates += slot.value.items.length - fresh.length;
        try {
          if (fresh.length > 0) await request.deliver(fresh, key);
        } catch (error) {
          result.fatal = error;
          result.missing.push(key);
          delivered = i + 1;
          break;
        }
        result.rowsDelivered += fresh.length;
      }
      i += 1;
      delivered = i;
      request.onPage?.({ pagesDone: delivered, pagesTotal: keys.length, rowsDelivered: result.rowsDelivered });
    }
  } finally {
    request.signal?.removeEventListener("abort", onAbort);
    stop.abort();
  }
  if (request.signal?.aborted) delete result.fatal;
  // Whatever was not written (cancelled or stopped) is missing too.
  const written = new Set(result.missing.map((k) => `${k.part}:${k.page}`));
  for (let i = delivered; i < keys.length; i++) {
    const k = keys[i]!;
    if (!written.has(`${k.part}:${k.page}`)) result.missing.push(k);
  }
  result.cancelled = request.signal?.aborted === true;
  return result;
}
