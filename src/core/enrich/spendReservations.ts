// The daily cap on new records, applied per record: a record that may cost a credit reserves
// one before its request leaves. The reservation is given back only when the record is known
// NOT to have been charged: a no-match, a refusal (the service answered 4xx), or a request that
// never left. When a request was lost after it left (dropped connection, timeout, 5xx, an answer
// that could not be read) the service may have charged, so the reservation stays with the record
// until a later answer for it settles it: matched (the credit stands, and a repeat is free) or a
// miss (given back). So the cap holds even when answers are lost.
// Matching by website, name or email spends the same way, but the record is unknown until the
// answer: each input sent reserves a unit under its input key, settled when the answer names the
// record (kept for a record new to management, given back for one managed or already counted).
// The count itself (SpendGuard) is the user's own cap on new records enriched per day: records
// already under management (enriched before, or shown so in search results) cost nothing and do
// not count.
import { Type, type Static } from "@sinclair/typebox";
import type { Logger } from "../api/types.js";
import { compiledCheck } from "../contract/index.js";
import { isServiceErrorLike } from "./problems.js";

// ---------- the stored count ----------
// Its shape is a TypeBox schema: the count kept in the user's storage is checked with the
// contract's validator when it is read back.

const SpendStateSchema = Type.Object({
  /** UTC day the count belongs to, YYYY-MM-DD. */
  day: Type.String(),
  /** New records requested on that day. */
  used: Type.Number({ minimum: 0 }),
  /** New records allowed per day. */
  cap: Type.Number({ minimum: 0 }),
});

/** Today's count, as stored. */
export type SpendState = Static<typeof SpendStateSchema>;

const isSpendState = (value: unknown): value is SpendState => compiledCheck(SpendStateSchema).Check(value);

/** Reads a stored count; anything damaged counts as none (the day starts from zero, default cap). */
export function parseSpendState(text: string | null | undefined): SpendState | undefined {
  if (typeof text !== "string") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isSpendState(value) ? { day: value.day, used: value.used, cap: value.cap } : undefined;
}

// ---------- today's count against the cap ----------

/** Per-user persistence of the spend state (OfficeRuntime.storage / browser storage; memory in tests). */
export interface SpendStore {
  load(): Promise<SpendState | undefined>;
  save(state: SpendState): Promise<void>;
}

export class MemorySpendStore implements SpendStore {
  state: SpendState | undefined;
  async load(): Promise<SpendState | undefined> {
    return this.state ? { ...this.state } : undefined;
  }
  async save(state: SpendState): Promise<void> {
    this.state = { ...state };
  }
}

export const DEFAULT_DAILY_NEW_RECORD_CAP = 1000;

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Today's count of new records against the cap, rolled over at the UTC day's end, read and saved
 * whole. The count in memory is the session's truth; when the stored count cannot be read, or the
 * last save failed, nothing new is granted (the cap counts as reached) until a read or a save
 * succeeds: a lost count must never let the day's cap be passed, in this session or the next.
 */
class SpendGuard {
  private state: SpendState;
  private loaded: Promise<void> | undefined;
  /** The stored count was read (or nothing is stored): only then can the allowance be known. */
  private known: boolean;
  /** The last save failed: a restart would read an older, lower count. */
  private unsaved = false;

  constructor(
    private readonly store: SpendStore,
    private readonly now: () => number,
    defaultCap: number,
    stored: boolean,
  ) {
    this.state = { day: utcDay(now()), used: 0, cap: defaultCap };
    this.known = !stored;
  }

  /** Reads the stored state once (a stored cap set by the user wins over the default); a failed read is tried again next time. */
  ensureLoaded(): Promise<void> {
    this.loaded ??= this.store.load().then(
      (stored) => {
        if (stored && Number.isFinite(stored.cap) && Number.isFinite(stored.used)) this.state = this.merged(stored);
        this.known = true;
      },
      (error: unknown) => {
        this.loaded = undefined;
        throw error;
      },
    );
    return this.loaded;
  }

  /** Whether the stored count has been read. */
  isKnown(): boolean {
    return this.known;
  }

  /** Whether new records may be granted: the count is known and saved. */
  trusted(): boolean {
    return this.known && !this.unsaved;
  }

  /** Today's count; while it cannot be trusted, as if the cap were reached. */
  status(): SpendState {
    this.rollOver();
    return this.trusted() ? { ...this.state } : { ...this.state, used: Math.max(this.state.used, this.state.cap) };
  }

  /** Takes up to `count` new records from today's allowance; returns how many were granted. */
  reserve(count: number): number {
    this.rollOver();
    if (!this.trusted()) return 0;
    const granted = Math.max(0, Math.min(count, this.state.cap - this.state.used));
    this.state.used += granted;
    return granted;
  }

  release(count: number): void {
    this.rollOver();
    this.state.used = Math.max(0, this.state.used - count);
  }

  setCap(cap: number): void {
    if (!Number.isSafeInteger(cap) || cap < 0) throw new RangeError("The daily cap must be a whole number of 0 or more");
    this.rollOver();
    this.state.cap = cap;
  }

  /** Saves the count; never before it was read (that would write over the stored count). */
  async save(): Promise<void> {
    if (!this.known) return;
    try {
      await this.store.save({ ...this.state });
      this.unsaved = false;
    } catch (error) {
      this.unsaved = true;
      throw error;
    }
  }

  /** A count read after this session already counted (a retried read): the higher use of the day wins. */
  private merged(stored: SpendState): SpendState {
    return { ...stored, used: stored.day === this.state.day ? Math.max(stored.used, this.state.used) : stored.used };
  }

  private rollOver(): void {
    const today = utcDay(this.now());
    if (this.state.day !== today) this.state = { day: today, used: 0, cap: this.state.cap };
  }
}

/** Failures the service answered with a refusal: nothing was charged. */
const REFUSED_KINDS: ReadonlySet<string> = new Set(["validation", "unauthorized", "paymentRequired", "forbidden", "notFound", "rateLimited"]);

/** Where a match input's unit is held, apart from the record keys. */
function inputSlot(inputKey: string): string {
  return `input:${inputKey}`;
}

/** Whether a failure of a request that left means the service surely charged nothing. */
function knownNotCharged(error: unknown): boolean {
  return isServiceErrorLike(error) && REFUSED_KINDS.has(error.kind);
}

export class SpendReservations {
  private readonly guard: SpendGuard;
  /** Records known to be under management (enriched in this runtime or shown so in results). */
  private readonly managed = new Set<string>();
  /** New records counted against today's cap whose charge is not settled yet. */
  private readonly reserved = new Set<string>();
  /** The latest save of the count. */
  private saving: Promise<void> = Promise.resolve();

  constructor(
    store: SpendStore | undefined,
    now: () => number,
    cap: number | undefined,
    private readonly track: (work: Promise<unknown>) => void,
    private readonly log?: Logger,
  ) {
    // With no store, nothing is kept between sessions: the count starts known at zero.
    this.guard = new SpendGuard(store ?? new MemorySpendStore(), now, cap ?? DEFAULT_DAILY_NEW_RECORD_CAP, store !== undefined);
  }

  async load(): Promise<void> {
    // The last save settles first: if it failed, this pass grants nothing new.
    await this.saving;
    try {
      await this.guard.ensureLoaded();
    } catch (error) {
      this.warn("Reading the daily record count failed; no new records until it can be read", error);
    }
  }

  status(): SpendState {
    return this.guard.status();
  }

  async setCap(cap: number): Promise<void> {
    await this.load();
    if (!this.guard.isKnown()) throw new Error("Today's count could not be read on this computer, so the limit can't be changed now. Try again later.");
    this.guard.setCap(cap);
    await this.guard.save();
  }

  markManaged(key: string): void {
    this.managed.add(key);
  }

  isManaged(key: string, enrichedBefore: boolean): boolean {
    return enrichedBefore || this.managed.has(key);
  }

  /**
   * Reserves today's allowance for the records among `keys` that may cost a credit (not managed,
   * not already holding a reservation); returns the ones refused.
   */
  reserve(keys: readonly string[], isManaged: (key: string) => boolean): Set<string> {
    const fresh = keys.filter((key) => !isManaged(key) && !this.reserved.has(key));
    const refused = new Set<string>();
    if (fresh.length === 0) return refused;
    if (!this.guard.trusted()) {
      // The count could not be read (the next load tries again) or saved (try now): nothing new until it is kept.
      this.save();
      for (const key of fresh) refused.add(key);
      return refused;
    }
    const granted = this.guard.reserve(fresh.length);
    for (const [index, key] of fresh.entries()) {
      if (index < granted) this.reserved.add(key);
      else refused.add(key);
    }
    this.save();
    return refused;
  }

  /** The record was charged (matched): its reservation stays counted, and it is under management now. */
  charged(key: string): void {
    this.reserved.delete(key);
    this.managed.add(key);
  }

  /**
   * The service's own figure settles a run: today's count took `counted` for it and the service
   * charged `charged` credits meanwhile (its usage, read before and after). What was counted but
   * not charged (records the organization already had under management) goes back.
   */
  async settle(counted: number, charged: number): Promise<void> {
    await this.load();
    const extra = Math.floor(counted) - Math.max(0, Math.ceil(charged));
    if (extra <= 0) return;
    this.guard.release(extra);
    this.save();
  }

  /** The record was known not to be charged: its reservation goes back. */
  notCharged(key: string): void {
    if (this.reserved.delete(key)) {
      this.guard.release(1);
      this.save();
    }
  }

  /** A request holding the record failed: give back only what surely was not charged. */
  failed(key: string, error: unknown): void {
    if (knownNotCharged(error)) this.notCharged(key);
    // Otherwise the reservation stays with the record until a later answer settles it.
  }

  /**
   * Reserves one unit for each match input about to be sent, its record not known yet; returns
   * the inputs refused. An input still holding a unit (its earlier request was lost) takes none.
   */
  reserveInputs(inputKeys: readonly string[]): Set<string> {
    const refused = this.reserve(inputKeys.map(inputSlot), () => false);
    return new Set(inputKeys.filter((key) => refused.has(inputSlot(key))));
  }

  /**
   * The input matched `recordKey`. A record new to management keeps the input's unit and counts
   * as charged; one already managed, or already holding its own reservation, gives the unit back.
   */
  inputMatched(inputKey: string, recordKey: string, enrichedBefore: boolean): void {
    const held = this.reserved.delete(inputSlot(inputKey));
    const counted = this.isManaged(recordKey, enrichedBefore) || this.reserved.has(recordKey);
    this.charged(recordKey);
    if (held && counted) {
      this.guard.release(1);
      this.save();
    }
  }

  /** The input found no record (or the service refused it): its unit goes back. */
  inputNotCharged(inputKey: string): void {
    this.notCharged(inputSlot(inputKey));
  }

  /** The input's request failed: its unit goes back only when surely nothing was charged. */
  inputFailed(inputKey: string, error: unknown): void {
    this.failed(inputSlot(inputKey), error);
  }

  private save(): void {
    this.saving = this.guard.save().catch((error: unknown) => this.warn("Saving the daily record count failed; no new records until it is saved", error));
    this.track(this.saving);
  }

  private warn(message: string, error: unknown): void {
    this.log?.({ level: "warn", message, data: { error: error instanceof Error ? error.message : String(error) } });
  }
}
