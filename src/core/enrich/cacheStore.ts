// Where cached enrichment results outlive the runtime: OfficeRuntime.storage in Office,
// IndexedDB in a browser, memory in tests. Keys and values are strings.
export interface CacheStore {
  /** The stored values of those keys that exist. */
  getMany(keys: readonly string[]): Promise<Map<string, string>>;
  setMany(entries: ReadonlyArray<readonly [string, string]>): Promise<void>;
  /** Removes every entry of this store. */
  clear(): Promise<void>;
}

export class MemoryCacheStore implements CacheStore {
  readonly entries = new Map<string, string>();

  async getMany(keys: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const key of keys) {
      const value = this.entries.get(key);
      if (value !== undefined) found.set(key, value);
    }
    return found;
  }

  async setMany(entries: ReadonlyArray<readonly [string, string]>): Promise<void> {
    for (const [key, value] of entries) this.entries.set(key, value);
  }

  async clear(): Promise<void> {
    this.entries.clear();
  }
}
