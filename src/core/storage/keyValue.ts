// The one key-value storage port: the user's own storage, string values, shaped like
// OfficeRuntime.storage. src/office/hostStorage.ts picks the adapter of the host; each
// consumer takes the part it uses (settings and job lists one item, the cache in batches).
export interface KeyValueStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  getItems(keys: string[]): Promise<Record<string, string | null | undefined>>;
  setItems(items: Record<string, string>): Promise<void>;
  removeItems(keys: string[]): Promise<void>;
  getKeys(): Promise<string[]>;
}

/** The single-item part of the port (settings, job lists). */
export type KeyValueItems = Pick<KeyValueStorage, "getItem" | "setItem">;

/** The port on a Map (tests, and hosts where nothing persists). */
export function memoryKeyValueStorage(map = new Map<string, string>()): KeyValueStorage {
  return {
    getItem: async (key) => map.get(key) ?? null,
    setItem: async (key, value) => void map.set(key, value),
    getItems: async (keys) => Object.fromEntries(keys.map((key) => [key, map.get(key) ?? null])),
    setItems: async (items) => {
      for (const [key, value] of Object.entries(items)) map.set(key, value);
    },
    removeItems: async (keys) => {
      for (const key of keys) map.delete(key);
    },
    getKeys: async () => [...map.keys()],
  };
}

const PORT_METHODS: readonly (keyof KeyValueStorage)[] = ["getItem", "setItem", "getItems", "setItems", "removeItems", "getKeys"];

/**
 * The port (or a part of it) with each failing call told to `report`, then thrown as before: the
 * caller handles the failure as it always did, and the user hears of it once (storageNotices.ts).
 */
export function reportingStorage<S extends Partial<KeyValueStorage>>(storage: S, report: () => void): S {
  const wrapped: Record<string, unknown> = {};
  // By name, not Object.keys: the host's storage keeps its methods on a prototype.
  for (const name of PORT_METHODS) {
    const member = storage[name];
    if (typeof member !== "function") continue;
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await (member as (...a: unknown[]) => Promise<unknown>).apply(storage, args);
      } catch (error) {
        report();
        throw error;
      }
    };
  }
  return wrapped as S;
}

/**
 * The small store with a refused write tried once more after `makeRoom` (the cache areas sharing
 * the store give room): settings, job lists and daily counts are never crowded out by caches.
 */
export function roomMakingStorage(storage: KeyValueStorage, makeRoom: () => Promise<boolean>): KeyValueStorage {
  const retried =
    <A extends unknown[]>(write: (...args: A) => Promise<void>) =>
    async (...args: A): Promise<void> => {
      try {
        await write.apply(storage, args);
      } catch (error) {
        if (!(await makeRoom())) throw error;
        await write.apply(storage, args);
      }
    };
  return {
    getItem: (key) => storage.getItem(key),
    getItems: (keys) => storage.getItems(keys),
    removeItems: (keys) => storage.removeItems(keys),
    getKeys: () => storage.getKeys(),
    setItem: retried(storage.setItem),
    setItems: retried(storage.setItems),
  };
}
