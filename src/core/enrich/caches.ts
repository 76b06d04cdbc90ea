// The pipeline's two caches, in memory and in one persistent CacheStore, each with an age limit:
// record fields per record key (a field the service left out is cached as null, so it is not
// asked again), and what a match said per normalized key ("company:w:acme.com" -> id 42, or a
// miss and why), so a known website costs nothing on recalculation or when the workbook is
// opened again. "No such record" and misses are believed for a shorter time: a record may
// appear later. Both read the store once per key and write what memory holds (StoredEntries).
import type { KindName } from "./enrichKinds.js";

// ---------- the persistent store ----------

/**
 * Where cached enrichment results outlive the runtime: a budgeted area in IndexedDB where the
 * page has it, else in OfficeRuntime.storage or localStorage (src/office/persistentCache.ts);
 * memory in tests. Keys and values are strings.
 */
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

/** Parses stored text as JSON; anything damaged (another version, a truncated write) is a cache miss. */
function parseJsonObject(text: string): Record<string, unknown> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
}

/**
 * Entries in memory backed by the store: each key is read from the store once (found or not),
 * and written as memory holds it. A subclass says how a stored entry reads and how it joins
 * what memory already holds.
 */
abstract class StoredEntries<E> {
  protected readonly memory = new Map<string, E>();
  /** Keys already read from the persistent store (found or not). */
  private readonly loaded = new Set<string>();

  constructor(
    protected readonly store: CacheStore,
    /** The store's key for a cache key. */
    private readonly storeKey: (key: string) => string,
  ) {}

  /** Whether the persistent store was read for this key (found or not). */
  isLoaded(key: string): boolean {
    return this.loaded.has(key);
  }

  /** Reads these keys from the persistent store into memory, once per key. */
  async load(keys: readonly string[]): Promise<void> {
    const wanted = [...new Set(keys)].filter((key) => !this.loaded.has(key));
    if (wanted.length === 0) return;
    // Mark first so a failing store is not asked again for every cell.
    for (const key of wanted) this.loaded.add(key);
    const stored = await this.store.getMany(wanted.map(this.storeKey));
    for (const key of wanted) {
      const text = stored.get(this.storeKey(key));
      const entry = text === undefined ? undefined : this.parse(text);
      if (entry) this.merge(key, entry);
    }
  }

  /** Writes these keys (as they now are in memory) to the persistent store. */
  async persist(keys: readonly string[]): Promise<void> {
    const entries: [string, string][] = [];
    for (const key of new Set(keys)) {
      const entry = this.memory.get(key);
      if (entry) entries.push([this.storeKey(key), this.serialize(entry)]);
    }
    if (entries.length > 0) await this.store.setMany(entries);
  }

  /** Forgets what memory holds (the next read goes to the store again). */
  protected forget(): void {
    this.memory.clear();
    this.loaded.clear();
  }

  /** An entry as stored. */
  protected serialize(entry: E): string {
    return JSON.stringify(entry);
  }

  /** A stored entry, or undefined when it is damaged or foreign (a cache miss). */
  protected abstract parse(text: string): E | undefined;
  /** Joins a stored entry with what memory holds for its key. */
  protected abstract merge(key: string, stored: E): void;
}

// ---------- record fields ----------

/** One field value, when it was fetched (ms since epoch) and, for a kind whose answers expire (insights), until when it holds. */
type FieldEntry = [value: unknown, fetchedAt: number, until?: number];

/**
 * The stored records' format: an entry of another version (2: a signal's lists as records, where
 * version 1 held them as compact JSON text) reads as a miss, so it is fetched again and replaced.
 */
const RECORD_FORMAT = 2;

interface CachedRecord {
  fields: Record<string, FieldEntry>;
  /** When the service said there is no such record. */
  noMatchAt?: number;
  /** The status it said it with, when not NO_MATCH (e.g. OPT_OUT for a contact). */
  noMatchStatus?: string;
}

const RECORD_KEY_PREFIX = "biz-enrich:v1:";

/** How long a record enriched stays under management at the service: 12 months (docs/service.md, Credits). */
export const MANAGEMENT_WINDOW_MS = 365 * 24 * 60 * 60 * 1000;

export function recordKey(kind: KindName, id: number): string {
  return `${RECORD_KEY_PREFIX}${kind}:${id}`;
}

export interface CacheAges {
  now: () => number;
  maxAgeMs: number;
  /** How long "no such record" and a miss are believed (shorter: a record may appear later). */
  noMatchMaxAgeMs: number;
}

export class RecordCache extends StoredEntries<CachedRecord> {
  constructor(
    store: CacheStore,
    private readonly ages: CacheAges,
  ) {
    // A record key is its store key.
    super(store, (key) => key);
  }

  /** The fresh value of a field: `{ value }` (null when the service has none), or undefined. */
  get(key: string, field: string): { value: unknown } | undefined {
    const entry = this.memory.get(key)?.fields[field];
    if (!entry || this.ages.now() - entry[1] > this.ages.maxAgeMs || (entry[2] !== undefined && this.ages.now() >= entry[2])) return undefined;
    return { value: entry[0] };
  }

  hasFresh(key: string, fields: readonly string[]): boolean {
    return fields.every((field) => this.get(key, field) !== undefined);
  }

  isNoMatch(key: string): boolean {
    const at = this.memory.get(key)?.noMatchAt;
    return at !== undefined && this.ages.now() - at <= this.ages.noMatchMaxAgeMs;
  }

  /** The miss status when it was not plain NO_MATCH. */
  noMatchStatus(key: string): string | undefined {
    return this.memory.get(key)?.noMatchStatus;
  }

  /**
   * Whether this record was enriched within the 12 months a record stays under management (it
   * then costs no credit, docs/service.md); one fetched longer ago may cost one again.
   */
  wasEnriched(key: string): boolean {
    const record = this.memory.get(key);
    if (!record) return false;
    const since = this.ages.now() - MANAGEMENT_WINDOW_MS;
    return Object.values(record.fields).some((entry) => entry[1] >= since);
  }

  /** Stores the answer for the requested fields (until `until` when it expires); absent fields are stored as null. */
  putMatch(key: string, fields: readonly string[], attributes: Record<string, unknown>, until?: number): void {
    const now = this.ages.now();
    const record = this.memory.get(key) ?? { fields: {} };
    for (const field of fields) record.fields[field] = until === undefined ? [attributes[field] ?? null, now] : [attributes[field] ?? null, now, until];
    delete record.noMatchAt;
    delete record.noMatchStatus;
    this.memory.set(key, record);
  }

  putNoMatch(key: string, status: string): void {
    const record = this.memory.get(key) ?? { fields: {} };
    record.noMatchAt = this.ages.now();
    if (status !== "NO_MATCH") record.noMatchStatus = status;
    else delete record.noMatchStatus;
    this.memory.set(key, record);
  }

  /** Forgets memory and empties the store (the match cache shares it). */
  async clear(): Promise<void> {
    this.forget();
    await this.store.clear();
  }

  protected override serialize(entry: CachedRecord): string {
    return JSON.stringify({ format: RECORD_FORMAT, ...entry });
  }

  /** Newer values win. */
  protected merge(key: string, incoming: CachedRecord): void {
    const current = this.memory.get(key);
    if (!current) {
      this.memory.set(key, incoming);
      return;
    }
    for (const [field, entry] of Object.entries(incoming.fields)) {
      const mine = current.fields[field];
      if (!mine || mine[1] < entry[1]) current.fields[field] = entry;
    }
    if (incoming.noMatchAt !== undefined && (current.noMatchAt ?? 0) < incoming.noMatchAt) {
      current.noMatchAt = incoming.noMatchAt;
      if (incoming.noMatchStatus !== undefined) current.noMatchStatus = incoming.noMatchStatus;
    }
  }

  protected parse(text: string): CachedRecord | undefined {
    const candidate = parseJsonObject(text);
    if (candidate?.format !== RECORD_FORMAT || typeof candidate.fields !== "object" || candidate.fields === null) return undefined;
    const fields: Record<string, FieldEntry> = {};
    for (const [field, entry] of Object.entries(candidate.fields as Record<string, unknown>)) {
      if (Array.isArray(entry) && entry.length === 2 && typeof entry[1] === "number") fields[field] = [entry[0], entry[1]];
      else if (Array.isArray(entry) && entry.length === 3 && typeof entry[1] === "number" && typeof entry[2] === "number")
        fields[field] = [entry[0], entry[1], entry[2]];
    }
    const record: CachedRecord = { fields };
    if (typeof candidate.noMatchAt === "number") record.noMatchAt = candidate.noMatchAt;
    if (typeof candidate.noMatchStatus === "string") record.noMatchStatus = candidate.noMatchStatus;
    return record;
  }
}

// ---------- matches ----------

export type MatchMiss = "noMatch" | "ambiguous" | "invalidInput";

interface MatchEntry {
  id?: number;
  miss?: MatchMiss;
  /** The sentence shown for a miss. */
  message?: string;
  at: number;
}

/**
 * Under the record keys' "biz-enrich:" like every cache key, so the host store's clear() (which
 * removes only those) forgets known matches too.
 */
const MATCH_KEY_PREFIX = "biz-enrich:match:v1:";
const MISSES: ReadonlySet<string> = new Set<MatchMiss>(["noMatch", "ambiguous", "invalidInput"]);

export type KnownMatch = { id: number } | { miss: MatchMiss; message: string };

export class MatchCache extends StoredEntries<MatchEntry> {
  constructor(
    store: CacheStore,
    private readonly ages: CacheAges,
  ) {
    super(store, (key) => MATCH_KEY_PREFIX + key);
  }

  /** The fresh answer for a key, or undefined when it must be asked. */
  get(key: string): KnownMatch | undefined {
    const entry = this.memory.get(key);
    if (!entry) return undefined;
    const age = this.ages.now() - entry.at;
    if (entry.id !== undefined) return age <= this.ages.maxAgeMs ? { id: entry.id } : undefined;
    if (entry.miss !== undefined && age <= this.ages.noMatchMaxAgeMs) return { miss: entry.miss, message: entry.message ?? "" };
    return undefined;
  }

  putId(key: string, id: number): void {
    this.memory.set(key, { id, at: this.ages.now() });
  }

  putMiss(key: string, miss: MatchMiss, message: string): void {
    this.memory.set(key, { miss, message, at: this.ages.now() });
  }

  /** Forgets a miss, so the key is asked again (a retry after the user said so). */
  forgetMiss(key: string): void {
    if (this.memory.get(key)?.miss !== undefined) this.memory.delete(key);
  }

  /** Forgets what memory holds (the store is cleared with the record cache: they share it). */
  clear(): void {
    this.forget();
  }

  /** The newer answer wins. */
  protected merge(key: string, stored: MatchEntry): void {
    const mine = this.memory.get(key);
    if (!mine || mine.at < stored.at) this.memory.set(key, stored);
  }

  protected parse(text: string): MatchEntry | undefined {
    const candidate = parseJsonObject(text);
    if (typeof candidate?.at !== "number") return undefined;
    if (typeof candidate.id === "number" && Number.isSafeInteger(candidate.id) && candidate.id > 0) return { id: candidate.id, at: candidate.at };
    if (typeof candidate.miss === "string" && MISSES.has(candidate.miss)) {
      return { miss: candidate.miss as MatchMiss, message: typeof candidate.message === "string" ? candidate.message : "", at: candidate.at };
    }
    return undefined;
  }
}
