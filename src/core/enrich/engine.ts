// The enrichment engine behind the cell functions and "enrich selection". Cells ask for one
// record's fields; calls arriving within a short window are gathered, ids are deduplicated
// across cells and functions, each id is asked only for its missing fields, ids with the same
// needs share requests of at most 25, and every caller's promise settles with its own fields
// or a problem, whatever happens. The client does the HTTP, retries and rate limiting.
import type { EnrichRecord, Logger, ServiceClient } from "../api/types.js";
import { LIMITS } from "../contract/index.js";
import type { CacheStore } from "./cacheStore.js";
import { MemoryCacheStore } from "./cacheStore.js";
import { toCellValue, type CellValue } from "./cellValues.js";
import { fieldNames, fieldSpec, parseRecordId, resolveFieldNames, type EntityKind } from "./fields.js";
import { problemFromError, problems, type CellProblem } from "./problems.js";
import { RecordCache, recordKey } from "./recordCache.js";
import { DEFAULT_DAILY_NEW_RECORD_CAP, MemorySpendStore, SpendGuard, type SpendState, type SpendStore } from "./spendGuard.js";

export type CellsResult = { ok: true; fields: string[]; values: CellValue[] } | { ok: false; problem: CellProblem };

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
  /** Requests handed to the client at once (default 4); the client's own cap still applies. */
  concurrency?: number;
}

/** What enriching a selection would do, shown before the user confirms. */
export interface SelectionPlan {
  /** Distinct valid ids, in first-seen order. */
  ids: number[];
  /** Cells that are not a valid id (blank cells excluded). */
  invalidCount: number;
  blankCount: number;
  /** Ids whose requested fields are all cached (or known to have no match). */
  cachedCount: number;
  /** Ids to request that are under management: no credit. */
  underManagementCount: number;
  /** Ids to request that may be new: at most this many credits. */
  maxCredits: number;
  /** Requests it takes. */
  requests: number;
  spend: SpendState;
}

export interface EnrichmentEngine {
  /** One record's fields for a cell. `fields` is a name, comma-separated names, or an array/range of names. */
  getCells(kind: EntityKind, id: unknown, fields: unknown, options?: CellRequestOptions): Promise<CellsResult>;
  /** Enriches many ids in requests of 25 with progress and cancellation (the task pane's "enrich selection"). */
  enrichIds(
    kind: EntityKind,
    ids: readonly number[],
    fields: readonly string[],
    options?: EnrichIdsOptions,
  ): Promise<Map<number, CellsResult>>;
  planSelection(kind: EntityKind, rawIds: readonly unknown[], fields: readonly string[]): Promise<SelectionPlan>;
  /** Records shown as under management (e.g. in search results): enriching them spends no credit. */
  markUnderManagement(kind: EntityKind, ids: readonly number[]): void;
  clearCache(): Promise<void>;
  spendStatus(): Promise<SpendState>;
  setDailyNewRecordCap(cap: number): Promise<void>;
  /** Resolves when no call is waiting, no request is in flight and the cache is written. */
  whenIdle(): Promise<void>;
}

export interface EnrichmentEngineOptions {
  client: Pick<ServiceClient, "enrichCompanies" | "enrichContacts">;
  /** Persistent cache (default: memory only). */
  cache?: CacheStore;
  clock?: { now(): number };
  /** How long calls are gathered before a flush, in ms (default 10). */
  windowMs?: number;
  /** Age limit of cached values, in ms (default 30 days). */
  maxAgeMs?: number;
  /** How long "no such record" is believed, in ms (default 1 day). */
  noMatchMaxAgeMs?: number;
  /** New records per user per day (default 1,000); a stored user setting wins. */
  dailyNewRecordCap?: number;
  spendStore?: SpendStore;
  log?: Logger;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const STOPPING_PROBLEMS: ReadonlySet<CellProblem["kind"]> = new Set(["signIn", "forbidden", "creditLimit"]);

interface PendingCall {
  kind: EntityKind;
  id: number;
  key: string;
  fields: string[];
  resolve: (result: CellsResult) => void;
}

/** What a request said about one record; no problem means the cache now holds the answer. */
interface RecordOutcome {
  problem?: CellProblem;
}

interface InflightFetch {
  fields: ReadonlySet<string>;
  outcome: Promise<RecordOutcome>;
}

interface Need {
  kind: EntityKind;
  id: number;
  key: string;
  fields: Set<string>;
}

export function createEnrichmentEngine(options: EnrichmentEngineOptions): EnrichmentEngine {
  return new BatchingEnrichmentEngine(options);
}

class BatchingEnrichmentEngine implements EnrichmentEngine {
  private readonly client: EnrichmentEngineOptions["client"];
  private readonly now: () => number;
  private readonly windowMs: number;
  private readonly cache: RecordCache;
  private readonly spend: SpendGuard;
  private readonly log: Logger | undefined;
  private queue: PendingCall[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly inflight = new Map<string, InflightFetch[]>();
  /** Records known to be under management (enriched in this runtime or shown so in results). */
  private readonly managed = new Set<string>();
  /** New records reserved against the daily cap whose request has not answered yet. */
  private readonly reservedNew = new Set<string>();
  private readonly work = new Set<Promise<unknown>>();

  constructor(options: EnrichmentEngineOptions) {
    this.client = options.client;
    const clock = options.clock ?? { now: () => Date.now() };
    this.now = () => clock.now();
    this.windowMs = options.windowMs ?? 10;
    this.log = options.log;
    this.cache = new RecordCache({
      store: options.cache ?? new MemoryCacheStore(),
      now: this.now,
      maxAgeMs: options.maxAgeMs ?? 30 * DAY_MS,
      noMatchMaxAgeMs: options.noMatchMaxAgeMs ?? DAY_MS,
    });
    this.spend = new SpendGuard(
      options.spendStore ?? new MemorySpendStore(),
      this.now,
      options.dailyNewRecordCap ?? DEFAULT_DAILY_NEW_RECORD_CAP,
    );
  }

  async getCells(kind: EntityKind, rawId: unknown, rawFields: unknown, options: CellRequestOptions = {}): Promise<CellsResult> {
    try {
      const id = parseRecordId(rawId);
      if (id === undefined) return { ok: false, problem: problems.invalidId(kind) };
      const resolved = resolveFieldNames(kind, rawFields);
      if (!resolved.ok) return { ok: false, problem: problems.unknownField(kind, resolved.unknown, fieldNames(kind)) };
      if (resolved.fields.length === 0) return { ok: false, problem: problems.noFields() };
      const key = recordKey(kind, id);
      const fields = resolved.fields;
      if (options.preview) {
        // No request while the formula is typed; the persistent cache may still answer.
        await this.loadCache([key]);
        return this.fromCache(kind, id, key, fields) ?? { ok: false, problem: problems.preview() };
      }
      if (this.cache.isLoaded(key)) {
        const known = this.fromCache(kind, id, key, fields);
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

  async enrichIds(
    kind: EntityKind,
    ids: readonly number[],
    fields: readonly string[],
    options: EnrichIdsOptions = {},
  ): Promise<Map<number, CellsResult>> {
    const unique = [...new Set(ids)];
    const resolved = resolveFieldNames(kind, [...fields]);
    if (!resolved.ok || resolved.fields.length === 0) {
      const problem = resolved.ok ? problems.noFields() : problems.unknownField(kind, resolved.unknown, fieldNames(kind));
      return new Map(unique.map((id) => [id, { ok: false, problem }]));
    }
    const keys = unique.map((id) => recordKey(kind, id));
    await this.prepare(keys);
    const needs = new Map<string, Need>();
    const waiting = new Map<string, Promise<RecordOutcome[]>>();
    for (const [index, id] of unique.entries()) {
      const key = keys[index] as string;
      if (this.cache.isNoMatch(key)) continue;
      // Fields already on their way (asked by cells) are waited for, not asked again.
      const covered = this.inflightFields(key);
      if (covered.size > 0) waiting.set(key, this.outcomesFor(key));
      const missing = resolved.fields.filter((field) => !covered.has(field) && this.cache.get(key, field) === undefined);
      if (missing.length > 0) needs.set(key, { kind, id, key, fields: new Set(missing) });
    }
    const refused = this.applySpendGuard(needs);
    const chunks = this.packChunks([...needs.values()]);
    const progress: EnrichIdsProgress = {
      recordsDone: unique.length - needs.size,
      recordsTotal: unique.length,
      requestsDone: 0,
      requestsTotal: chunks.length,
    };
    options.onProgress?.({ ...progress });
    const skipped = new Map<string, CellProblem>();
    const answered = new Map<string, RecordOutcome>();
    // A problem no later request can escape (signed out, no permission, no credits) stops the run.
    let stop: CellProblem | undefined;
    let next = 0;
    const worker = async (): Promise<void> => {
      for (;;) {
        const chunk = chunks[next++];
        if (!chunk) return;
        const reason = options.signal?.aborted ? problems.cancelled() : stop;
        if (reason) {
          for (const need of chunk) {
            skipped.set(need.key, reason);
            this.releaseIfReserved(need.key);
          }
          continue;
        }
        const outcomes = await this.launchChunk(chunk, options.signal);
        for (const [key, outcome] of outcomes) {
          answered.set(key, outcome);
          if (outcome.problem && STOPPING_PROBLEMS.has(outcome.problem.kind)) stop ??= outcome.problem;
        }
        progress.requestsDone += 1;
        progress.recordsDone += chunk.length;
        options.onProgress?.({ ...progress });
      }
    };
    const concurrency = Math.max(1, options.concurrency ?? 4);
    await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, () => worker()));
    const results = new Map<number, CellsResult>();
    for (const [index, id] of unique.entries()) {
      const key = keys[index] as string;
      const fieldList = resolved.fields;
      const skip = skipped.get(key);
      if (skip) results.set(id, { ok: false, problem: skip });
      else if (refused.has(key)) results.set(id, { ok: false, problem: problems.spendCap(this.spend.status().cap) });
      else {
        const outcome = answered.get(key);
        const outcomes = [...(outcome ? [outcome] : []), ...(await (waiting.get(key) ?? Promise.resolve([])))];
        results.set(id, this.answer(kind, id, key, fieldList, outcomes));
      }
    }
    return results;
  }

  async planSelection(kind: EntityKind, rawIds: readonly unknown[], fields: readonly string[]): Promise<SelectionPlan> {
    const ids: number[] = [];
    const seen = new Set<number>();
    let invalidCount = 0;
    let blankCount = 0;
    for (const raw of rawIds) {
      if (raw === null || raw === undefined || (typeof raw === "string" && raw.trim() === "")) {
        blankCount += 1;
        continue;
      }
      const id = parseRecordId(raw);
      if (id === undefined) invalidCount += 1;
      else if (!seen.has(id)) {
        seen.add(id);
        ids.push(id);
      }
    }
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
    for (const id of ids) this.managed.add(recordKey(kind, id));
  }

  async clearCache(): Promise<void> {
    await this.whenIdle();
    await this.cache.clear();
  }

  async spendStatus(): Promise<SpendState> {
    await this.loadSpend();
    return this.spend.status();
  }

  async setDailyNewRecordCap(cap: number): Promise<void> {
    await this.loadSpend();
    this.spend.setCap(cap);
    await this.spend.save();
  }

  async whenIdle(): Promise<void> {
    for (;;) {
      if (this.timer !== undefined) {
        clearTimeout(this.timer);
        this.timer = undefined;
        this.track(this.flush());
      }
      if (this.work.size === 0) return;
      await Promise.allSettled([...this.work]);
    }
  }

  // ---- gathering and flushing ----

  private scheduleFlush(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.track(this.flush());
    }, this.windowMs);
  }

  private async flush(): Promise<void> {
    const calls = this.queue;
    this.queue = [];
    if (calls.length === 0) return;
    let refused = new Set<string>();
    try {
      await this.prepare(calls.map((call) => call.key));
      // Many cells ask for the same record: gather the fields asked per record first.
      const asked = new Map<string, Need>();
      for (const call of calls) {
        const entry = asked.get(call.key) ?? { kind: call.kind, id: call.id, key: call.key, fields: new Set<string>() };
        for (const field of call.fields) entry.fields.add(field);
        asked.set(call.key, entry);
      }
      const needs = new Map<string, Need>();
      for (const [key, entry] of asked) {
        if (this.cache.isNoMatch(key)) continue;
        const covered = this.inflightFields(key);
        const missing = [...entry.fields].filter((field) => !covered.has(field) && this.cache.get(key, field) === undefined);
        if (missing.length > 0) needs.set(key, { ...entry, fields: new Set(missing) });
      }
      refused = this.applySpendGuard(needs);
      for (const chunk of this.packChunks([...needs.values()])) this.track(this.launchChunk(chunk));
    } catch (error) {
      // Whatever went wrong, no cell may stay #BUSY!.
      const problem = problemFromError(error);
      for (const call of calls) call.resolve({ ok: false, problem });
      return;
    }
    // Cells of one record wait together: one wait per record, not per cell.
    const byKey = new Map<string, PendingCall[]>();
    for (const call of calls) {
      const list = byKey.get(call.key);
      if (list) list.push(call);
      else byKey.set(call.key, [call]);
    }
    await Promise.all([...byKey.values()].map((group) => this.settle(group, refused)));
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
      const outcomes = await this.outcomesFor(first.key);
      for (const call of calls) call.resolve(this.answer(call.kind, call.id, call.key, call.fields, outcomes));
    } catch (error) {
      const problem = problemFromError(error);
      for (const call of calls) call.resolve({ ok: false, problem });
    }
  }

  /** Waits for the requests in flight for a record. */
  private async outcomesFor(key: string): Promise<RecordOutcome[]> {
    const entries = this.inflight.get(key);
    if (!entries || entries.length === 0) return [];
    if (entries.length === 1) return [await (entries[0] as InflightFetch).outcome];
    return Promise.all(entries.map((entry) => entry.outcome));
  }

  /** The cached values, or the problem a request reported, or that nothing answered. */
  private answer(kind: EntityKind, id: number, key: string, fields: readonly string[], outcomes: readonly RecordOutcome[]): CellsResult {
    const known = this.fromCache(kind, id, key, fields);
    if (known) return known;
    const failed = outcomes.find((outcome) => outcome.problem !== undefined);
    if (failed?.problem) return { ok: false, problem: failed.problem };
    return { ok: false, problem: problems.unavailable(`no answer for id ${id}`) };
  }

  private fromCache(kind: EntityKind, id: number, key: string, fields: readonly string[]): CellsResult | undefined {
    if (this.cache.isNoMatch(key)) return { ok: false, problem: problems.noMatch(kind, id, this.cache.noMatchStatus(key)) };
    const values: CellValue[] = [];
    for (const field of fields) {
      const entry = this.cache.get(key, field);
      if (!entry) return undefined;
      values.push(toCellValue(fieldSpec(kind, field)?.type, entry.value));
    }
    return { ok: true, fields: fields as string[], values };
  }

  private inflightFields(key: string): Set<string> {
    const covered = new Set<string>();
    for (const entry of this.inflight.get(key) ?? []) for (const field of entry.fields) covered.add(field);
    return covered;
  }

  // ---- spend guard ----

  private isManaged(key: string): boolean {
    return this.managed.has(key) || this.cache.wasEnriched(key);
  }

  /** Reserves today's allowance for the new records among `needs`; removes and returns the refused ones. */
  private applySpendGuard(needs: Map<string, Need>): Set<string> {
    const fresh = [...needs.keys()].filter((key) => !this.isManaged(key) && !this.reservedNew.has(key));
    const refused = new Set<string>();
    if (fresh.length === 0) return refused;
    const granted = this.spend.reserve(fresh.length);
    for (const [index, key] of fresh.entries()) {
      if (index < granted) this.reservedNew.add(key);
      else {
        refused.add(key);
        needs.delete(key);
      }
    }
    this.track(this.saveSpend());
    return refused;
  }

  private releaseIfReserved(key: string): void {
    if (this.reservedNew.delete(key)) {
      this.spend.release(1);
      this.track(this.saveSpend());
    }
  }

  // ---- requests ----

  /** Ids in requests of at most 25; ids with the same missing fields go together. */
  private packChunks(needs: Need[]): Need[][] {
    const chunks: Need[][] = [];
    for (const kind of ["company", "contact"] as const) {
      const ofKind = needs
        .filter((need) => need.kind === kind)
        .map((need) => ({ need, signature: [...need.fields].sort().join(",") }))
        .sort((a, b) => (a.signature < b.signature ? -1 : a.signature > b.signature ? 1 : 0))
        .map((entry) => entry.need);
      for (let start = 0; start < ofKind.length; start += LIMITS.maxEnrichInputs) {
        chunks.push(ofKind.slice(start, start + LIMITS.maxEnrichInputs));
      }
    }
    return chunks;
  }

  /** Sends one request for a chunk, registering it as in flight for each of its ids. */
  private launchChunk(chunk: readonly Need[], signal?: AbortSignal): Promise<Map<string, RecordOutcome>> {
    const first = chunk[0];
    if (!first) return Promise.resolve(new Map());
    const fieldSet = new Set<string>();
    for (const need of chunk) for (const field of need.fields) fieldSet.add(field);
    const fields = [...fieldSet].sort();
    const result = this.fetchChunk(first.kind, chunk, fields, signal);
    const entries: Array<[string, InflightFetch]> = chunk.map((need) => [
      need.key,
      { fields: fieldSet, outcome: result.then((outcomes) => outcomes.get(need.key) ?? {}) },
    ]);
    for (const [key, entry] of entries) {
      const list = this.inflight.get(key) ?? [];
      list.push(entry);
      this.inflight.set(key, list);
    }
    return result.finally(() => {
      for (const [key, entry] of entries) {
        const list = (this.inflight.get(key) ?? []).filter((other) => other !== entry);
        if (list.length > 0) this.inflight.set(key, list);
        else this.inflight.delete(key);
      }
    });
  }

  /** Never rejects: a failed request becomes a problem for each of its records. */
  private async fetchChunk(
    kind: EntityKind,
    chunk: readonly Need[],
    fields: string[],
    signal?: AbortSignal,
  ): Promise<Map<string, RecordOutcome>> {
    const outcomes = new Map<string, RecordOutcome>();
    try {
      const records = await this.request(kind, chunk, fields, signal);
      for (const need of chunk) {
        const record = records.get(need.id);
        const outcome = this.recordOutcome(kind, need, fields, record);
        outcomes.set(need.key, outcome);
      }
      this.track(this.persist(chunk.map((need) => need.key)));
    } catch (error) {
      const problem = problemFromError(error);
      for (const need of chunk) {
        outcomes.set(need.key, { problem });
        this.releaseIfReserved(need.key);
      }
    }
    return outcomes;
  }

  private async request(
    kind: EntityKind,
    chunk: readonly Need[],
    fields: string[],
    signal?: AbortSignal,
  ): Promise<Map<number, EnrichRecord<unknown>>> {
    const byId = new Map<number, EnrichRecord<unknown>>();
    const options = signal ? { signal } : undefined;
    if (kind === "company") {
      const records = await this.client.enrichCompanies(
        chunk.map((need) => ({ companyId: need.id })),
        fields,
        options,
      );
      for (const record of records) if (record.input.companyId !== undefined) byId.set(record.input.companyId, record);
    } else {
      const records = await this.client.enrichContacts(
        chunk.map((need) => ({ personId: need.id })),
        fields,
        options,
      );
      for (const record of records) if (record.input.personId !== undefined) byId.set(record.input.personId, record);
    }
    return byId;
  }

  private recordOutcome(
    kind: EntityKind,
    need: Need,
    fields: readonly string[],
    record: EnrichRecord<unknown> | undefined,
  ): RecordOutcome {
    if (!record) {
      this.releaseIfReserved(need.key);
      return { problem: problems.unavailable(`no answer for id ${need.id}`) };
    }
    switch (record.outcome) {
      case "matched":
        this.cache.putMatch(need.key, fields, flattenAttributes(kind, record.attributes));
        this.managed.add(need.key);
        this.reservedNew.delete(need.key); // charged: the reservation stays counted
        return {};
      case "noMatch":
        this.cache.putNoMatch(need.key, record.matchStatus);
        this.releaseIfReserved(need.key);
        return {};
      case "limitExceeded":
        this.releaseIfReserved(need.key);
        return { problem: problems.creditLimit() };
      case "invalidInput":
        this.releaseIfReserved(need.key);
        return { problem: problems.invalidInput(kind, need.id, record.matchStatus) };
      default:
        this.releaseIfReserved(need.key);
        return { problem: problems.unexpectedStatus(kind, need.id, record.matchStatus) };
    }
  }

  // ---- persistence (failures are logged and the engine carries on from memory) ----

  private async prepare(keys: readonly string[]): Promise<void> {
    await Promise.all([this.loadCache(keys), this.loadSpend()]);
  }

  private async loadCache(keys: readonly string[]): Promise<void> {
    try {
      await this.cache.load(keys);
    } catch (error) {
      this.warn("Reading the enrichment cache failed; values are fetched again", error);
    }
  }

  private async loadSpend(): Promise<void> {
    try {
      await this.spend.ensureLoaded();
    } catch (error) {
      this.warn("Reading the daily record count failed; counting from zero", error);
    }
  }

  private async persist(keys: readonly string[]): Promise<void> {
    try {
      await this.cache.persist(keys);
    } catch (error) {
      this.warn("Writing the enrichment cache failed; values stay cached for this session only", error);
    }
  }

  private async saveSpend(): Promise<void> {
    try {
      await this.spend.save();
    } catch (error) {
      this.warn("Saving the daily record count failed", error);
    }
  }

  private warn(message: string, error: unknown): void {
    this.log?.({ level: "warn", message, data: { error: error instanceof Error ? error.message : String(error) } });
  }

  private track(promise: Promise<unknown>): void {
    this.work.add(promise);
    const done = (): void => {
      this.work.delete(promise);
    };
    promise.then(done, done);
  }
}

/** Contact results carry company fields nested under `company`; cells ask for them flat. */
function flattenAttributes(kind: EntityKind, attributes: Record<string, unknown>): Record<string, unknown> {
  if (kind !== "contact") return attributes;
  const company = attributes.company;
  if (typeof company !== "object" || company === null) return attributes;
  const nested = company as Record<string, unknown>;
  return { ...attributes, companyId: attributes.companyId ?? nested.id, companyName: attributes.companyName ?? nested.name };
}
