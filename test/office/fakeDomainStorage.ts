// OfficeRuntime.storage as the host keeps it: one key-value store for the whole DOMAIN (every
// add-in served from it shares it), 10 MB in all. A write that would pass the quota is refused
// whole with a QuotaExceededError and nothing of it is kept; a denied storage refuses every call.
// The bytes are counted as the add-in counts them (key and value as UTF-16), written out here
// again so that a mistake in the add-in's own measure shows.
import type { KeyValueStorage } from "../../src/core/storage/keyValue.js";

export const TEN_MB = 10 * 1024 * 1024;

function quotaError(): Error {
  const error = new Error("The quota for this storage has been exceeded.");
  error.name = "QuotaExceededError";
  return error;
}

export class FakeDomainStorage implements KeyValueStorage {
  readonly items = new Map<string, string>();
  /** When true, every call refuses (storage denied by policy or the browser). */
  denied = false;
  /** When true, writes refuse and reads still work. */
  writesDenied = false;
  /** When true, reads refuse and writes still work (a damaged store). */
  readsDenied = false;
  refusals = 0;

  constructor(readonly quotaBytes = TEN_MB) {}

  /** The bytes the items whose key starts with `prefix` take (all of them by default). */
  bytes(prefix = ""): number {
    let total = 0;
    for (const [key, value] of this.items) if (key.startsWith(prefix)) total += 2 * (key.length + value.length);
    return total;
  }

  private check(write: boolean): void {
    if (this.denied || (write ? this.writesDenied : this.readsDenied)) {
      this.refusals++;
      throw new Error("Storage is not available.");
    }
  }

  async getItem(key: string): Promise<string | null> {
    this.check(false);
    return this.items.get(key) ?? null;
  }
  async setItem(key: string, value: string): Promise<void> {
    await this.setItems({ [key]: value });
  }
  async getItems(keys: string[]): Promise<Record<string, string | null>> {
    this.check(false);
    return Object.fromEntries(keys.map((key) => [key, this.items.get(key) ?? null]));
  }
  async setItems(items: Record<string, string>): Promise<void> {
    this.check(true);
    let after = this.bytes();
    for (const [key, value] of Object.entries(items)) {
      const old = this.items.get(key);
      if (old !== undefined) after -= 2 * (key.length + old.length);
      after += 2 * (key.length + value.length);
    }
    if (after > this.quotaBytes) {
      this.refusals++;
      throw quotaError();
    }
    for (const [key, value] of Object.entries(items)) this.items.set(key, value);
  }
  async removeItems(keys: string[]): Promise<void> {
    this.check(true);
    for (const key of keys) this.items.delete(key);
  }
  async getKeys(): Promise<string[]> {
    this.check(false);
    return [...this.items.keys()];
  }
}
