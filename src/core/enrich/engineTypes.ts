// What the enrichment pipeline offers the cell functions, the task pane and the runtime.
import type { Clock, Logger } from "../api/types.js";
import type { CacheStore, MatchMiss } from "./caches.js";
import type { EnrichClient, EnrichmentKind, EntityKind, KindName } from "./enrichKinds.js";
import type { EnrichInput, MatchCriteria } from "./resolver.js";
import type { CellProblem, FieldEntitlements } from "./problems.js";
import type { SpendState, SpendStore } from "./spendReservations.js";
import type { Failure } from "../errors/failure.js";

/** What a cell holds: numbers as numbers, yes/no as booleans, everything else as text (answers.ts toCellValue). */
export type CellValue = string | number | boolean;

export type CellsResult =
  | {
      ok: true;
      fields: string[];
      values: CellValue[];
      /** Fields of an Enrich selection that could not be asked (not entitled): their values are empty and this says why. */
      fieldProblems?: Readonly<Record<string, CellProblem>>;
    }
  | { ok: false; problem: CellProblem };

/** A record's fields as the cache holds them (a signal's list as its records), or a problem. */
export type RecordsResult = { ok: true; fields: string[]; values: unknown[] } | { ok: false; problem: CellProblem };

export interface CellRequestOptions {
  /** Excel's value preview (the formula is still being typed): answer from the cache only. */
  preview?: boolean;
}

export interface EnrichIdsProgress {
  recordsDone: number;
  recordsTotal: number;
  requestsDone: number;
  requestsTotal: number;
}

export interface EnrichIdsOptions {
  signal?: AbortSignal;
  onProgress?: (progress: EnrichIdsProgress) => void;
  /** Requests of this run outstanding at once (default 4); the client's own cap still applies. */
  concurrency?: number;
  /** Ask again the criteria that missed before (the user corrected or retries them). */
  retryMisses?: boolean;
}

/** What one input of a list came to: its record's id when known, a miss, and its fields or a problem. */
export interface InputAnswer {
  id?: number;
  miss?: MatchMiss;
  result: CellsResult;
}

/** A record found from criteria, or why not: a miss (no match, ambiguous, invalid input) or another problem. */
export type MatchResult = { ok: true; kind: EntityKind; id: number } | { ok: false; miss?: MatchMiss; problem: CellProblem };

/** What enriching a list would do, shown before the user confirms. */
export interface SelectionPlan {
  /** Distinct valid ids of the inputs given by id, in first-seen order. */
  ids: number[];
  /** Distinct inputs (after normalizing criteria and resolving known matches). */
  unique: number;
  /** Cells that are not a valid input (blank cells excluded). */
  invalidCount: number;
  blankCount: number;
  /** Inputs whose requested fields are all cached (or known to have no match). */
  cachedCount: number;
  /** Inputs to request that cost no credit: under management, or of a kind that spends none. */
  underManagementCount: number;
  /** Inputs to request that may be new: at most this many credits. */
  maxCredits: number;
  /** Requests it takes. */
  requests: number;
  spend: SpendState;
}

export interface EnrichmentEngine {
  /**
   * One record's fields for a cell: `input` is an id, or a website / company name (companies) or
   * an email (contacts) matched first. `fields` is a name, comma-separated names, or an array/range.
   */
  getCells(kind: KindName, input: unknown, fields: unknown, options?: CellRequestOptions): Promise<CellsResult>;
  /** getCells's fields as the cache holds them, for a cell computed from a list (a signal's scoops, news, technologies). */
  getRecords(kind: KindName, input: unknown, fields: unknown, options?: CellRequestOptions): Promise<RecordsResult>;
  /** The id a website, name or email stands for (BIZ.MATCHCOMPANY, BIZ.MATCHCONTACT). */
  match(criteria: MatchCriteria, options?: CellRequestOptions): Promise<MatchResult>;
  /** A list's inputs (ids or criteria), with progress and cancellation: one answer per input, in order. */
  enrichInputs(kind: KindName, inputs: readonly (EnrichInput | unknown)[], fields: readonly string[], options?: EnrichIdsOptions): Promise<InputAnswer[]>;
  /** enrichInputs for distinct ids, by id. */
  enrichIds(kind: KindName, ids: readonly number[], fields: readonly string[], options?: EnrichIdsOptions): Promise<Map<number, CellsResult>>;
  /** What enrichInputs would cost. */
  planInputs(kind: KindName, inputs: readonly (EnrichInput | unknown)[], fields: readonly string[]): Promise<SelectionPlan>;
  /** Records shown as under management (e.g. in search results): enriching them spends no credit. */
  markUnderManagement(kind: KindName, ids: readonly number[]): void;
  clearCache(): Promise<void>;
  spendStatus(): Promise<SpendState>;
  setDailyNewRecordCap(cap: number): Promise<void>;
  /**
   * After a run: today's count took `counted` new records for it while the service charged
   * `charged` credits (its usage before and after); the difference goes back to today's allowance.
   */
  settleCharges(counted: number, charged: number): Promise<void>;
  /** Resolves when no call is waiting, no request is in flight and the cache is written. */
  whenIdle(): Promise<void>;
}

export interface EnrichmentEngineOptions {
  client: EnrichClient;
  /** Kinds beyond the built-in ones (builtInKinds.ts), each one declaration: they flow through the pipeline like those. */
  kinds?: readonly EnrichmentKind[];
  /** Persistent cache (default: memory only). */
  cache?: CacheStore;
  /** Time (default the system clock); `sleep` paces the gathering window. */
  clock?: Pick<Clock, "now"> & Partial<Pick<Clock, "sleep">>;
  /** How long calls are gathered before a flush, in ms (default 10). */
  windowMs?: number;
  /** Age limit of cached values, in ms (default 30 days). */
  maxAgeMs?: number;
  /** How long "no such record" is believed, in ms (default 1 day). */
  noMatchMaxAgeMs?: number;
  /** New records per user per day (default 1,000); a stored user setting wins. */
  dailyNewRecordCap?: number;
  spendStore?: SpendStore;
  /**
   * Fields asked along with each request beyond the ones its cells need (credits are per record,
   * not per field, so a likely next column comes free with the first): "recent" (default) the
   * fields recently asked for other records of its kind; "all" every output field of the kind;
   * "none". Measured side by side in bench/cells.ts.
   */
  companionFields?: "recent" | "all" | "none";
  /** The account's field entitlements (production): a cell asking an unentitled field gets a clear problem. */
  entitlements?: FieldEntitlements;
  log?: Logger;
  /** The account's plan (core/plan): the refusal for a kind it lacks, given at once and sending nothing. */
  planRefusal?: (kind: KindName) => Failure | undefined;
}
