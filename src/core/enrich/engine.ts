// The enrichment engine behind the cell functions and "enrich selection". Cells ask for one
// record's fields; calls arriving within a short window are gathered, each record is asked only
// for its missing fields, and every caller's promise settles with its own fields or a problem,
// whatever happens. Parts: requestBatches.ts (needs -> requests), spendReservations.ts (daily
// cap), recordCache.ts (answers), likelyFields.ts. The client does HTTP, retries, rate limits.
import { systemClock } from "../api/clock.js";
import type { EnrichRecord, Logger } from "../api/types.js";
import { LIMITS, type RecordKind } from "../contract/index.js";
import { MemoryCacheStore } from "./cacheStore.js";
import { answerFrom, cachedAnswer, withRefusedFields } from "./cellAnswers.js";
import type {
  CellRequestOptions,
  CellsResult,
  EnrichIdsOptions,
  EnrichIdsProgress,
  EnrichmentEngine,
  EnrichmentEngineOptions,
  SelectionPlan,
} from "./engineTypes.js";
import { flattenAttributes, parseRecordId, resolveFieldNames, scanSelectedIds, type EntityKind } from "./fields.js";
import { fieldsProblem, selectionFields, type FieldEntitlements } from "./entitledFields.js";
import { problemFromError, problems, type CellProblem } from "./problems.js";
import { RecordCache, recordKey } from "./recordCache.js";
import { RequestBatches, type BatchHandler, type Need, type RecordOutcome } from "./requestBatches.js";
import { LikelyFields } from "./likelyFields.js";
import { SpendReservations } from "./spendReservations.js";
import type { SpendState } from "./spendGuard.js";

export type * from "./engineTypes.js";

const DAY_MS = 24 * 60 * 60 * 1000;

const STOPPING_PROBLEMS: ReadonlySet<CellProblem["kind"]> = new Set(["signIn", "forbidden", "creditLimit"]);

interface PendingCall {
  kind: EntityKind;
  id: number;
  key: string;
  fields: string[];
  resolve: (result: CellsResult) => void;
}

export function createEnrichmentEngine(options: EnrichmentEngineOptions): EnrichmentEngine {
  return new BatchingEnrichmentEngine(options);
}

class BatchingEnrichmentEngine implements EnrichmentEngine, BatchHandler {
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly windowMs: number;
  private readonly cache: RecordCache;
  private readonly spend: SpendReservations;
  private readonly batches: RequestBatches;
  private readonly likely: LikelyFields;
  private readonly log: Logger | undefined;
  private readonly entitlements: FieldEntitlements | undefined;
  private queue: PendingCall[] = [];
  private window: AbortController | undefined;
  /** Armed after a flush: when no cell arrives for a window, requests with room leave too. */
  private quiet: AbortController | undefined;
  private readonly work = new Set<Promise<unknown>>();

  constructor(options: EnrichmentEngineOptions) {
    const clock = options.clock ?? systemClock;
    this.now = () => clock.now();
    this.sleep = clock.sleep ? (ms, signal) => clock.sleep!(ms, signal) : (ms, signal) => systemClock.sleep(ms, signal);
    this.windowMs = options.windowMs ?? 10;
    this.log = options.log;
    this.entitlements = options.entitlements;
    this.likely = new LikelyFields(options.companionFields ?? "recent", this.now);
    this.cache = new RecordCache({
      store: options.cache ?? new MemoryCacheStore(),
      now: this.now,
      maxAgeMs: options.maxAgeMs ?? 30 * DAY_MS,
      noMatchMaxAgeMs: options.noMatchMaxAgeMs ?? DAY_MS,
    });
    const track = (work: Promise<unknown>) => this.track(work);
    this.spend = options.spend ?? new SpendReservations(options.spendStore, this.now, options.dailyNewRecordCap, track, this.log);
    this.batches = new RequestBatches(options.client, this, track, { arriving: () => this.window !== undefined || this.quiet !== undefined || this.queue.length > 0 });
  }

  async getCells(kind: EntityKind, rawId: unknown, rawFields: unknown, options: CellRequestOptions = {}): Promise<CellsResult> {
    try {
      const id = parseRecordId(rawId);
      if (id === undefined) return { ok: false, problem: problems.invalidId(kind) };
      const resolved = resolveFieldNames(kind, rawFields);
      const fieldProblem = await fieldsProblem(this.entitlements, kind, resolved);
      if (fieldProblem || !resolved.ok) return { ok: false, problem: fieldProblem ?? problems.noFields() };
      const key = recordKey(kind, id);
      const fields = resolved.fields;
      if (options.preview) {
        // No request while the formula is typed; the persistent cache may still answer.
        await this.loadCache([key]);
        return cachedAnswer(this.cache, kind, id, key, fields) ?? { ok: false, problem: problems.preview() };
      }
      if (this.cache.isLoaded(key)) {
        const known = cachedAnswer(this.cache, kind, id, key, fields);
        if (known) return known;
      }
      return await new Promise<CellsResult>((resolve) => {
        this.queue.push({ kind, id, key, fields, resolve });
        this.scheduleFlush();
      });
    } catch (error) {
      return { ok: false, problem: problemFromError(error) };
    }
  }

  async enrichIds(kind: EntityKind, ids: readonly number[], fields: readonly string[], options: EnrichIdsOptions = {}): Promise<Map<number, CellsResult>> {
    const unique = [...new Set(ids)];
    // Fields the account may not use are left out of the requests; the others run for every row.
    const { named, asked, refused, problem } = await selectionFields(this.entitlements, kind, resolveFieldNames(kind, [...fields]));
    if (problem) return new Map(unique.map((id) => [id, { ok: false, problem }]));
    const keys = unique.map((id) => recordKey(kind, id));
    await this.prepare(keys);
    const needs = this.missing(unique.map((id, index) => ({ kind, id, key: keys[index] as string, fields: new Set(asked) })));
    const overCap = this.reserve(needs);
    const progress: EnrichIdsProgress = { recordsDone: unique.length - needs.size, recordsTotal: unique.length, requestsDone: 0, requestsTotal: 0 };
    const group = this.batches.group({
      concurrency: Math.max(1, options.concurrency ?? 4),
      ...(options.signal ? { signal: options.signal } : {}),
      priority: "bulk", // a selection: cells calculated meanwhile go first
      // A problem no later request can escape (signed out, no permission, no credits) stops the run.
      stopsOn: STOPPING_PROBLEMS,
      onRequestDone: (records) => {
        progress.requestsDone += 1;
        progress.recordsDone += records;
        options.onProgress?.({ ...progress });
      },
    });
    this.rememberAsked(kind, asked);
    for (const need of needs.values()) this.batches.add(need, group);
    progress.requestsTotal = this.batches.pending(group);
    options.onProgress?.({ ...progress });
    // Every record's requests (this run's, or ones of cells it waits for) are taken before they start.
    const waits = keys.map((key) => this.batches.outcomesFor(key));
    this.batches.launch(group, true);
    const outcomes = await Promise.all(waits);
    const results = new Map<number, CellsResult>();
    for (const [index, id] of unique.entries()) {
      const key = keys[index] as string;
      if (overCap.has(key)) results.set(id, { ok: false, problem: problems.spendCap(this.spend.status().cap) });
      else results.set(id, withRefusedFields(answerFrom(this.cache, kind, id, key, asked, outcomes[index] ?? [], "partial"), named, refused));
    }
    return results;
  }

  async planSelection(kind: EntityKind, rawIds: readonly unknown[], fields: readonly string[]): Promise<SelectionPlan> {
    const { ids, invalidCount, blankCount } = scanSelectedIds(rawIds);
    await this.prepare(ids.map((id) => recordKey(kind, id)));
    let cachedCount = 0;
    let underManagementCount = 0;
    let maxCredits = 0;
    for (const id of ids) {
      const key = recordKey(kind, id);
      if (this.cache.isNoMatch(key) || this.cache.hasFresh(key, fields)) cachedCount += 1;
      else if (this.isManaged(key)) underManagementCount += 1;
      else maxCredits += 1;
    }
    const toRequest = ids.length - cachedCount;
    return {
      ids,
      invalidCount,
      blankCount,
      cachedCount,
      underManagementCount,
      maxCredits,
      requests: Math.ceil(toRequest / LIMITS.maxEnrichInputs),
      spend: this.spend.status(),
    };
  }

  markUnderManagement(kind: EntityKind, ids: readonly number[]): void {
    for (const id of ids) this.spend.markManaged(recordKey(kind, id));
  }

  async clearCache(): Promise<void> {
    await this.whenIdle();
    await this.cache.clear();
  }

  async spendStatus(): Promise<SpendState> {
    await this.spend.load();
    return this.spend.status();
  }

  async setDailyNewRecordCap(cap: number): Promise<void> {
    await this.spend.setCap(cap);
  }

  async whenIdle(): Promise<void> {
    for (;;) {
      if (this.window) {
        // Flush now rather than wait out the gathering window.
        this.window.abort();
        this.window = undefined;
        this.track(this.flush());
      }
      this.quiet?.abort();
      this.quiet = undefined;
      this.batches.launch(undefined, true);
      if (this.work.size === 0) return;
      await Promise.allSettled([...this.work]);
    }
  }

  // ---- gathering and flushing ----

  private scheduleFlush(): void {
    this.quiet?.abort();
    this.quiet = undefined;
    if (this.window) return;
    const window = new AbortController();
    this.window = window;
    this.sleep(this.windowMs, window.signal).then(
      () => {
        if (this.window !== window) return;
        this.window = undefined;
        this.track(this.flush());
      },
      () => undefined, // flushed early by whenIdle
    );
  }

  private async flush(): Promise<void> {
    const calls = this.queue;
    this.queue = [];
    if (calls.length === 0) return;
    let refused = new Set<string>();
    try {
      await this.prepare(calls.map((call) => call.key));
      // Many cells ask for the same record: gather the fields asked per record first.
      const asked = new Map<string, Need & { fields: Set<string> }>();
      for (const call of calls) {
        const entry = asked.get(call.key) ?? { kind: call.kind, id: call.id, key: call.key, fields: new Set<string>() };
        for (const field of call.fields) entry.fields.add(field);
        asked.set(call.key, entry);
        this.rememberAsked(call.kind, call.fields);
      }
      const needs = this.missing([...asked.values()]);
      refused = this.reserve(needs);
      for (const need of needs.values()) this.batches.add(need);
      // Full requests start now; one with room waits until cells stop arriving for a window.
      this.armQuiet();
      this.batches.launch();
    } catch (error) {
      // Whatever went wrong, no cell may stay #BUSY!.
      const problem = problemFromError(error);
      for (const call of calls) call.resolve({ ok: false, problem });
      return;
    }
    // Cells of one record wait together: one wait per record, not per cell.
    const byKey = new Map<string, PendingCall[]>();
    for (const call of calls) byKey.set(call.key, [...(byKey.get(call.key) ?? []), call]);
    await Promise.all([...byKey.values()].map((group) => this.settle(group, refused)));
  }

  private armQuiet(): void {
    if (this.window || this.quiet) return;
    const quiet = new AbortController();
    this.quiet = quiet;
    this.sleep(this.windowMs, quiet.signal).then(
      () => {
        if (this.quiet !== quiet) return;
        this.quiet = undefined;
        this.batches.launch();
      },
      () => undefined, // more cells arrived, or flushed by whenIdle
    );
  }

  /** The records' fields not cached, not known to have no match, and not already asked. */
  private missing(asked: ReadonlyArray<Need>): Map<string, Need> {
    const needs = new Map<string, Need>();
    for (const entry of asked) {
      if (this.cache.isNoMatch(entry.key)) continue;
      const covered = this.batches.covered(entry.key);
      const missing = [...entry.fields].filter((field) => !covered.has(field) && this.cache.get(entry.key, field) === undefined);
      if (missing.length > 0) needs.set(entry.key, { ...entry, fields: new Set(missing) });
    }
    return needs;
  }

  /** Reserves today's allowance; removes the refused records from `needs` and returns them. */
  private reserve(needs: Map<string, Need>): Set<string> {
    // A record already in an open request is covered by that request's reservation.
    const keys = [...needs.keys()].filter((key) => !this.batches.isOpen(key));
    const refused = this.spend.reserve(keys, (key) => this.isManaged(key));
    for (const key of refused) needs.delete(key);
    return refused;
  }

  /** Settles the calls of one record (never rejects). */
  private async settle(calls: PendingCall[], refused: ReadonlySet<string>): Promise<void> {
    const first = calls[0];
    if (!first) return;
    try {
      if (refused.has(first.key)) {
        const problem = problems.spendCap(this.spend.status().cap);
        for (const call of calls) call.resolve({ ok: false, problem });
        return;
      }
      const outcomes = await this.batches.outcomesFor(first.key);
      for (const call of calls) call.resolve(answerFrom(this.cache, call.kind, call.id, call.key, call.fields, outcomes));
    } catch (error) {
      const problem = problemFromError(error);
      for (const call of calls) call.resolve({ ok: false, problem });
    }
  }

  private isManaged(key: string): boolean {
    return this.spend.isManaged(key, this.cache.wasEnriched(key));
  }

  // ---- what requests report (BatchHandler) ----

  private rememberAsked(kind: RecordKind, fields: readonly string[]): void {
    this.likely.asked(kind, fields);
  }

  companions(kind: RecordKind, keys: readonly string[], fields: ReadonlySet<string>): readonly string[] {
    // Worth asking only where some record of the request does not have it yet.
    return this.likely.along(kind, fields).filter((field) => keys.some((key) => this.cache.get(key, field) === undefined));
  }

  answered(kind: RecordKind, need: Need, fields: readonly string[], record: EnrichRecord<unknown> | undefined): RecordOutcome {
    if (!record) {
      // Left out of the answer: not known to be charged either way; the reservation stays.
      return { problem: problems.unavailable(`no answer for id ${need.id}`) };
    }
    return this.recordOutcome(kind, need, fields, record);
  }

  answeredAll(keys: readonly string[]): void {
    this.track(this.persist(keys));
  }

  private recordOutcome(kind: RecordKind, need: Need, fields: readonly string[], record: EnrichRecord<unknown>): RecordOutcome {
    switch (record.outcome) {
      case "matched": // a field refused as unentitled has no value to cache: its cells are told why
        this.cache.putMatch(need.key, fields.filter((f) => !record.unentitledFields?.includes(f)), flattenAttributes(kind, record.attributes));
        this.spend.charged(need.key);
        return record.unentitledFields ? { unentitledFields: record.unentitledFields } : {};
      case "noMatch":
        this.cache.putNoMatch(need.key, record.matchStatus);
        this.spend.notCharged(need.key);
        return {};
      case "limitExceeded":
        this.spend.notCharged(need.key);
        return { problem: problems.creditLimit() };
      case "invalidInput":
        this.spend.notCharged(need.key);
        return { problem: problems.invalidInput(kind, need.id, record.matchStatus) };
      default:
        this.spend.notCharged(need.key);
        return { problem: problems.unexpectedStatus(kind, need.id, record.matchStatus) };
    }
  }

  failed(need: Need, error: unknown): RecordOutcome {
    this.spend.failed(need.key, error);
    return { problem: problemFromError(error) };
  }

  notSent(need: Need): void {
    this.spend.notCharged(need.key);
  }

  // ---- persistence (failures are logged and the engine carries on from memory) ----

  private async prepare(keys: readonly string[]): Promise<void> {
    await Promise.all([this.loadCache(keys), this.spend.load()]);
  }

  private async loadCache(keys: readonly string[]): Promise<void> {
    try {
      await this.cache.load(keys);
    } catch (error) {
      this.warn("Reading the enrichment cache failed; values are fetched again", error);
    }
  }

  private async persist(keys: readonly string[]): Promise<void> {
    try {
      await this.cache.persist(keys);
    } catch (error) {
      this.warn("Writing the enrichment cache failed; values stay cached for this session only", error);
    }
  }

  private warn(message: string, error: unknown): void {
    this.log?.({ level: "warn", message, data: { error: error instanceof Error ? error.message : String(error) } });
  }

  private track(promise: Promise<unknown>): void {
    this.work.add(promise);
    const done = (): void => void this.work.delete(promise);
    promise.then(done, done);
  }
}
