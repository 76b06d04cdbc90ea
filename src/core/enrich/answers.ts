// What the pipeline learns from requests, for every input: an answer by id is cached under its
// record; an answer to criteria is cached twice (the match key -> the record's id, and the
// record's fields under its key), so the same record asked by id or by another spelling costs
// nothing again. The daily count is settled per key (spendReservations.ts): a new record keeps
// its unit, a miss or a managed record gives it back. Store failures are logged, and the
// pipeline carries on from memory.
import type { EnrichRecord, Logger } from "../api/types.js";
import type { CacheStore } from "./cacheStore.js";
import { ENRICHMENT_KINDS } from "./enrichKinds.js";
import { parseRecordId, type EntityKind } from "./fields.js";
import { LikelyFields } from "./likelyFields.js";
import { MatchCache, type MatchMiss } from "./matchCache.js";
import { problemFromError, problems } from "./problems.js";
import { RecordCache, recordKey } from "./recordCache.js";
import type { BatchHandler, Need, RecordOutcome } from "./requestBatches.js";
import { missProblem, type Prepared } from "./resolver.js";
import type { SpendReservations } from "./spendReservations.js";

/** A need of the batcher, with the criteria when its key is a match key. */
export type PipelineNeed = Need & { match?: Prepared };

export interface AnswersOptions {
  store: CacheStore;
  now: () => number;
  maxAgeMs: number;
  noMatchMaxAgeMs: number;
  companionFields: "recent" | "all" | "none";
  spend: SpendReservations;
  track: (work: Promise<unknown>) => void;
  log?: Logger | undefined;
}

/** A NO_MATCH the service explains as ambiguous (several records fit) rather than as none. */
function isAmbiguous(record: EnrichRecord<unknown>): boolean {
  return /ambiguous/i.test(JSON.stringify(record.item?.meta.warnings ?? []));
}

/** The fields of an answer worth caching: not the ones the service refused as unentitled. */
function cacheable(fields: readonly string[], record: EnrichRecord<object>): readonly string[] {
  return record.unentitledFields ? fields.filter((field) => !record.unentitledFields?.includes(field)) : fields;
}

function refusedOf(record: EnrichRecord<object>): RecordOutcome {
  return record.unentitledFields ? { unentitledFields: record.unentitledFields } : {};
}

export class Answers implements BatchHandler {
  readonly records: RecordCache;
  readonly matches: MatchCache;
  readonly likely: LikelyFields;
  readonly spend: SpendReservations;

  constructor(private readonly o: AnswersOptions) {
    this.records = new RecordCache({ store: o.store, now: o.now, maxAgeMs: o.maxAgeMs, noMatchMaxAgeMs: o.noMatchMaxAgeMs });
    this.matches = new MatchCache({ store: o.store, now: o.now, maxAgeMs: o.maxAgeMs, missMaxAgeMs: o.noMatchMaxAgeMs });
    this.likely = new LikelyFields(o.companionFields, o.now);
    this.spend = o.spend;
  }

  isManaged(key: string): boolean {
    return this.spend.isManaged(key, this.records.wasEnriched(key));
  }

  /** Reads what the stores hold for these keys, and today's count. */
  async load(recordKeys: readonly string[], matchKeys: readonly string[] = []): Promise<void> {
    await Promise.all([
      this.records.load(recordKeys).catch((error: unknown) => this.warn("Reading the enrichment cache failed; values are fetched again", error)),
      matchKeys.length === 0 ? undefined : this.matches.load(matchKeys).catch((error: unknown) => this.warn("Reading known matches failed; they are asked again", error)),
      this.spend.load(),
    ]);
  }

  /** Reserves today's allowance for needs that may cost a credit; returns the keys refused. */
  reserve(needs: readonly PipelineNeed[]): Set<string> {
    const spending = needs.filter((need) => ENRICHMENT_KINDS[need.kind].spends);
    const byId = spending.filter((need) => !need.match).map((need) => need.key);
    const byMatch = spending.filter((need) => need.match).map((need) => need.key);
    return new Set([...this.spend.reserve(byId, (key) => this.isManaged(key)), ...this.spend.reserveInputs(byMatch)]);
  }

  // ---- BatchHandler ----

  companions(kind: EntityKind, keys: readonly string[], fields: ReadonlySet<string>): readonly string[] {
    // Worth asking only where some record of the request does not have it yet.
    return this.likely.along(kind, fields).filter((field) => keys.some((key) => this.records.get(key, field) === undefined));
  }

  async answered(kind: EntityKind, needs: readonly PipelineNeed[], fields: readonly string[], records: ReadonlyArray<EnrichRecord<object> | undefined>): Promise<Map<string, RecordOutcome>> {
    // Whether a record found by criteria was enriched before decides whether its unit goes back.
    const found = needs.flatMap((need, index) => {
      const id = need.match && records[index]?.outcome === "matched" ? parseRecordId(records[index]?.id) : undefined;
      return id === undefined ? [] : [recordKey(kind, id)];
    });
    await this.records.load(found).catch((error: unknown) => this.warn("Reading the enrichment cache failed; matched records count as new", error));
    const outcomes = new Map<string, RecordOutcome>();
    const written = new Set<string>();
    needs.forEach((need, index) => {
      const record = records[index];
      // Left out of the answer: not known to be charged either way; the reservation stays.
      if (!record) outcomes.set(need.key, { problem: problems.unavailable(`no answer for ${need.match ? `"${need.match.label}"` : "id"}`) });
      else outcomes.set(need.key, need.match ? this.matchOutcome(kind, need, need.match, fields, record, written) : this.idOutcome(kind, need, fields, record, written));
    });
    this.o.track(this.persist([...written], needs.filter((need) => need.match).map((need) => need.key)));
    return outcomes;
  }

  failed(need: PipelineNeed, error: unknown): RecordOutcome {
    if (need.match) this.spend.inputFailed(need.key, error);
    else this.spend.failed(need.key, error);
    return { problem: problemFromError(error) };
  }

  notSent(need: PipelineNeed): void {
    if (need.match) this.spend.inputNotCharged(need.key);
    else this.spend.notCharged(need.key);
  }

  private idOutcome(kind: EntityKind, need: Need, fields: readonly string[], record: EnrichRecord<object>, written: Set<string>): RecordOutcome {
    const id = parseRecordId((need.input as Record<string, unknown>)[kind === "company" ? "companyId" : "personId"]) ?? 0;
    written.add(need.key);
    switch (record.outcome) {
      case "matched":
        // A field refused as unentitled has no value to cache: its cells are told why.
        this.records.putMatch(need.key, cacheable(fields, record), ENRICHMENT_KINDS[kind].cached(record.attributes));
        this.spend.charged(need.key);
        return refusedOf(record);
      case "noMatch":
        this.records.putNoMatch(need.key, record.matchStatus);
        this.spend.notCharged(need.key);
        return {};
      case "limitExceeded":
        this.spend.notCharged(need.key);
        return { problem: problems.creditLimit() };
      case "invalidInput":
        this.spend.notCharged(need.key);
        return { problem: problems.invalidInput(kind, id, record.matchStatus) };
      default:
        this.spend.notCharged(need.key);
        return { problem: problems.unexpectedStatus(kind, id, record.matchStatus) };
    }
  }

  private matchOutcome(kind: EntityKind, need: Need, p: Prepared, fields: readonly string[], record: EnrichRecord<object>, written: Set<string>): RecordOutcome {
    switch (record.outcome) {
      case "matched": {
        const id = parseRecordId(record.id);
        if (id === undefined) return { problem: problems.unavailable(`the service answered id "${record.id ?? ""}"`) };
        const key = recordKey(kind, id);
        this.spend.inputMatched(need.key, key, this.records.wasEnriched(key));
        this.matches.putId(need.key, id);
        this.records.putMatch(key, cacheable(fields, record), ENRICHMENT_KINDS[kind].cached(record.attributes));
        written.add(key);
        return refusedOf(record);
      }
      case "noMatch":
        return this.miss(need, isAmbiguous(record) ? "ambiguous" : "noMatch", "");
      case "invalidInput":
        return this.miss(need, "invalidInput", record.issues?.map((issue) => issue.message).join(" ") ?? "");
      case "limitExceeded":
        this.spend.inputNotCharged(need.key);
        return { problem: problems.creditLimit() };
      default:
        this.spend.inputNotCharged(need.key);
        return { problem: { kind: "unavailable", code: "#N/A", message: `No match for "${p.label}": the service answered ${record.matchStatus}` } };
    }
  }

  private miss(need: Need, miss: MatchMiss, message: string): RecordOutcome {
    this.spend.inputNotCharged(need.key);
    this.matches.putMiss(need.key, miss, message);
    return {};
  }

  /** The answer to criteria the match cache holds, as a miss's problem (undefined when it matched or is unknown). */
  missOf(p: Prepared): { miss: MatchMiss; problem: ReturnType<typeof missProblem> } | undefined {
    const known = this.matches.get(p.key);
    if (!known || "id" in known) return undefined;
    return { miss: known.miss, problem: missProblem(p, known.miss, known.message || undefined) };
  }

  private async persist(recordKeys: readonly string[], matchKeys: readonly string[]): Promise<void> {
    try {
      await Promise.all([this.records.persist(recordKeys), this.matches.persist(matchKeys)]);
    } catch (error) {
      this.warn("Writing the enrichment cache failed; values stay cached for this session only", error);
    }
  }

  async clear(): Promise<void> {
    await this.records.clear();
    this.matches.clear();
  }

  private warn(message: string, error: unknown): void {
    this.o.log?.({ level: "warn", message, data: { error: error instanceof Error ? error.message : String(error) } });
  }
}
