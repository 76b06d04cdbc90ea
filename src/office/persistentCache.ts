/* global OfficeRuntime, indexedDB */
// Where the enrichment cache and the daily record count persist: OfficeRuntime.storage in
// Office (shared by the task pane and the functions of the shared runtime), IndexedDB in a
// browser, memory elsewhere. Both sit behind one small key-value interface shaped like
// OfficeRuntime.storage, so the cache store and the spend store are written once.
import { MemoryCacheStore, MemorySpendStore, parseSpendState, type CacheStore, type SpendStore } from "../core/enrich/index.js";

/** The part of OfficeRuntime.storage this module uses. */
export interface KeyValueStorage {
  getItems(keys: string[]): Promise<Record<string, string | null | undefined>>;
  setItems(items: Record<string, string>): Promise<void>;
  removeItems(keys: string[]): Promise<void>;
  getKeys(): Promise<string[]>;
}

/** Every cache key starts with this (see core/enrich/recordCache.ts); clear() removes only these. */
const CACHE_KEY_PREFIX = "biz-enrich:";
/** OfficeRuntime.storage holds 10 MB per add-in; write in modest batches. */
const WRITE_BATCH = 200;

export function createStorageCacheStore(storage: KeyValueStorage): CacheStore {
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
export function createStorageSpendStore(storage: KeyValueStorage, userKey = "default"): SpendStore {
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

/** A KeyValueStorage on IndexedDB (browser mode): one object store of string values. */
export function createIndexedDbStorage(databaseName = "bizdata-addin", factory: IDBFactory = indexedDB): KeyValueStorage {
  const storeName = "kv";
  let opened: Promise<IDBDatabase> | undefined;
  const open = (): Promise<IDBDatabase> =>
    (opened ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open(databaseName, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(storeName);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error("IndexedDB could not be opened"));
    }));
  const transact = async <T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T> | undefined): Promise<T | undefined> => {
    const db = await open();
    return new Promise<T | undefined>((resolve, reject) => {
      const tx = db.transaction(storeName, mode);
      const request = work(tx.objectStore(storeName));
      tx.oncomplete = () => resolve(request?.result);
      tx.onerror = () => reject(tx.error ?? new Error("IndexedDB transaction failed"));
      tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted"));
    });
  };
  return {
    async getItems(keys) {
      const out: Record<string, string | null> = {};
      const db = await open();
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction(storeName, "readonly");
        const store = tx.objectStore(storeName);
        for (const key of keys) {
          const request = store.get(key);
          request.onsuccess = () => {
            out[key] = typeof request.result === "string" ? request.result : null;
          };
        }
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error ?? new Error("IndexedDB read failed"));
      });
      return out;
    },
    async setItems(items) {
      const db = await open();
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction(storeName, "readwrite");
        const store = tx.objectStore(storeName);
        for (const [key, value] of Object.entries(items)) store.put(value, key);
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error ?? new Error("IndexedDB write failed"));
      });
    },
    async removeItems(keys) {
      const db = await open();
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction(storeName, "readwrite");
        const store = tx.objectStore(storeName);
        for (const key of keys) store.delete(key);
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error ?? new Error("IndexedDB delete failed"));
      });
    },
    async getKeys() {
      const keys = await transact("readonly", (store) => store.getAllKeys());
      return (keys ?? []).filter((key): key is string => typeof key === "string");
    },
  };
}

/** The storage this runtime has: OfficeRuntime.storage in Office, IndexedDB in a browser, else none. */
export function enrichmentStorage(): KeyValueStorage | undefined {
  if (typeof OfficeRuntime !== "undefined" && OfficeRuntime.storage) return OfficeRuntime.storage;
  if (typeof indexedDB !== "undefined") return createIndexedDbStorage();
  return undefined;
}

/** The cache store and spend store for the runtime (memory ones when nothing persists). */
export function enrichmentStores(userKey?: string): { cache: CacheStore; spendStore: SpendStore } {
  const storage = enrichmentStorage();
  if (!storage) return { cache: new MemoryCacheStore(), spendStore: new MemorySpendStore() };
  return { cache: createStorageCacheStore(storage), spendStore: createStorageSpendStore(storage, userKey) };
}
