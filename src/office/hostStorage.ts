/* global OfficeRuntime */
// The host's small store for the user's own items (the port: core/storage/keyValue.ts): settings,
// job lists and the daily counts live in OfficeRuntime.storage inside Office (10 MB per domain,
// shared by every add-in of the domain, by the task pane and by the cell functions), localStorage
// in a browser page. The caches' home is cacheHome.ts (IndexedDB where the page has it). This
// module is in the task pane's first JavaScript (the settings are read before anything shows), so
// the caches' code stays out of it.
import type { BudgetedArea } from "../core/storage/budgetedArea.js";
import { memoryKeyValueStorage, reportingStorage, roomMakingStorage, type KeyValueStorage } from "../core/storage/keyValue.js";
import { StorageNotices } from "../core/storage/storageNotices.js";

/** The page's storage notices: every store of this page reports its failures here, the pane shows them. */
export const storageNotices = new StorageNotices();

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

/** The small store: OfficeRuntime.storage inside Office, else the page's localStorage. */
export function smallStore(): KeyValueStorage | undefined {
  if (typeof OfficeRuntime !== "undefined" && OfficeRuntime.storage) return OfficeRuntime.storage;
  return typeof localStorage !== "undefined" ? localStoragePort(localStorage) : undefined;
}

/** The cache areas kept in the small store, by name (the latest of each): they give room to the small items. */
const areasInSmallStore = new Map<string, Pick<BudgetedArea, "giveRoom">>();

/** Registers a cache area that lives in the small store (cacheHome().sharesSmallStore). */
export function shareSmallStore(name: string, area: Pick<BudgetedArea, "giveRoom">): void {
  areasInSmallStore.set(name, area);
}

async function makeRoom(): Promise<boolean> {
  let freed = false;
  for (const area of areasInSmallStore.values()) freed = (await area.giveRoom()) || freed;
  return freed;
}

/** The small store for settings, job lists and daily counts: a refused write is tried again once the caches in it gave room. */
export function smallStorage(): KeyValueStorage | undefined {
  const store = smallStore();
  return store ? roomMakingStorage(store, makeRoom) : undefined;
}

/**
 * The user's storage for small items (settings, job lists): memory when nothing persists (tests, a
 * bare page). A failing write or read is told to the page's storage notices, and still thrown.
 */
export function userStorage(): KeyValueStorage {
  return reportingStorage(smallStorage() ?? memoryKeyValueStorage(), () => storageNotices.report("items"));
}
