// Where the enrichment cache and the daily record count persist: the host's storage for bulk
// data (hostStorage.ts: OfficeRuntime.storage in Office, IndexedDB in a browser), memory
// elsewhere. Both sit behind the one key-value port (core/storage/keyValue.ts), so the cache
// store and the spend store are written once.
import { MemoryCacheStore, MemorySpendStore, parseSpendState, type CacheStore, type SpendStore } from "../core/enrich/index.js";
import type { KeyValueStorage } from "../core/storage/keyValue.js";
import { hostStorage } from "./hostStorage.js";

export type { KeyValueStorage };

/** Every cache key starts with this (see core/enrich/caches.ts); clear() removes only these. */
const CACHE_KEY_PREFIX = "biz-enrich:";
/** OfficeRuntime.storage holds 10 MB per add-in; write in modest batches. */
const WRITE_BATCH = 200;

export function createStorageCacheStore(storage: Pick<KeyValueStorage, "getItems" | "setItems" | "removeItems" | "getKeys">): CacheStore {
  return {
    async getMany(keys) {
      const found = new Map<string, string>();
      if (keys.length === 0) return found;
      const items = await storage.getItems([...keys]);
      for (const key of keys) {
        const value = items[key];
        if (typeof value === "string") found.set(key, value);
      }
      return found;
    },
    async setMany(entries) {
      for (let start = 0; start < entries.length; start += WRITE_BATCH) {
        await storage.setItems(Object.fromEntries(entries.slice(start, start + WRITE_BATCH)));
      }
    },
    async clear() {
      const keys = (await storage.getKeys()).filter((key) => key.startsWith(CACHE_KEY_PREFIX));
      if (keys.length > 0) await storage.removeItems(keys);
    },
  };
}

/** The daily new-record count and cap of one user, under a key of its own. */
export function createStorageSpendStore(storage: Pick<KeyValueStorage, "getItems" | "setItems">, userKey = "default"): SpendStore {
  const key = `biz-enrich-spend:${userKey}`;
  return {
    async load() {
      return parseSpendState((await storage.getItems([key]))[key]);
    },
    async save(state) {
      await storage.setItems({ [key]: JSON.stringify(state) });
    },
  };
}

/** The cache store and spend store for the runtime (memory ones when nothing persists). */
export function enrichmentStores(userKey?: string): { cache: CacheStore; spendStore: SpendStore } {
  const storage = hostStorage("bulk");
  if (!storage) return { cache: new MemoryCacheStore(), spendStore: new MemorySpendStore() };
  return { cache: createStorageCacheStore(storage), spendStore: createStorageSpendStore(storage, userKey) };
}
