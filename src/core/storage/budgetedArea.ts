// A cache area of the key-value port that stays inside a byte budget: every key starts with the
// area's prefix, each entry's size is measured (its key, its value and its row in the area's index),
// and when a write would pass the budget the entries written before the management window are
// evicted first, then the least recently used. The index (size, last use, last write per key) is
// kept under one key of the area, so the order survives a restart; keys the index does not know
// (written by an older version, or by another Excel window on the same storage) are measured
// and adopted as the oldest when the area opens. A failing read or write is passed to
// `onFailure` and the area goes on: a cache that cannot be kept costs only speed.
import type { KeyValueStorage } from "./keyValue.js";
import { storedBytes } from "./budget.js";

export interface BudgetedAreaOptions {
  /** Every key of the area starts with this; the index lives under `${prefix}#index`. */
  prefix: string;
  budgetBytes: number;
  now: () => number;
  /** Entries last written longer ago than this are evicted before any other (the management window). */
  staleAfterMs?: number;
  /** A read or write of the host's storage failed (told each time; the caller says it once). */
  onFailure?: (error: unknown) => void;
}

/** The part of a cache store the area offers (core/enrich's CacheStore has this shape). */
export interface BudgetedArea {
  getMany(keys: readonly string[]): Promise<Map<string, string>>;
  setMany(entries: ReadonlyArray<readonly [string, string]>): Promise<void>;
  clear(): Promise<void>;
  /** The bytes the area is counted at now (entries and their index rows). */
  usedBytes(): Promise<number>;
  /** Halves the area for the rest of the session (a small item sharing its store was refused); true when it freed room. */
  giveRoom(): Promise<boolean>;
}

interface Slot {
  bytes: number;
  usedAt: number;
  writtenAt: number;
}

/** Characters an index row takes besides its key: `["…",123456,1700000000,1700000000],`. */
const INDEX_ROW_CHARS = 40;
/** The host is written in modest batches (OfficeRuntime.storage loses items under large bursts). */
const WRITE_BATCH = 200;
const INDEX_FORMAT = 1;
/**
 * The index is rewritten after this many writes or this long (by the area's clock), not at each
 * write: in IndexedDB it has tens of thousands of rows. An index a crash left behind only costs
 * the keys it misses being measured again and counted as the oldest.
 */
const INDEX_EVERY_WRITES = 50;
const INDEX_EVERY_MS = 10_000;

type Storage = Pick<KeyValueStorage, "getItem" | "setItem" | "getItems" | "setItems" | "removeItems" | "getKeys">;

export function createBudgetedArea(storage: Storage, options: BudgetedAreaOptions): BudgetedArea {
  return new Area(storage, options);
}

/** Reads the stored index: key suffix -> slot, in least-recently-used order; damaged reads as empty. */
function parseIndex(text: string | null | undefined, prefix: string): Map<string, Slot> {
  const slots = new Map<string, Slot>();
  if (typeof text !== "string") return slots;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return slots;
  }
  const rows = (parsed as { v?: unknown; e?: unknown } | null)?.e;
  if ((parsed as { v?: unknown }).v !== INDEX_FORMAT || !Array.isArray(rows)) return slots;
  for (const row of rows as unknown[]) {
    if (!Array.isArray(row) || typeof row[0] !== "string" || !row.slice(1, 4).every((n) => typeof n === "number")) continue;
    const [suffix, bytes, usedAt, writtenAt] = row as [string, number, number, number];
    slots.set(prefix + suffix, { bytes, usedAt: usedAt * 1000, writtenAt: writtenAt * 1000 });
  }
  return slots;
}

class Area implements BudgetedArea {
  /** In least-recently-used order: the first is evicted first. */
  private slots = new Map<string, Slot>();
  /** Counted bytes: the index's fixed part, then each slot. */
  private total: number;
  private readonly indexBase: number;
  private limit: number;
  private opened: Promise<boolean> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly indexKey: string;
  private writesSinceIndex = 0;
  private indexWrittenAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly storage: Storage,
    private readonly options: BudgetedAreaOptions,
  ) {
    this.limit = options.budgetBytes;
    this.indexKey = `${options.prefix}#index`;
    this.indexBase = storedBytes(this.indexKey, JSON.stringify({ v: INDEX_FORMAT, e: [] }));
    this.total = this.indexBase;
  }

  getMany(keys: readonly string[]): Promise<Map<string, string>> {
    return this.serial(async () => {
      const found = new Map<string, string>();
      if (keys.length === 0 || !(await this.ready())) return found;
      const items = await this.attempt(() => this.storage.getItems([...keys]));
      for (const key of keys) {
        const value = items?.[key];
        if (typeof value !== "string") continue;
        found.set(key, value);
        this.place(key, { bytes: this.slotBytes(key, value), usedAt: this.options.now(), writtenAt: this.slots.get(key)?.writtenAt ?? 0 });
      }
      return found;
    });
  }

  setMany(entries: ReadonlyArray<readonly [string, string]>): Promise<void> {
    return this.serial(async () => {
      if (entries.length === 0 || !(await this.ready())) return;
      const now = this.options.now();
      const fresh: Record<string, string> = {};
      for (const [key, value] of entries) {
        const bytes = this.slotBytes(key, value);
        // An entry larger than the whole area is not kept at all.
        if (!key.startsWith(this.options.prefix) || bytes > this.limit) continue;
        this.place(key, { bytes, usedAt: now, writtenAt: now });
        fresh[key] = value;
      }
      await this.write(fresh, this.evict());
    });
  }

  clear(): Promise<void> {
    return this.serial(async () => {
      this.slots = new Map();
      this.total = this.indexBase;
      this.limit = this.options.budgetBytes;
      await this.attempt(async () => {
        const keys = (await this.storage.getKeys()).filter((key) => key.startsWith(this.options.prefix));
        if (keys.length > 0) await this.storage.removeItems(keys);
      });
    });
  }

  usedBytes(): Promise<number> {
    return this.serial(async () => ((await this.ready()) ? this.total : this.indexBase));
  }

  giveRoom(): Promise<boolean> {
    return this.serial(async () => {
      if (!(await this.ready())) return false;
      const before = this.total;
      await this.shrink([]);
      return this.total < before;
    });
  }

  /** One operation at a time: the index and the host agree, and the host never sees a burst. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Runs a host call; a failure is told and reads as undefined. */
  private async attempt<T>(call: () => Promise<T>): Promise<T | undefined> {
    try {
      return await call();
    } catch (error) {
      this.options.onFailure?.(error);
      return undefined;
    }
  }

  /** Opens the area once (retried after a failure); false while the host cannot be read. */
  private ready(): Promise<boolean> {
    this.opened ??= this.attempt(() => this.open()).then((ok) => {
      if (!ok) this.opened = undefined;
      return ok === true;
    });
    return this.opened;
  }

  private async open(): Promise<true> {
    const { prefix } = this.options;
    const keys = (await this.storage.getKeys()).filter((key) => key.startsWith(prefix) && key !== this.indexKey);
    const indexed = parseIndex(await this.storage.getItem(this.indexKey), prefix);
    const present = new Set(keys);
    // Unknown keys first: the oldest, evicted before anything the index knows.
    await this.adopt(keys.filter((key) => !indexed.has(key)));
    for (const [key, slot] of indexed) if (present.has(key)) this.place(key, slot);
    if (this.total > this.limit) await this.write({}, this.evict());
    return true;
  }

  /** Measures keys the index does not know, in batches, and places them as the oldest. */
  private async adopt(keys: readonly string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += WRITE_BATCH) {
      const batch = keys.slice(start, start + WRITE_BATCH);
      const items = await this.storage.getItems(batch);
      for (const key of batch) {
        const value = items[key];
        if (typeof value === "string") this.place(key, { bytes: this.slotBytes(key, value), usedAt: 0, writtenAt: 0 });
      }
    }
  }

  private slotBytes(key: string, value: string): number {
    return storedBytes(key, value) + 2 * (key.length - this.options.prefix.length + INDEX_ROW_CHARS);
  }

  /** Puts a slot last in the order (the most recently used). */
  private place(key: string, slot: Slot): void {
    const old = this.slots.get(key);
    if (old) {
      this.total -= old.bytes;
      this.slots.delete(key);
    }
    this.slots.set(key, slot);
    this.total += slot.bytes;
  }

  private drop(key: string): void {
    const slot = this.slots.get(key);
    if (!slot) return;
    this.total -= slot.bytes;
    this.slots.delete(key);
  }

  /** Removes slots until the area fits: past the management window first, then least recently used. */
  private evict(): string[] {
    const victims: string[] = [];
    const { staleAfterMs } = this.options;
    if (this.total > this.limit && staleAfterMs !== undefined) {
      const before = this.options.now() - staleAfterMs;
      for (const [key, slot] of this.slots) if (slot.writtenAt < before) victims.push(key);
      for (const key of victims) this.drop(key);
    }
    for (const key of this.slots.keys()) {
      if (this.total <= this.limit) break;
      victims.push(key);
      this.drop(key);
    }
    return victims;
  }

  /** Removes the victims, writes the fresh entries and the index; on a refusal, shrinks the area. */
  private async write(fresh: Record<string, string>, victims: readonly string[]): Promise<void> {
    const entries = Object.entries(fresh);
    try {
      if (victims.length > 0) await this.storage.removeItems([...victims]);
      for (let start = 0; start < entries.length; start += WRITE_BATCH) {
        await this.storage.setItems(Object.fromEntries(entries.slice(start, start + WRITE_BATCH)));
      }
      await this.saveIndex(false);
    } catch (error) {
      this.options.onFailure?.(error);
      await this.shrink(entries.map(([key]) => key));
    }
  }

  /** Rewrites the index when it is due (or now, when `force`). */
  private async saveIndex(force: boolean): Promise<void> {
    const now = this.options.now();
    this.writesSinceIndex++;
    if (!force && this.writesSinceIndex < INDEX_EVERY_WRITES && now - this.indexWrittenAt < INDEX_EVERY_MS) return;
    await this.storage.setItem(this.indexKey, this.indexText());
    this.writesSinceIndex = 0;
    this.indexWrittenAt = now;
  }

  /**
   * The host refused (its quota is shared with the small items and other add-ins): the fresh
   * entries are given up, and the area halves, so the room goes back to what must be saved.
   */
  private async shrink(fresh: readonly string[]): Promise<void> {
    for (const key of fresh) this.drop(key);
    this.limit = Math.floor(this.total / 2);
    const victims = [...fresh, ...this.evict()];
    await this.attempt(async () => {
      await this.storage.removeItems(victims);
      await this.saveIndex(true);
    });
  }

  private indexText(): string {
    const cut = this.options.prefix.length;
    const rows = [...this.slots].map(([key, s]) => [key.slice(cut), s.bytes, Math.floor(s.usedAt / 1000), Math.floor(s.writtenAt / 1000)]);
    return JSON.stringify({ v: INDEX_FORMAT, e: rows });
  }
}
