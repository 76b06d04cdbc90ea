// The user's own cap on new records enriched per day. A new record costs a credit; records
// already under management (enriched before, or shown so in search results) cost nothing and
// do not count. Reservations are made before a request and given back for records the
// service did not charge (no match, errors).
import type { SpendState } from "./spendState.js";

/** Its shape is the stored schema (spendState.ts). */
export type { SpendState } from "./spendState.js";

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

export class SpendGuard {
  private state: SpendState;
  private loaded: Promise<void> | undefined;

  constructor(
    private readonly store: SpendStore,
    private readonly now: () => number,
    defaultCap: number,
  ) {
    this.state = { day: utcDay(now()), used: 0, cap: defaultCap };
  }

  /** Reads the stored state once (a stored cap set by the user wins over the default). */
  ensureLoaded(): Promise<void> {
    this.loaded ??= this.store.load().then((stored) => {
      if (stored && Number.isFinite(stored.cap) && Number.isFinite(stored.used)) this.state = { ...stored };
    });
    return this.loaded;
  }

  status(): SpendState {
    this.rollOver();
    return { ...this.state };
  }

  /** Takes up to `count` new records from today's allowance; returns how many were granted. */
  reserve(count: number): number {
    this.rollOver();
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

  save(): Promise<void> {
    return this.store.save({ ...this.state });
  }

  private rollOver(): void {
    const today = utcDay(this.now());
    if (this.state.day !== today) this.state = { day: today, used: 0, cap: this.state.cap };
  }
}
