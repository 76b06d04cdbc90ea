/* global indexedDB */
// The caches' home (enrichment, signals, briefings): IndexedDB wherever the page has it (the shared
// runtime is a browser page, and so is browser mode): its quota is far larger and filling it never
// crowds out the small items of hostStorage.ts. Without IndexedDB the caches take a budgeted share
// of the small store (core/storage/budget.ts). hostStorage(use) is the one picker of both.
import { INDEXED_DB_CACHE_BUDGETS, SMALL_STORE_CACHE_BUDGETS, type CacheBudgets } from "../core/storage/budget.js";
import type { KeyValueStorage } from "../core/storage/keyValue.js";
import { smallStore } from "./hostStorage.js";

/** "items": settings, job lists and daily counts (the small store); "bulk": the caches. */
export type StorageUse = "items" | "bulk";

/** A KeyValueStorage on IndexedDB (browser mode): one object store of string values. */
function createIndexedDbStorage(databaseName = "bizdata-addin", factory: IDBFactory = indexedDB): KeyValueStorage {
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
  const port: KeyValueStorage = {
    async getItem(key) {
      return (await port.getItems([key]))[key] ?? null;
    },
    async setItem(key, value) {
      await port.setItems({ [key]: value });
    },
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
  return port;
}

/** The storage this host keeps for `use`, or undefined when nothing here persists. */
export function hostStorage(use: StorageUse): KeyValueStorage | undefined {
  if (use === "bulk" && typeof indexedDB !== "undefined") return createIndexedDbStorage();
  return smallStore();
}

/** Where the caches persist and the room each may take there. */
export interface CacheHome {
  storage: KeyValueStorage;
  budgets: CacheBudgets;
  /** True when the caches share the small store (no IndexedDB here). */
  sharesSmallStore: boolean;
}

/** The caches' home on this host, or undefined when nothing persists (they then live in memory). */
export function cacheHome(): CacheHome | undefined {
  if (typeof indexedDB !== "undefined") return { storage: createIndexedDbStorage(), budgets: INDEXED_DB_CACHE_BUDGETS, sharesSmallStore: false };
  const storage = smallStore();
  return storage ? { storage, budgets: SMALL_STORE_CACHE_BUDGETS, sharesSmallStore: true } : undefined;
}
