// The one enrichment pipeline behind the cells and "Enrich selection", for every input and kind
// (docs/architecture.md): an input resolved to its key (resolver.ts), asked only for the fields no
// cache holds and no request carries, reserved against today's cap, handed to the one batcher
// (requestBatches.ts); answers.ts caches what requests said. Every caller's promise settles.
import { systemClock } from "../api/clock.js";
import { Answers, cachedAnswer, withRefusedFields, type PipelineNeed } from "./answers.js";
import { MemoryCacheStore, recordKey } from "./caches.js";
import type {
  CellRequestOptions,
  CellsResult,
  EnrichIdsOptions,
  EnrichIdsProgress,
  EnrichmentEngine,
  EnrichmentEngineOptions,
  InputAnswer,
  MatchResult,
  RecordsResult,
  SelectionPlan,
} from "./engineTypes.js";
import { EnrichmentKinds, parseRecordId, type KindName } from "./enrichKinds.js";
import { cellProblem, fieldsProblem, problemFromError, problems, selectionFields, STOPPING_PROBLEMS } from "./problems.js";
import { Gathering } from "./gathering.js";
import { RequestBatches, type GroupState, type RecordOutcome } from "./requestBatches.js";
import { cellCriteria, matchKeyOf, matchStep, resolveInput, type EnrichInput, type Found, type MatchCriteria, type Resolved } from "./resolver.js";
import { selectionPlan } from "./plan.js";
import { SpendReservations, type SpendState } from "./spendReservations.js";

export type * from "./engineTypes.js";
const DAY_MS = 24 * 60 * 60 * 1000;

/** A cell waiting in the gathering window: its caches are read once for the whole gathering. */
interface PendingCall {
  kind: KindName;
  input: unknown;
  fields: string[];
  preview: boolean;
  resolve: (answer: InputAnswer) => void;
}

/** A gathered cell once resolved, still to be asked. */
interface AskedCall {
  resolved: Found;
  fields: string[];
  resolve: (answer: InputAnswer) => void;
}

export function createEnrichmentEngine(options: EnrichmentEngineOptions): EnrichmentEngine {
  return new EnrichmentPipeline(options);
}

class EnrichmentPipeline implements EnrichmentEngine {
  private readonly answers: Answers;
  private readonly batches: RequestBatches;
  private readonly gathering: Gathering<PendingCall>;
  /** This engine's kinds: the built-in ones and those its options declare. */
  private readonly kinds: EnrichmentKinds;

  constructor(private readonly options: EnrichmentEngineOptions) {
    this.kinds = new EnrichmentKinds(options.kinds);
    const clock = options.clock ?? systemClock;
    const now = () => clock.now();
    const track = (work: Promise<unknown>) => this.gathering.track(work);
    this.gathering = new Gathering<PendingCall>({
      sleep: clock.sleep ? (ms, signal) => clock.sleep!(ms, signal) : (ms, signal) => systemClock.sleep(ms, signal),
      windowMs: options.windowMs ?? 10,
      flush: (calls) => this.flush(calls),
      launch: (force) => this.batches.launch(undefined, force),
    });
    this.answers = new Answers({
      store: options.cache ?? new MemoryCacheStore(),
      now,
      maxAgeMs: options.maxAgeMs ?? 30 * DAY_MS,
      noMatchMaxAgeMs: options.noMatchMaxAgeMs ?? DAY_MS,
      companionFields: options.companionFields ?? "recent",
      spend: new SpendReservations(options.spendStore, now, options.dailyNewRecordCap, track, options.log),
      kinds: this.kinds,
      track,
      log: options.log,
    });
    this.batches = new RequestBatches(options.client, this.kinds, this.answers, track, { arriving: () => this.gathering.arriving() }, now);
  }

  async getCells(kind: KindName, input: unknown, rawFields: unknown, options: CellRequestOptions = {}): Promise<CellsResult> {
    return (await this.cellAnswer(kind, input, rawFields, options)).result;
  }

  /** One cell's answer (its record's id when known). */
  private async cellAnswer(kind: KindName, input: unknown, rawFields: unknown, options: CellRequestOptions): Promise<InputAnswer> {
    try {
      const declaration = this.kinds.of(kind);
      const criteria = cellCriteria(declaration, input);
      if (!criteria && parseRecordId(input) === undefined) return { result: { ok: false, problem: problems.invalidId(declaration) } };
      const resolvedFields = this.kinds.resolveFieldNames(kind, rawFields);
      const fieldProblem = await fieldsProblem(this.options.entitlements, declaration, resolvedFields);
      if (fieldProblem || !resolvedFields.ok) return { result: { ok: false, problem: fieldProblem ?? problems.noFields() } };
      return await this.one(kind, criteria ?? input, resolvedFields.fields, options);
    } catch (error) {
      return { result: { ok: false, problem: problemFromError(error) } };
    }
  }

  async getRecords(kind: KindName, input: unknown, rawFields: unknown, options: CellRequestOptions = {}): Promise<RecordsResult> {
    const answer = await this.cellAnswer(kind, input, rawFields, options);
    if (!answer.result.ok) return answer.result;
    const key = recordKey(kind, answer.id ?? 0);
    return { ok: true, fields: answer.result.fields, values: answer.result.fields.map((field) => this.answers.records.get(key, field)?.value ?? null) };
  }

  async match(criteria: MatchCriteria, options: CellRequestOptions = {}): Promise<MatchResult> {
    try {
      const answer = await this.one(criteria.kind, criteria, [], options);
      if (answer.id !== undefined) return { ok: true, kind: criteria.kind, id: answer.id };
      return {
        ok: false,
        ...(answer.miss ? { miss: answer.miss } : {}),
        problem: answer.result.ok ? problems.unavailable("no answer") : answer.result.problem,
      };
    } catch (error) {
      return { ok: false, problem: problemFromError(error) };
    }
  }

  async enrichInputs(kind: KindName, inputs: readonly unknown[], fields: readonly string[], options: EnrichIdsOptions = {}): Promise<InputAnswer[]> {
    const notInPlan = this.notInPlan(kind);
    if (notInPlan) return inputs.map(() => notInPlan);
    // Fields the account may not use are left out of the requests; the others run for every row.
    const { named, asked, refused, problem } = await selectionFields(
      this.options.entitlements,
      this.kinds.of(kind),
      this.kinds.resolveFieldNames(kind, [...fields]),
    );
    if (problem) return inputs.map(() => ({ result: { ok: false, problem } }));
    const resolved = await this.resolveAll(
      inputs.map((input) => [kind, input] as const),
      options.retryMisses === true,
    );
    const unique = new Map<string, Found>();
    for (const r of resolved) if (r.ok && !unique.has(r.key)) unique.set(r.key, r);
    // A record of another kind (a signal's company, given by website) is matched first.
    const needs = this.missing([...unique.values()].map((r) => (r.via ? { resolved: matchStep(r), fields: [] } : { resolved: r, fields: asked })));
    const overCap = this.reserve(needs);
    const progress: EnrichIdsProgress = { recordsDone: unique.size - needs.length, recordsTotal: unique.size, requestsDone: 0, requestsTotal: 0 };
    const group = this.batches.group({
      concurrency: Math.max(1, options.concurrency ?? 4),
      // A list is bulk work: cells a person waits on go first.
      priority: "bulk",
      ...(options.signal ? { signal: options.signal } : {}),
      stopsOn: STOPPING_PROBLEMS,
      onRequestDone: (records) => {
        progress.requestsDone += 1;
        progress.requestsTotal = Math.max(progress.requestsTotal, progress.requestsDone);
        progress.recordsDone = Math.min(progress.recordsTotal, progress.recordsDone + records);
        options.onProgress?.({ ...progress });
      },
    });
    this.answers.likely.asked(kind, asked);
    for (const need of needs) if (!overCap.has(need.key)) this.batches.add(need, group);
    progress.requestsTotal = this.batches.pending(group);
    options.onProgress?.({ ...progress });
    // Every key's requests (this run's, or ones of cells it waits for) are taken before they start.
    const waits = new Map([...unique.keys()].map((key) => [key, this.batches.outcomesFor(key)]));
    const through = new Map<string, Promise<InputAnswer>>();
    for (const r of unique.values()) {
      if (!r.via || overCap.has(r.key)) continue;
      this.batches.hold(kind, group);
      through.set(r.key, this.throughMatch(r, asked, group));
    }
    this.batches.launch(group, true);
    const outcomes = new Map<string, RecordOutcome[]>();
    for (const [key, wait] of waits) outcomes.set(key, await wait);
    const matchedFirst = new Map<string, InputAnswer>();
    for (const [key, answer] of through) matchedFirst.set(key, await answer);
    const capped: CellsResult = { ok: false, problem: problems.spendCap(this.answers.spend.status().cap) };
    return resolved.map((r) => {
      if (!r.ok) return { ...(r.miss ? { miss: r.miss } : {}), result: { ok: false, problem: r.problem } };
      if (overCap.has(r.key)) return { result: capped };
      // A row keeps its other fields when some were refused as unentitled.
      const answer = matchedFirst.get(r.key) ?? this.answers.answerFor(r, asked, outcomes.get(r.key) ?? [], "partial");
      return { ...answer, result: withRefusedFields(answer.result, named, refused) };
    });
  }

  async enrichIds(kind: KindName, ids: readonly number[], fields: readonly string[], options: EnrichIdsOptions = {}): Promise<Map<number, CellsResult>> {
    const unique = [...new Set(ids)];
    const answers = await this.enrichInputs(kind, unique, fields, options);
    return new Map(unique.map((id, index) => [id, (answers[index] as InputAnswer).result]));
  }

  async planInputs(kind: KindName, inputs: readonly unknown[], fields: readonly string[]): Promise<SelectionPlan> {
    const resolved = await this.resolveAll(
      inputs.map((input) => [kind, input] as const),
      false,
    );
    return selectionPlan(this.kinds.of(kind), inputs, resolved, fields, this.answers);
  }

  markUnderManagement(kind: KindName, ids: readonly number[]): void {
    for (const id of ids) this.answers.spend.markManaged(recordKey(kind, id));
  }

  async clearCache(): Promise<void> {
    await this.whenIdle();
    await this.answers.clear();
  }

  async spendStatus(): Promise<SpendState> {
    await this.answers.spend.load();
    return this.answers.spend.status();
  }

  async settleCharges(counted: number, charged: number): Promise<void> {
    await this.answers.spend.settle(counted, charged);
  }

  async setDailyNewRecordCap(cap: number): Promise<void> {
    await this.answers.spend.setCap(cap);
  }

  whenIdle(): Promise<void> {
    return this.gathering.whenIdle();
  }

  // ---- one input (a cell) ----

  private notInPlan(kind: KindName): InputAnswer | undefined {
    const refusal = this.options.planRefusal?.(kind); // a kind the plan lacks: answered at once, nothing sent
    return refusal ? { result: { ok: false, problem: cellProblem(refusal) } } : undefined;
  }

  private one(kind: KindName, input: unknown, fields: string[], options: CellRequestOptions): Promise<InputAnswer> {
    const notInPlan = this.notInPlan(kind);
    if (notInPlan) return Promise.resolve(notInPlan);
    const preview = options.preview === true;
    // What the caches in memory already answer is answered at once; anything else joins the
    // gathering window, where the stores are read once for every cell gathered (flush).
    const known = this.fromMemory(kind, input, fields, preview);
    if (known) return Promise.resolve(known);
    return new Promise<InputAnswer>((resolve) => this.gathering.add({ kind, input, fields, preview, resolve }));
  }

  /** A cell's answer from the caches in memory, when its keys are loaded; undefined when the stores must be read or a request made. */
  private fromMemory(kind: KindName, input: unknown, fields: string[], preview: boolean): InputAnswer | undefined {
    const matchKey = matchKeyOf(input);
    if (matchKey !== undefined && !this.answers.matches.isLoaded(matchKey)) return undefined;
    const resolved = resolveInput(this.kinds.of(kind), input as EnrichInput, this.answers.matches);
    if (resolved.ok && resolved.id !== undefined && !this.answers.records.isLoaded(resolved.key)) return undefined;
    return this.answerKnown(resolved, fields, preview);
  }

  /** What a resolved cell is answered without a request (a miss, the caches, or preview), or undefined. */
  private answerKnown(resolved: Resolved, fields: string[], preview: boolean): InputAnswer | undefined {
    if (!resolved.ok) return { ...(resolved.miss ? { miss: resolved.miss } : {}), result: { ok: false, problem: resolved.problem } };
    const { kind, id, key } = resolved;
    const known =
      id !== undefined &&
      (fields.length === 0 ? { ok: true as const, fields: [], values: [] } : cachedAnswer(this.kinds, this.answers.records, kind, id, key, fields));
    if (known) return { id: id as number, result: known };
    // No request while the formula is typed: only the caches may answer.
    if (preview) return { result: { ok: false, problem: problems.preview() } };
    return undefined;
  }

  private async flush(calls: PendingCall[]): Promise<void> {
    let refused = new Set<string>();
    const asking: AskedCall[] = [];
    try {
      // One read of the stores for every cell gathered, then each cell is resolved.
      const resolved = await this.resolveAll(
        calls.map((call) => [call.kind, call.input]),
        false,
      );
      calls.forEach((call, index) => {
        const r = resolved[index] as Resolved;
        const known = this.answerKnown(r, call.fields, call.preview);
        if (known) call.resolve(known);
        else asking.push({ resolved: r as Found, fields: call.fields, resolve: call.resolve });
      });
      // Many cells ask for the same key: gather the fields asked per key first. A cell whose
      // record is matched first (a signal by website) asks the match here, its fields after it.
      const asked = new Map<string, { resolved: Found; fields: Set<string> }>();
      for (const call of asking) {
        const step = matchStep(call.resolved);
        const entry = asked.get(step.key) ?? { resolved: step, fields: new Set<string>() };
        if (step === call.resolved) for (const field of call.fields) entry.fields.add(field);
        asked.set(step.key, entry);
        if (step === call.resolved) this.answers.likely.asked(call.resolved.kind, call.fields);
      }
      const needs = this.missing([...asked.values()].map((entry) => ({ resolved: entry.resolved, fields: [...entry.fields] })));
      refused = this.reserve(needs);
      for (const need of needs) if (!refused.has(need.key)) this.batches.add(need);
      // Full requests start now; one with room waits until cells stop arriving for a window.
      this.gathering.armQuiet();
      this.batches.launch();
    } catch (error) {
      // Whatever went wrong, no cell may stay #BUSY! (resolving a settled promise again does nothing).
      const problem = problemFromError(error);
      for (const call of calls) call.resolve({ result: { ok: false, problem } });
      return;
    }
    // Cells of one key wait together: one wait per key, not per cell.
    const byKey = new Map<string, AskedCall[]>();
    for (const call of asking) {
      byKey.set(call.resolved.key, [...(byKey.get(call.resolved.key) ?? []), call]);
      if (call.resolved.via) this.batches.hold(call.resolved.kind);
    }
    await Promise.all([...byKey.entries()].map(([key, group]) => this.settle(key, group, refused)));
  }

  /** Settles the calls of one key (never rejects). */
  private async settle(key: string, calls: AskedCall[], refused: ReadonlySet<string>): Promise<void> {
    try {
      if (refused.has(key)) {
        const problem = problems.spendCap(this.answers.spend.status().cap);
        for (const call of calls) {
          if (call.resolved.via) this.batches.release(call.resolved.kind);
          call.resolve({ result: { ok: false, problem } });
        }
        return;
      }
      await Promise.all(
        calls.map(async (call) =>
          call.resolve(
            call.resolved.via
              ? await this.throughMatch(call.resolved, call.fields)
              : this.answers.answerFor(call.resolved, call.fields, await this.batches.outcomesFor(key)),
          ),
        ),
      );
    } catch (error) {
      const problem = problemFromError(error);
      for (const call of calls) call.resolve({ result: { ok: false, problem } });
    }
  }

  // ---- shared steps ----

  /**
   * Criteria of a kind keyed by another kind's record (a signal of a company given by website):
   * once its match is answered, the record is asked by id in the same pass. The caller held the
   * kind's requests in `group` (so they fill up with every match); this releases that hold.
   */
  private async throughMatch(resolved: Found, fields: string[], group?: GroupState): Promise<InputAnswer> {
    let placed: { answer: Promise<InputAnswer> };
    try {
      const matched = this.answers.answerFor(matchStep(resolved), [], await this.batches.outcomesFor(resolved.key));
      if (matched.id === undefined) return matched;
      placed = await this.placeById(resolved.kind, matched.id, fields, group);
    } finally {
      this.batches.release(resolved.kind, group);
    }
    return placed.answer;
  }

  /** A record asked by id: its need is placed when this resolves; `answer` settles when its requests are done. */
  private async placeById(kind: KindName, id: number, fields: string[], group?: GroupState): Promise<{ answer: Promise<InputAnswer> }> {
    const key = recordKey(kind, id);
    await this.answers.load([key]);
    const resolved: Found = { ok: true, kind, key, input: this.kinds.of(kind).idInput(id), id };
    const known = this.answerKnown(resolved, fields, false);
    if (known) return { answer: Promise.resolve(known) };
    this.answers.likely.asked(kind, fields);
    const needs = this.missing([{ resolved, fields }]);
    if (this.reserve(needs).has(key))
      return { answer: Promise.resolve({ id, result: { ok: false, problem: problems.spendCap(this.answers.spend.status().cap) } }) };
    for (const need of needs) this.batches.add(need, group);
    return { answer: this.batches.outcomesFor(key).then((outcomes) => this.answers.answerFor(resolved, fields, outcomes, group ? "partial" : "problem")) };
  }

  /** Each input resolved to its key, with the caches loaded for them. */
  private async resolveAll(inputs: ReadonlyArray<readonly [KindName, unknown]>, retryMisses: boolean): Promise<Resolved[]> {
    const matchKeys = inputs.flatMap(([, input]) => matchKeyOf(input) ?? []);
    if (matchKeys.length > 0) await this.answers.load([], matchKeys);
    if (retryMisses) for (const key of matchKeys) this.answers.matches.forgetMiss(key);
    const resolved = inputs.map(([kind, input]) => resolveInput(this.kinds.of(kind), input as EnrichInput, this.answers.matches));
    await this.answers.load(resolved.flatMap((r) => (r.ok && r.id !== undefined ? [r.key] : [])));
    return resolved;
  }

  /** The keys' fields not cached, not known to have no match, and not already asked. */
  private missing(asked: ReadonlyArray<{ resolved: Found; fields: readonly string[] }>): PipelineNeed[] {
    const needs: PipelineNeed[] = [];
    for (const { resolved, fields } of asked) {
      const { key, kind, input, match, id } = resolved;
      if (this.answers.records.isNoMatch(key)) continue;
      const covered = this.batches.covered(key);
      const missing = fields.filter((field) => !covered.has(field) && this.answers.records.get(key, field) === undefined);
      // Criteria not matched yet are asked even for no field (their id is the answer).
      if (missing.length > 0 || (id === undefined && !this.batches.holds(key))) {
        needs.push({ kind, key, input, fields: new Set(missing), ...(id === undefined && match ? { match } : {}) });
      }
    }
    return needs;
  }

  /** Reserves today's allowance; returns the keys refused (not asked). */
  private reserve(needs: readonly PipelineNeed[]): Set<string> {
    // A key already in an open request is covered by that request's reservation.
    return this.answers.reserve(needs.filter((need) => !this.batches.isOpen(need.key)));
  }
}
