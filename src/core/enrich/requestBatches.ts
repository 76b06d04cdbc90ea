// The one place where enrichment work becomes requests, for every input and every kind: the work
// is keyed by an input key (a record's key, or the match key of criteria not yet matched), each
// key is asked once, inputs are gathered into requests of at most the kind's cap, and sent with a
// bound on requests outstanding per group. A request stays OPEN until it leaves (the client reads
// its inputs and fields only after its rate-limit slot): a field asked for a key of an open
// request, or a new key while there is room, rides in it instead of becoming another request. So
// the count of requests does not depend on the order cells calculate. Credits are per record,
// not per field, so a field added to a request costs nothing for the other records in it.
// Cells calculate one by one, so they are gathered first (Gathering): calls arriving
// within a short window are flushed together, and after a flush a "quiet" window lets a request
// with room wait for more cells before it leaves (gathering.ts). `whenIdle` flushes at once and
// waits until nothing tracked is left (requests, cache writes, the daily count's writes).
// A group's requests leave through the one pool of bulk work (core/run/lanes.ts, which runBulk
// runs on too): the group picks which may leave, the pool bounds how many are outstanding.
// Priority is not ordered here: a group's priority goes with its requests to the client's one
// priority wait queue (api/priorityWaiters.ts); a group's list only picks its next request.
import { systemClock } from "../api/clock.js";
import { serviceError } from "../api/errors.js";
import type { EnrichRecord, RequestPriority } from "../api/types.js";
import { RequestLanes } from "../run/lanes.js";
import type { EnrichClient, EnrichmentKinds, KindName } from "./enrichKinds.js";
import { problemFromError, problems, type CellProblem } from "./problems.js";

/** What a request said about one key; no problem means the caches now hold the answer. */
export interface RecordOutcome {
  problem?: CellProblem;
  /** Fields the service refused as unentitled: the others are cached, these are reported per cell. */
  unentitledFields?: readonly string[];
}

/** One key's missing fields and the input that asks them. */
export interface Need {
  kind: KindName;
  key: string;
  input: object;
  fields: ReadonlySet<string>;
}

/** How a group's requests end, told per key so the pipeline can cache and settle spend. */
export interface BatchHandler {
  /** Fields worth asking along with `fields` for these keys (likely next ones); may be empty. */
  companions(kind: KindName, keys: readonly string[], fields: ReadonlySet<string>): readonly string[];
  /** The request answered: one record per need, in order (undefined when the service left one out). */
  answered(
    kind: KindName,
    needs: readonly Need[],
    fields: readonly string[],
    records: ReadonlyArray<EnrichRecord<object> | undefined>,
  ): Promise<Map<string, RecordOutcome>>;
  /** The request left and failed: it may or may not have reached the service. */
  failed(need: Need, error: unknown): RecordOutcome;
  /** The request never left (cancelled, or its group stopped first). */
  notSent(need: Need): void;
}

/** Requests launched together with one bound, one cancel signal and one stop rule. */
export interface BatchGroup {
  /** Requests of this group outstanding at once (default: unbounded; the client's cap applies). */
  concurrency?: number;
  signal?: AbortSignal;
  /** Who waits (default interactive: cells); a list's run is bulk, behind a person's cells. */
  priority?: RequestPriority;
  /** The problem that stops the group's later requests (signed out, no permission, no credits). */
  stopsOn?: ReadonlySet<CellProblem["kind"]>;
  /**
   * Whether more work is still arriving for the group: a request with room for more records then
   * waits (it leaves once arrivals stop and the group's other requests are done).
   */
  arriving?: () => boolean;
  /** Called after each request of the group has settled. */
  onRequestDone?: (records: number) => void;
}

interface Batch {
  kind: KindName;
  group: GroupState;
  needs: Map<string, Need>;
  fields: Set<string>;
  /** Open: ids and fields may still be added. Sealed: the request has left with them. */
  sealed: boolean;
  outcome: Promise<Map<string, RecordOutcome>>;
  settle: (outcomes: Map<string, RecordOutcome>) => void;
}

export interface GroupState {
  options: BatchGroup;
  waiting: Batch[];
  /** The group's requests outstanding, on the one pool of bulk work (core/run). */
  lanes: RequestLanes<Batch>;
  /** The fill under way may start every request, full or not (`launch(force)`). */
  forcing: boolean;
  /** Kinds whose requests with room wait: more of their records are still being matched (hold). */
  held: Map<KindName, number>;
  stop?: CellProblem;
}

export class RequestBatches {
  private readonly batches = new Set<Batch>();
  private readonly byKey = new Map<string, Set<Batch>>();
  private readonly cellGroup: GroupState;

  constructor(
    private readonly client: EnrichClient,
    private readonly kinds: EnrichmentKinds,
    private readonly handler: BatchHandler,
    private readonly track: (work: Promise<unknown>) => void,
    cells: BatchGroup = {},
    /** The engine's time, for what an answer computes against today (a signal's counts over 90 days). */
    private readonly now: () => number = () => systemClock.now(),
  ) {
    this.cellGroup = this.group(cells);
  }

  /** A group for one run (enrich selection); cells share the default group. */
  group(options: BatchGroup): GroupState {
    const group: GroupState = {
      options,
      waiting: [],
      held: new Map(),
      forcing: false,
      lanes: new RequestLanes<Batch>({
        window: options.concurrency ?? Number.POSITIVE_INFINITY,
        next: () => this.next(group),
        settleUnsent: (batch) => this.settleUnsent(batch),
        send: (batch) => this.send(batch),
        track: this.track,
      }),
    };
    return group;
  }

  /**
   * Holds a kind's requests with room while records of it are still being matched (a signal of
   * a company given by website): they fill up with the matched ones instead of leaving one match
   * at a time. Every hold is released once.
   */
  hold(kind: KindName, group: GroupState = this.cellGroup): void {
    group.held.set(kind, (group.held.get(kind) ?? 0) + 1);
  }

  release(kind: KindName, group: GroupState = this.cellGroup): void {
    const left = (group.held.get(kind) ?? 1) - 1;
    if (left > 0) group.held.set(kind, left);
    else group.held.delete(kind);
    this.pump(group);
  }

  /** Fields of a key already asked by a request, open or in flight. */
  covered(key: string): Set<string> {
    const fields = new Set<string>();
    for (const batch of this.byKey.get(key) ?? []) for (const field of batch.fields) fields.add(field);
    return fields;
  }

  /** Whether any request, open or in flight, holds this key. */
  holds(key: string): boolean {
    return this.byKey.has(key);
  }

  /** Whether an open request holds this record (so more of its fields can still ride along). */
  isOpen(key: string): boolean {
    for (const batch of this.byKey.get(key) ?? []) if (!batch.sealed) return true;
    return false;
  }

  /**
   * Puts a record's missing fields into a request: the open one that already holds the record,
   * else an open one of its kind with room, else a new one. Requests start at `launch()`.
   */
  add(need: Need, group: GroupState = this.cellGroup): void {
    for (const batch of this.byKey.get(need.key) ?? []) {
      if (!batch.sealed && batch.group === group) {
        for (const field of need.fields) batch.fields.add(field);
        return;
      }
    }
    let target: Batch | undefined;
    for (const batch of this.batches) {
      if (!batch.sealed && batch.group === group && batch.kind === need.kind && batch.needs.size < this.kinds.of(need.kind).maxInputs) {
        target = batch;
        break;
      }
    }
    target ??= this.open(need.kind, group);
    target.needs.set(need.key, need);
    for (const field of need.fields) target.fields.add(field);
    const list = this.byKey.get(need.key) ?? new Set<Batch>();
    list.add(target);
    this.byKey.set(need.key, list);
  }

  /**
   * Starts the requests added so far (after a whole flush, so they fill up first). A request
   * with room for more records waits while work is arriving or others of its group run, unless
   * `force` (whenIdle, a selection run).
   */
  launch(group: GroupState = this.cellGroup, force = false): void {
    this.pump(group, force);
  }

  /** Requests a group has made or will make. */
  pending(group: GroupState): number {
    let count = 0;
    for (const batch of this.batches) if (batch.group === group) count += 1;
    return count;
  }

  /** Waits for every request that holds the record. */
  async outcomesFor(key: string): Promise<RecordOutcome[]> {
    const batches = [...(this.byKey.get(key) ?? [])];
    if (batches.length === 0) return [];
    const maps = await Promise.all(batches.map((batch) => batch.outcome));
    return maps.map((outcomes) => outcomes.get(key) ?? {});
  }

  private open(kind: KindName, group: GroupState): Batch {
    let settle!: (outcomes: Map<string, RecordOutcome>) => void;
    const outcome = new Promise<Map<string, RecordOutcome>>((resolve) => (settle = resolve));
    const batch: Batch = { kind, group, needs: new Map(), fields: new Set(), sealed: false, outcome, settle };
    this.batches.add(batch);
    group.waiting.push(batch);
    return batch;
  }

  private pump(group: GroupState, force = false): void {
    const before = group.forcing;
    group.forcing = force;
    try {
      group.lanes.fill();
    } finally {
      group.forcing = before;
    }
  }

  /** The group's next request that may leave now: a full one, or one with room when nothing more is coming for it. */
  private next(group: GroupState): Batch | undefined {
    const force = group.forcing;
    const fullOnly = !force && group.options.arriving !== undefined && (group.lanes.running > 0 || group.options.arriving());
    const mayLeave = (b: Batch) => b.needs.size >= this.kinds.of(b.kind).maxInputs || (!fullOnly && (force || !group.held.has(b.kind)));
    const at = group.waiting.findIndex(mayLeave);
    return at >= 0 ? group.waiting.splice(at, 1)[0] : undefined;
  }

  /** Settles a request taken off its group's list without sending it, when the group stopped or was cancelled. */
  private settleUnsent(batch: Batch): boolean {
    const group = batch.group;
    const reason = group.options.signal?.aborted ? problems.cancelled() : group.stop;
    if (reason) this.skip(batch, reason);
    return reason !== undefined;
  }

  /** A request that never leaves: its records get the group's reason. */
  private skip(batch: Batch, reason: CellProblem): void {
    batch.sealed = true;
    const outcomes = new Map<string, RecordOutcome>();
    for (const need of batch.needs.values()) {
      this.handler.notSent(need);
      outcomes.set(need.key, { problem: reason });
    }
    this.finish(batch, outcomes);
  }

  private async send(batch: Batch): Promise<void> {
    const group = batch.group;
    const declaration = this.kinds.of(batch.kind);
    let fields: string[] = [];
    let needs: Need[] = [];
    let outcomes = new Map<string, RecordOutcome>();
    try {
      const records = await declaration.send(
        this.client,
        () => {
          // The group stopped or was cancelled while this request waited: it does not leave.
          const reason = group.options.signal?.aborted ? problems.cancelled() : group.stop;
          if (reason) throw serviceError("cancelled", { message: reason.message });
          batch.sealed = true;
          needs = [...batch.needs.values()];
          for (const companion of this.handler.companions(batch.kind, [...batch.needs.keys()], batch.fields)) batch.fields.add(companion);
          // The service wants at least one output field (a match that only wants the id).
          fields = batch.fields.size > 0 ? [...batch.fields].sort() : [...declaration.minimalFields];
          return { inputs: needs.map((need) => need.input), outputFields: fields };
        },
        {
          ...(group.options.signal ? { signal: group.options.signal } : {}),
          ...(group.options.priority ? { priority: group.options.priority } : {}),
          now: this.now,
        },
      );
      outcomes = await this.handler.answered(
        batch.kind,
        needs,
        fields,
        needs.map((_, index) => records[index]),
      );
    } catch (error) {
      const sent = batch.sealed;
      batch.sealed = true;
      // Never left: not charged. The group's reason (stopped, cancelled) wins over the error it caused.
      const reason = sent ? undefined : (group.stop ?? (group.options.signal?.aborted ? problems.cancelled() : problemFromError(error)));
      for (const need of batch.needs.values()) {
        if (reason) {
          this.handler.notSent(need);
          outcomes.set(need.key, { problem: reason });
        } else outcomes.set(need.key, this.handler.failed(need, error));
      }
    }
    for (const outcome of outcomes.values()) {
      if (outcome.problem && group.options.stopsOn?.has(outcome.problem.kind)) group.stop ??= outcome.problem;
    }
    group.options.onRequestDone?.(batch.needs.size);
    this.finish(batch, outcomes);
  }

  private finish(batch: Batch, outcomes: Map<string, RecordOutcome>): void {
    this.batches.delete(batch);
    for (const key of batch.needs.keys()) {
      const list = this.byKey.get(key);
      list?.delete(batch);
      if (list && list.size === 0) this.byKey.delete(key);
    }
    batch.settle(outcomes);
  }
}
