// Where the enrichment cache, the briefings and the daily counts persist, and in how much room.
// The caches (records, known matches, signals; briefings) are budgeted areas (core/storage/
// budgetedArea.ts) in the caches' home (cacheHome.ts: IndexedDB where the page has it, else a
// share of OfficeRuntime.storage, which holds 10 MB per DOMAIN for every add-in served from it).
// The daily counts, settings and job lists stay in the small store, outside the caches' budget,
// so a full cache never stops them being saved. A failing read or write is told to the user once
// (core/storage/storageNotices.ts): a cache that cannot be kept costs only speed; a daily count
// that cannot be kept stops new spending (core/enrich/spendReservations.ts).
import { MANAGEMENT_WINDOW_MS, MemoryCacheStore, MemorySpendStore, parseSpendState, type CacheStore, type SpendStore } from "../core/enrich/index.js";
import { createBudgetedArea, type BudgetedArea } from "../core/storage/budgetedArea.js";
import { SMALL_STORE_CACHE_BUDGETS } from "../core/storage/budget.js";
import { memoryKeyValueStorage, reportingStorage, type KeyValueItems, type KeyValueStorage } from "../core/storage/keyValue.js";
import type { StorageNotices, StorageProblem } from "../core/storage/storageNotices.js";
import { cacheHome } from "./cacheHome.js";
import { shareSmallStore, smallStorage, storageNotices } from "./hostStorage.js";

export type { KeyValueStorage };

/** Every cache key starts with this (see core/enrich/caches.ts); clear() removes only these. */
const CACHE_KEY_PREFIX = "biz-enrich:";
/** The briefings' keys (core/research/briefingStore.ts's BRIEFING_KEY_PREFIX). */
const BRIEFING_KEY_PREFIX = "bizdata.research.briefing";
export interface StorageCacheOptions {
  /** Bytes the cache may take (default: its share of the small store). */
  budgetBytes?: number;
  now?: () => number;
  /** A read or write of the storage failed (the cache goes on in memory). */
  onFailure?: (error: unknown) => void;
}

/** The enrichment cache in `storage`, bounded, least recently used evicted. */
export function createStorageCacheStore(
  storage: KeyValueStorage,
  options: StorageCacheOptions = {},
): CacheStore & Pick<BudgetedArea, "usedBytes" | "giveRoom"> {
  return createBudgetedArea(storage, {
    prefix: CACHE_KEY_PREFIX,
    budgetBytes: options.budgetBytes ?? SMALL_STORE_CACHE_BUDGETS.enrichmentBytes,
    now: options.now ?? Date.now,
    staleAfterMs: MANAGEMENT_WINDOW_MS,
    ...(options.onFailure ? { onFailure: options.onFailure } : {}),
  });
}

/**
 * The daily new-record count and cap of one user, under a key of its own in the small store. A
 * failing read or write is told (onFailure) and thrown: the spend guard then grants nothing new.
 */
export function createStorageSpendStore(
  storage: Pick<KeyValueStorage, "getItems" | "setItems">,
  userKey = "default",
  onFailure?: () => void,
  /** Where an earlier version kept the count (IndexedDB in browser mode): read when the store has none. */
  earlier?: Pick<KeyValueStorage, "getItems">,
): SpendStore {
  const key = `biz-enrich-spend:${userKey}`;
  const told = <T>(work: Promise<T>) =>
    work.catch((error: unknown) => {
      onFailure?.();
      throw error;
    });
  return {
    async load() {
      const stored = (await told(storage.getItems([key])))[key];
      if (typeof stored === "string" || !earlier) return parseSpendState(stored);
      return parseSpendState((await told(earlier.getItems([key])))[key]);
    },
    async save(state) {
      await told(storage.setItems({ [key]: JSON.stringify(state) }));
    },
  };
}

const tell = (notices: StorageNotices, problem: StorageProblem) => () => notices.report(problem);

/** The cache store and spend store for the runtime (memory ones when nothing persists). */
export function enrichmentStores(userKey?: string, notices: StorageNotices = storageNotices): { cache: CacheStore; spendStore: SpendStore } {
  const home = cacheHome();
  const small = smallStorage();
  const cache = home
    ? createStorageCacheStore(home.storage, { budgetBytes: home.budgets.enrichmentBytes, onFailure: tell(notices, "cache") })
    : new MemoryCacheStore();
  if (home?.sharesSmallStore && "giveRoom" in cache) shareSmallStore("enrichment", cache);
  if (home && !home.sharesSmallStore && small) dropLegacyCache(small);
  const earlier = home && !home.sharesSmallStore ? home.storage : undefined;
  return { cache, spendStore: small ? createStorageSpendStore(small, userKey, tell(notices, "spend"), earlier) : new MemorySpendStore() };
}

let legacyDropped = false;

/**
 * Earlier versions kept the enrichment cache, unbounded, in the small store: with the cache now in
 * IndexedDB, those entries are removed from it once per page, giving the room back to the small items.
 */
function dropLegacyCache(small: KeyValueStorage): void {
  if (legacyDropped) return;
  legacyDropped = true;
  void (async () => {
    const keys = (await small.getKeys()).filter((key) => key.startsWith(CACHE_KEY_PREFIX));
    if (keys.length > 0) await small.removeItems(keys);
  })().catch(() => undefined); // best effort: the old entries only take room
}

/**
 * The research storage: briefings (a cache, paid once) in a budgeted area of the caches' home, the
 * daily AI count and anything else in the small store. Both report their failures.
 */
export function researchStorage(notices: StorageNotices = storageNotices): KeyValueItems {
  const small = smallStorage();
  const items: KeyValueItems = reportingStorage<KeyValueItems>(small ?? memoryKeyValueStorage(), tell(notices, "spend"));
  const home = cacheHome();
  if (!home) return items;
  const briefings = createBudgetedArea(home.storage, {
    prefix: BRIEFING_KEY_PREFIX,
    budgetBytes: home.budgets.briefingBytes,
    now: Date.now,
    onFailure: tell(notices, "cache"),
  });
  if (home.sharesSmallStore) shareSmallStore("briefings", briefings);
  return {
    async getItem(key) {
      if (!key.startsWith(BRIEFING_KEY_PREFIX)) return items.getItem(key);
      // A briefing an earlier version kept in the small store is still found there.
      return (await briefings.getMany([key])).get(key) ?? (home.sharesSmallStore ? null : await items.getItem(key).catch(() => null));
    },
    setItem: (key, value) => (key.startsWith(BRIEFING_KEY_PREFIX) ? briefings.setMany([[key, value]]) : items.setItem(key, value)),
  };
}
