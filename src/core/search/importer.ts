// Fetches the pages of one or more sub-searches and hands them to a writer in plan order.
// A search is safe to repeat, so a page gets more patience than a charging call: after the
// client's own retries give up on a transient failure (5xx, dropped connection, timeout, 429)
// the page waits and tries again a few more rounds, while the other workers keep fetching the
// pages after it. A page that still fails is skipped and reported as missing, so the rest of the
// import goes on and a later Resume fetches just the missing pages. Ids already written are
// never written again (a result set that moved between pages can repeat a record).
import { LIMITS, type RecordKind } from "../contract/index.js";

export interface PageKey {
  part: number;
  page: number;
}

export interface FetchedPage<T> {
  items: T[];
  totalResults: number;
}

export interface ImportClock {
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface Patience {
  /** Extra rounds after the client's own retries give up (default 4). */
  rounds: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

const DEFAULT_PATIENCE: Patience = { rounds: 4, baseDelayMs: 1000, maxDelayMs: 15000 };

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
  clock: ImportClock;
  random?: () => number;
  patience?: Patience;
  /** Pages fetched at once (the client's rate limiter and cap still apply). */
  concurrency?: number;
  /** How far fetching may run ahead of writing, in pages. */
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

/** What Resume needs: plain data, so it can be kept with a saved search in the workbook. */
export interface ResumeState {
  kind: RecordKind;
  sort?: string;
  tableName: string;
  /** Column keys of the table. */
  columns: string[];
  pageSize: number;
  parts: { filters: Record<string, unknown>; count: number }[];
  missing: PageKey[];
  /** The search's total when it was planned. */
  total: number;
}

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

/**
 * Runs a safe-to-repeat request with a page's patience: a transient failure (after the client's
 * own retries) waits and tries again up to `patience.rounds` more times.
 */
export async function withPatience<R>(attempt: () => Promise<R>, clock: ImportClock, patience: Patience = DEFAULT_PATIENCE, signal?: AbortSignal, random: () => number = Math.random): Promise<R> {
  for (let round = 0; ; round++) {
    try {
      return await attempt();
    } catch (error) {
      if (signal?.aborted || !isTransient(error) || round >= patience.rounds) throw error;
      const ceiling = Math.min(patience.maxDelayMs, patience.baseDelayMs * 2 ** round);
      // Half fixed, half jitter: a request that failed every client retry has waited already.
      await clock.sleep(ceiling / 2 + random() * (ceiling / 2), signal).catch(() => undefined);
      if (signal?.aborted) throw error;
    }
  }
}

type Slot<T> = { page: FetchedPage<T> } | { error: unknown; fatal: boolean };

export async function importPages<T>(request: ImportRequest<T>): Promise<ImportResult> {
  const pageSize = request.pageSize ?? LIMITS.maxPageSize;
  const keys = request.pages ? [...request.pages] : allPages(request.parts, pageSize);
  const patience = request.patience ?? DEFAULT_PATIENCE;
  const random = request.random ?? Math.random;
  const window = Math.max(1, request.window ?? 50);
  const seen = request.seen ?? new Set<string>();
  const stop = new AbortController();
  const onAbort = () => stop.abort(request.signal?.reason);
  if (request.signal?.aborted) stop.abort(request.signal.reason);
  request.signal?.addEventListener("abort", onAbort, { once: true });

  const slots: (Slot<T> | undefined)[] = new Array<Slot<T> | undefined>(keys.length);
  let waiters: (() => void)[] = [];
  const changed = () => {
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  const nextChange = () => new Promise<void>((resolve) => waiters.push(resolve));
  stop.signal.addEventListener("abort", changed, { once: true });

  const result: ImportResult = { missing: [], pagesFetched: 0, rowsDelivered: 0, duplicates: 0, moved: [], cancelled: false };
  let delivered = 0;
  let launched = 0;

  const fetchWithPatience = async (key: PageKey): Promise<Slot<T>> => {
    const part = request.parts[key.part]!;
    try {
      const page = await withPatience(() => request.fetch(part.filters, key.page, pageSize, stop.signal), request.clock, patience, stop.signal, random);
      result.pagesFetched++;
      return { page };
    } catch (error) {
      // Given up on a transient failure: this page is missing, the others go on.
      return { error, fatal: stop.signal.aborted || !isTransient(error) };
    }
  };

  const worker = async () => {
    while (!stop.signal.aborted && launched < keys.length) {
      if (launched >= delivered + window) {
        await nextChange();
        continue;
      }
      const index = launched++;
      const key = keys[index]!;
      const ready = request.prefetched?.get(`${key.part}:${key.page}`);
      slots[index] = ready ? { page: ready } : await fetchWithPatience(key);
      changed();
    }
  };

  const writer = async () => {
    for (let i = 0; i < keys.length && !stop.signal.aborted; i++) {
      while (slots[i] === undefined && !stop.signal.aborted) await nextChange();
      if (stop.signal.aborted) return;
      const slot = slots[i];
      if (slot === undefined) return;
      const key = keys[i]!;
      if ("error" in slot) {
        if (slot.fatal) {
          if (!request.signal?.aborted) result.fatal = slot.error;
          stop.abort();
          return;
        }
        result.lastPageError = slot.error;
        result.missing.push(key);
      } else {
        const planned = request.parts[key.part]!.count;
        if (slot.page.totalResults !== planned && !result.moved.some((m) => m.part === key.part)) {
          result.moved.push({ part: key.part, planned, now: slot.page.totalResults });
        }
        const fresh = slot.page.items.filter((item) => {
          const id = request.idOf(item);
          if (seen.has(id)) return false;
          seen.add(id);
          return true;
        });
        result.duplicates += slot.page.items.length - fresh.length;
        try {
          if (fresh.length > 0) await request.deliver(fresh, key);
        } catch (error) {
          result.fatal = error;
          result.missing.push(key);
          stop.abort();
          return;
        }
        result.rowsDelivered += fresh.length;
      }
      slots[i] = undefined; // let the page's rows go
      delivered = i + 1;
      request.onPage?.({ pagesDone: delivered, pagesTotal: keys.length, rowsDelivered: result.rowsDelivered });
      changed();
    }
  };

  try {
    const concurrency = Math.max(1, request.concurrency ?? 6);
    await Promise.all([writer(), ...Array.from({ length: concurrency }, worker)]);
  } finally {
    request.signal?.removeEventListener("abort", onAbort);
    stop.abort();
  }
  // Whatever was not written (cancelled or stopped) is missing too.
  const written = new Set(result.missing.map((k) => `${k.part}:${k.page}`));
  for (let i = delivered; i < keys.length; i++) {
    const k = keys[i]!;
    if (!written.has(`${k.part}:${k.page}`)) result.missing.push(k);
  }
  result.cancelled = request.signal?.aborted === true;
  return result;
}
