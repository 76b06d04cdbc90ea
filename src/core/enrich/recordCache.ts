// Enrichment results per record id and field, in memory and in a persistent CacheStore, with an
// age limit. A field the service left out (no value) is cached as null so it is not asked again.
import type { CacheStore } from "./cacheStore.js";
import type { EntityKind } from "./fields.js";

/** One field value and when it was fetched (ms since epoch). */
type FieldEntry = [value: unknown, fetchedAt: number];

interface CachedRecord {
  fields: Record<string, FieldEntry>;
  /** When the service said there is no such record. */
  noMatchAt?: number;
  /** The status it said it with, when not NO_MATCH (e.g. OPT_OUT for a contact). */
  noMatchStatus?: string;
}

const KEY_PREFIX = "biz-enrich:v1:";

export function recordKey(kind: EntityKind, id: number): string {
  return `${KEY_PREFIX}${kind}:${id}`;
}

export interface RecordCacheOptions {
  store: CacheStore;
  now: () => number;
  maxAgeMs: number;
  /** How long "no such record" is believed (shorter: a record may appear later). */
  noMatchMaxAgeMs: number;
}

export class RecordCache {
  private readonly memory = new Map<string, CachedRecord>();
  /** Keys already read from the persistent store (found or not). */
  private readonly loaded = new Set<string>();

  constructor(private readonly options: RecordCacheOptions) {}

  isLoaded(key: string): boolean {
    return this.loaded.has(key);
  }

  /** Reads records from the persistent store into memory (newer values win). */
  async load(keys: readonly string[]): Promise<void> {
    const wanted = [...new Set(keys)].filter((key) => !this.loaded.has(key));
    if (wanted.length === 0) return;
    // Mark first so a failing store is not asked again for every cell.
    for (const key of wanted) this.loaded.add(key);
    const stored = await this.options.store.getMany(wanted);
    for (const [key, text] of stored) {
      const record = parseRecord(text);
      if (record) this.merge(key, record);
    }
  }

  /** The fresh value of a field: `{ value }` (null when the service has none), or undefined. */
  get(key: string, field: string): { value: unknown } | undefined {
    const entry = this.memory.get(key)?.fields[field];
    if (!entry || this.options.now() - entry[1] > this.options.maxAgeMs) return undefined;
    return { value: entry[0] };
  }

  hasFresh(key: string, fields: readonly string[]): boolean {
    return fields.every((field) => this.get(key, field) !== undefined);
  }

  isNoMatch(key: string): boolean {
    const at = this.memory.get(key)?.noMatchAt;
    return at !== undefined && this.options.now() - at <= this.options.noMatchMaxAgeMs;
  }

  /** The miss status when it was not plain NO_MATCH. */
  noMatchStatus(key: string): string | undefined {
    return this.memory.get(key)?.noMatchStatus;
  }

  /** Whether this record was ever enriched (it is then under management, so costs no credit). */
  wasEnriched(key: string): boolean {
    const record = this.memory.get(key);
    return record !== undefined && Object.keys(record.fields).length > 0;
  }

  /** Stores the answer for the requested fields; absent fields are stored as null. */
  putMatch(key: string, fields: readonly string[], attributes: Record<string, unknown>): void {
    const now = this.options.now();
    const record = this.memory.get(key) ?? { fields: {} };
    for (const field of fields) record.fields[field] = [attributes[field] ?? null, now];
    delete record.noMatchAt;
    delete record.noMatchStatus;
    this.memory.set(key, record);
  }

  putNoMatch(key: string, status: string): void {
    const record = this.memory.get(key) ?? { fields: {} };
    record.noMatchAt = this.options.now();
    if (status !== "NO_MATCH") record.noMatchStatus = status;
    else delete record.noMatchStatus;
    this.memory.set(key, record);
  }

  /** Writes these records (as they now are in memory) to the persistent store. */
  async persist(keys: readonly string[]): Promise<void> {
    const entries: [string, string][] = [];
    for (const key of new Set(keys)) {
      const record = this.memory.get(key);
      if (record) entries.push([key, JSON.stringify(record)]);
    }
    if (entries.length > 0) await this.options.store.setMany(entries);
  }

  async clear(): Promise<void> {
    this.memory.clear();
    this.loaded.clear();
    await this.options.store.clear();
  }

  private merge(key: string, incoming: CachedRecord): void {
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
}

/** Reads a stored record; anything malformed (another version, a truncated write) is ignored. */
function parseRecord(text: string): CachedRecord | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined; // a damaged entry is a cache miss: the value is fetched again
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const candidate = parsed as { fields?: unknown; noMatchAt?: unknown; noMatchStatus?: unknown };
  if (typeof candidate.fields !== "object" || candidate.fields === null) return undefined;
  const fields: Record<string, FieldEntry> = {};
  for (const [field, entry] of Object.entries(candidate.fields as Record<string, unknown>)) {
    if (Array.isArray(entry) && entry.length === 2 && typeof entry[1] === "number") fields[field] = [entry[0], entry[1]];
  }
  const record: CachedRecord = { fields };
  if (typeof candidate.noMatchAt === "number") record.noMatchAt = candidate.noMatchAt;
  if (typeof candidate.noMatchStatus === "string") record.noMatchStatus = candidate.noMatchStatus;
  return record;
}
