// What a match said, per normalized key ("company:w:acme.com" -> id 42, or a miss and why), in
// memory and in the same persistent CacheStore as the record fields, so a known website costs
// nothing on recalculation or when the workbook is opened again. Misses are believed for a
// shorter time: the service may learn the company later.
import type { CacheStore } from "./cacheStore.js";

export type MatchMiss = "noMatch" | "ambiguous" | "invalidInput";

interface MatchEntry {
  id?: number;
  miss?: MatchMiss;
  /** The sentence shown for a miss. */
  message?: string;
  at: number;
}

const KEY_PREFIX = "biz-match:v1:";

export interface MatchCacheOptions {
  store: CacheStore;
  now: () => number;
  maxAgeMs: number;
  missMaxAgeMs: number;
}

export type KnownMatch = { id: number } | { miss: MatchMiss; message: string };

export class MatchCache {
  private readonly memory = new Map<string, MatchEntry>();
  private readonly loaded = new Set<string>();

  constructor(private readonly options: MatchCacheOptions) {}

  /** Whether the persistent store was read for this key (found or not). */
  isLoaded(key: string): boolean {
    return this.loaded.has(key);
  }

  async load(keys: readonly string[]): Promise<void> {
    const wanted = [...new Set(keys)].filter((key) => !this.loaded.has(key));
    if (wanted.length === 0) return;
    for (const key of wanted) this.loaded.add(key);
    const stored = await this.options.store.getMany(wanted.map((key) => KEY_PREFIX + key));
    for (const key of wanted) {
      const entry = parseEntry(stored.get(KEY_PREFIX + key));
      const mine = this.memory.get(key);
      if (entry && (!mine || mine.at < entry.at)) this.memory.set(key, entry);
    }
  }

  /** The fresh answer for a key, or undefined when it must be asked. */
  get(key: string): KnownMatch | undefined {
    const entry = this.memory.get(key);
    if (!entry) return undefined;
    const age = this.options.now() - entry.at;
    if (entry.id !== undefined) return age <= this.options.maxAgeMs ? { id: entry.id } : undefined;
    if (entry.miss !== undefined && age <= this.options.missMaxAgeMs) return { miss: entry.miss, message: entry.message ?? "" };
    return undefined;
  }

  putId(key: string, id: number): void {
    this.memory.set(key, { id, at: this.options.now() });
  }

  putMiss(key: string, miss: MatchMiss, message: string): void {
    this.memory.set(key, { miss, message, at: this.options.now() });
  }

  /** Forgets a miss, so the key is asked again (a retry after the user said so). */
  forgetMiss(key: string): void {
    if (this.memory.get(key)?.miss !== undefined) this.memory.delete(key);
  }

  /** Forgets what memory holds (the store is cleared with the record cache: they share it). */
  clear(): void {
    this.memory.clear();
    this.loaded.clear();
  }

  async persist(keys: readonly string[]): Promise<void> {
    const entries: [string, string][] = [];
    for (const key of new Set(keys)) {
      const entry = this.memory.get(key);
      if (entry) entries.push([KEY_PREFIX + key, JSON.stringify(entry)]);
    }
    if (entries.length > 0) await this.options.store.setMany(entries);
  }
}

const MISSES: ReadonlySet<string> = new Set<MatchMiss>(["noMatch", "ambiguous", "invalidInput"]);

/** A damaged or foreign entry is a cache miss: the key is asked again. */
function parseEntry(text: string | undefined): MatchEntry | undefined {
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const candidate = parsed as Record<string, unknown>;
  if (typeof candidate.at !== "number") return undefined;
  if (typeof candidate.id === "number" && Number.isSafeInteger(candidate.id) && candidate.id > 0) return { id: candidate.id, at: candidate.at };
  if (typeof candidate.miss === "string" && MISSES.has(candidate.miss)) {
    return { miss: candidate.miss as MatchMiss, message: typeof candidate.message === "string" ? candidate.message : "", at: candidate.at };
  }
  return undefined;
}
