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
