// JSON values kept one per key in a key-value store (briefings, buying committees): each read
// once into memory, and a value that does not parse, fails its check or is not the one asked for
// reads as missing, so a damaged or stale entry is fetched again rather than shown.
import type { KeyValueItems } from "./keyValue.js";

export interface JsonItems<T> {
  /** The value under `key`, when it parses, passes the check and `belongs` (the one asked for). */
  get(key: string, belongs: (value: T) => boolean): Promise<T | undefined>;
  put(key: string, value: T): Promise<void>;
}

export function jsonItems<T>(storage: KeyValueItems, isValid: (value: unknown) => value is T): JsonItems<T> {
  const memory = new Map<string, T>();
  return {
    async get(key, belongs) {
      const known = memory.get(key);
      if (known) return known;
      const text = await storage.getItem(key);
      if (text === null) return undefined;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return undefined;
      }
      if (!isValid(value) || !belongs(value)) return undefined;
      memory.set(key, value);
      return value;
    },
    async put(key, value) {
      memory.set(key, value);
      await storage.setItem(key, JSON.stringify(value));
    },
  };
}
