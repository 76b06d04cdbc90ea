/* global OfficeRuntime, indexedDB */
// The one host picker for the user's own storage (the port: core/storage/keyValue.ts).
// Inside Office: OfficeRuntime.storage for everything (shared by the task pane and the cell
// functions of the shared runtime). In a browser: localStorage for small items (settings, job
// lists) and IndexedDB for bulk data (the enrichment cache), which outgrows localStorage.
import { memoryKeyValueStorage, type KeyValueStorage } from "../core/storage/keyValue.js";

/** "items": settings and job lists; "bulk": the enrichment cache and the daily count. */
export type StorageUse = "items" | "bulk";

/** The port on the page's localStorage. */
function localStoragePort(storage: Storage): KeyValueStorage {
  const port: KeyValueStorage = {
    getItem: async (key) => storage.getItem(key),
    setItem: async (key, value) => storage.setItem(key, value),
    getItems: async (keys) => Object.fromEntries(keys.map((key) => [key, storage.getItem(key)])),
    setItems: async (items) => {
      for (const [key, value] of Object.entries(items)) storage.setItem(key, value);
    },
    removeItems: async (keys) => {
      for (const key of keys) storage.removeItem(key);
    },
    getKeys: async () => Array.from({ length: storage.length }, (_, i) => storage.key(i)).filter((key): key is string => key !== null),
  };
  return port;
}

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
  if (typeof OfficeRuntime !== "undefined" && OfficeRuntime.storage) return OfficeRuntime.storage;
  if (use === "bulk") return typeof indexedDB !== "undefined" ? createIndexedDbStorage() : undefined;
  return typeof localStorage !== "undefined" ? localStoragePort(localStorage) : undefined;
}

/** The user's storage for small items: memory when nothing persists (tests, a bare page). */
export function userStorage(): KeyValueStorage {
  return hostStorage("items") ?? memoryKeyValueStorage();
}
