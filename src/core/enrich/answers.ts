// What the pipeline learns from requests, and what a cell gets from it. An answer by id is
// cached under its record; an answer to criteria is cached twice (the match key -> the record's
// id, and the record's fields under its key), so the same record asked by id or by another
// spelling costs nothing again. The daily count is settled per key (spendReservations.ts): a new
// record keeps its unit, a miss or a managed record gives it back. Store failures are logged,
// and the pipeline carries on from memory. A cell's answer is its fields from the cache as cell
// values, or the problem a request reported; fields likely asked next ride along (companions).
import type { OutputFieldType } from "../contract/index.js";
import type { EnrichRecord, Logger } from "../api/types.js";
import { MatchCache, RecordCache, recordKey, type CacheStore, type MatchMiss } from "./caches.js";
import type { CellsResult, CellValue } from "./engineTypes.js";
import { parseRecordId, type EnrichmentKinds, type KindName } from "./enrichKinds.js";
import { problemFromError, problems, type CellProblem } from "./problems.js";
import type { BatchHandler, Need, RecordOutcome } from "./requestBatches.js";
import { missProblem, type Found, type Prepared } from "./resolver.js";
import { LikelyFields } from "./likelyFields.js";
import type { InputAnswer } from "./engineTypes.js";
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
  /** The engine's kinds. */
  kinds: EnrichmentKinds;
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

  constructor(private readonly options: AnswersOptions) {
    const ages = { now: options.now, maxAgeMs: options.maxAgeMs, noMatchMaxAgeMs: options.noMatchMaxAgeMs };
    this.records = new RecordCache(options.store, ages);
    this.matches = new MatchCache(options.store, ages);
    this.likely = new LikelyFields(options.companionFields, options.now, options.kinds);
    this.spend = options.spend;
  }

  isManaged(key: string): boolean {
    return this.spend.isManaged(key, this.records.wasEnriched(key));
  }

  /** Reads what the stores hold for these keys, and today's count. */
  async load(recordKeys: readonly string[], matchKeys: readonly string[] = []): Promise<void> {
    await Promise.all([
      this.records.load(recordKeys).catch((error: unknown) => this.warn("Reading the enrichment cache failed; values are fetched again", error)),
      matchKeys.length === 0
        ? undefined
        : this.matches.load(matchKeys).catch((error: unknown) => this.warn("Reading known matches failed; they are asked again", error)),
      this.spend.load(),
    ]);
  }

  /** Reserves today's allowance for needs that may cost a credit; returns the keys refused. */
  reserve(needs: readonly PipelineNeed[]): Set<string> {
    const spending = needs.filter((need) => this.options.kinds.of(need.kind).spends);
    const byId = spending.filter((need) => !need.match).map((need) => need.key);
    const byMatch = spending.filter((need) => need.match).map((need) => need.key);
    return new Set([...this.spend.reserve(byId, (key) => this.isManaged(key)), ...this.spend.reserveInputs(byMatch)]);
  }

  // ---- BatchHandler ----

  companions(kind: KindName, keys: readonly string[], fields: ReadonlySet<string>): readonly string[] {
    // Worth asking only where some record of the request does not have it yet.
    return this.likely.along(kind, fields).filter((field) => keys.some((key) => this.records.get(key, field) === undefined));
  }

  async answered(
    kind: KindName,
    needs: readonly PipelineNeed[],
    fields: readonly string[],
    records: ReadonlyArray<EnrichRecord<object> | undefined>,
  ): Promise<Map<string, RecordOutcome>> {
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
      else
        outcomes.set(
          need.key,
          need.match ? this.matchOutcome(kind, need, need.match, fields, record, written) : this.idOutcome(kind, need, fields, record, written),
        );
    });
    this.options.track(
      this.persist(
        [...written],
        needs.filter((need) => need.match).map((need) => need.key),
      ),
    );
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

  /** Until when a kind whose answers expire holds this one (its declaration's freshUntil). */
  private until(kind: KindName, record: EnrichRecord<object>): number | undefined {
    return this.options.kinds.of(kind).freshUntil?.(record.attributes, this.options.now());
  }

  private idOutcome(kind: KindName, need: Need, fields: readonly string[], record: EnrichRecord<object>, written: Set<string>): RecordOutcome {
    const id = parseRecordId((need.input as Record<string, unknown>)[kind === "company" ? "companyId" : "personId"]) ?? 0;
    written.add(need.key);
    switch (record.outcome) {
      case "matched":
        // A field refused as unentitled has no value to cache: its cells are told why.
        this.records.putMatch(need.key, cacheable(fields, record), this.options.kinds.of(kind).cached(record.attributes), this.until(kind, record));
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
        return { problem: problems.invalidInput(this.options.kinds.of(kind), id, record.matchStatus) };
      default:
        this.spend.notCharged(need.key);
        return { problem: problems.unexpectedStatus(this.options.kinds.of(kind), id, record.matchStatus) };
    }
  }

  private matchOutcome(kind: KindName, need: Need, p: Prepared, fields: readonly string[], record: EnrichRecord<object>, written: Set<string>): RecordOutcome {
    switch (record.outcome) {
      case "matched": {
        const id = parseRecordId(record.id);
        if (id === undefined) return { problem: problems.unavailable(`the service answered id "${record.id ?? ""}"`) };
        const key = recordKey(kind, id);
        this.spend.inputMatched(need.key, key, this.records.wasEnriched(key));
        this.matches.putId(need.key, id);
        this.records.putMatch(key, cacheable(fields, record), this.options.kinds.of(kind).cached(record.attributes), this.until(kind, record));
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

  /** One input's answer once its requests are done: from the caches, or the problem a request reported. */
  answerFor(resolved: Found, fields: readonly string[], outcomes: readonly RecordOutcome[], refusedFields: "partial" | "problem" = "problem"): InputAnswer {
    const { kind } = resolved;
    let id = resolved.id;
    if (id === undefined && resolved.match) {
      const known = this.matches.get(resolved.key);
      if (known && "id" in known) id = known.id;
      const miss = this.missOf(resolved.match);
      if (miss) return { miss: miss.miss, result: { ok: false, problem: miss.problem } };
    }
    if (id === undefined) {
      const failed = outcomes.find((outcome) => outcome.problem !== undefined)?.problem;
      return { result: { ok: false, problem: failed ?? problems.unavailable(`no answer for "${resolved.match?.label ?? ""}"`) } };
    }
    if (fields.length === 0) return { id, result: { ok: true, fields: [], values: [] } };
    return { id, result: answerFrom(this.options.kinds, this.records, kind, id, recordKey(kind, id), fields, outcomes, refusedFields) };
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
    this.options.log?.({ level: "warn", message, data: { error: error instanceof Error ? error.message : String(error) } });
  }
}

// ---------- what a cell gets ----------
// Its fields from the cache, or the problem a request reported, or that nothing answered.

export function cachedAnswer(
  kinds: EnrichmentKinds,
  cache: RecordCache,
  kind: KindName,
  id: number,
  key: string,
  fields: readonly string[],
): CellsResult | undefined {
  if (cache.isNoMatch(key)) return { ok: false, problem: problems.noMatch(kinds.of(kind), id, cache.noMatchStatus(key)) };
  const values: CellValue[] = [];
  for (const field of fields) {
    const entry = cache.get(key, field);
    if (!entry) return undefined;
    values.push(toCellValue(kinds.fieldSpec(kind, field)?.type, entry.value));
  }
  return { ok: true, fields: fields as string[], values };
}

export function answerFrom(
  kinds: EnrichmentKinds,
  cache: RecordCache,
  kind: KindName,
  id: number,
  key: string,
  fields: readonly string[],
  outcomes: readonly RecordOutcome[],
  /** "partial": a selection row keeps its other fields when some were refused as unentitled; a cell shows the problem. */
  refusedFields: "partial" | "problem" = "problem",
): CellsResult {
  const known = cachedAnswer(kinds, cache, kind, id, key, fields);
  if (known) return known;
  // Fields the service refused as unentitled: the cell says so (a selection row gets its other fields).
  const refused = fields.filter((field) => outcomes.some((outcome) => outcome.unentitledFields?.includes(field)));
  if (refused.length > 0) {
    const rest = fields.filter((field) => !refused.includes(field));
    const others = refusedFields === "partial" && rest.length > 0 ? cachedAnswer(kinds, cache, kind, id, key, rest) : undefined;
    return others ? withRefusedFields(others, fields, refused) : { ok: false, problem: problems.unentitled(refused) };
  }
  const failed = outcomes.find((outcome) => outcome.problem !== undefined);
  if (failed?.problem) return { ok: false, problem: failed.problem };
  return { ok: false, problem: problems.unavailable(`no answer for id ${id}`) };
}

/**
 * The answer for every field a selection asked when some were left out (`refused`): their
 * values are empty and each carries the problem a cell asking it alone would show.
 */
export function withRefusedFields(result: CellsResult, fields: readonly string[], refused: readonly string[]): CellsResult {
  if (!result.ok || refused.length === 0) return result;
  const fieldProblems: Record<string, CellProblem> = { ...result.fieldProblems };
  for (const field of refused) fieldProblems[field] = problems.unentitled([field]);
  const values = fields.map((field) => {
    const at = result.fields.indexOf(field);
    return at < 0 ? "" : (result.values[at] ?? "");
  });
  return { ok: true, fields: [...fields], values, fieldProblems };
}

/** What a selection writes for a result: a field that could not be asked shows its problem's message. */
export function shownValues(result: Extract<CellsResult, { ok: true }>): CellValue[] {
  return result.values.map((value, index) => result.fieldProblems?.[result.fields[index] ?? ""]?.message ?? value);
}

// ---------- cell values ----------
// A service attribute as a cell holds it: numbers as numbers, booleans as booleans, everything
// else as readable text. Lists (socialMediaUrls, industries, funding rounds) become one line of
// text; a missing value becomes an empty cell.

export function toCellValue(type: OutputFieldType | undefined, raw: unknown): CellValue {
  if (raw === null || raw === undefined) return "";
  switch (type) {
    case "integer":
    case "number": {
      const n = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : NaN;
      return Number.isFinite(n) ? n : readableText(raw);
    }
    case "boolean":
      if (typeof raw === "boolean") return raw;
      if (raw === "true" || raw === "false") return raw === "true";
      return readableText(raw);
    default:
      return readableText(raw);
  }
}

/** One line a person reads, for any JSON value. */
function readableText(raw: unknown): string {
  if (raw === null || raw === undefined) return "";
  if (typeof raw === "string") return raw;
  if (typeof raw === "number" || typeof raw === "boolean") return String(raw);
  if (Array.isArray(raw))
    return raw
      .map(listItemText)
      .filter((t) => t !== "")
      .join("; ");
  if (typeof raw === "object") return objectText(raw as Record<string, unknown>);
  return String(raw);
}

function listItemText(item: unknown): string {
  if (typeof item !== "object" || item === null || Array.isArray(item)) return readableText(item);
  const record = item as Record<string, unknown>;
  // Social media links read as "LINKED_IN: https://… (1200 followers)".
  if (typeof record.url === "string") {
    const label = typeof record.type === "string" ? `${record.type}: ` : "";
    const followers =
      record.followerCount !== undefined && record.followerCount !== null && record.followerCount !== "" ? ` (${String(record.followerCount)} followers)` : "";
    return `${label}${record.url}${followers}`;
  }
  // Lookup-style items ({id, name}) read as their name.
  if (typeof record.name === "string" && Object.keys(record).every((k) => k === "name" || k === "id" || k === "code")) {
    return record.name;
  }
  return objectText(record);
}

function objectText(record: Record<string, unknown>): string {
  return Object.entries(record)
    .filter(([, v]) => v !== null && v !== undefined && v !== "")
    .map(([k, v]) => {
      const inner = typeof v === "object" ? (Array.isArray(v) ? `[${readableText(v)}]` : `{${readableText(v)}}`) : String(v);
      return `${k}: ${inner}`;
    })
    .join(", ");
}
