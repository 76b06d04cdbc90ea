// One match request and what its answer means: the inputs that may cost a credit reserve today's
// allowance before it leaves (the ones refused are answered with the daily-cap problem and not
// sent), each answer becomes an id or a miss with its reason, the units are settled (a new record
// keeps its unit, a miss or a managed record gives it back), and the key -> id answers and the
// matched fields are written to the shared cache before any caller hears of them.
import type { EnrichRecord, Logger, ServiceClient } from "../api/types.js";
import { fieldSpec, parseRecordId, type EntityKind } from "./fields.js";
import type { MatchCache, MatchMiss } from "./matchCache.js";
import type { PreparedMatch } from "./matchKeys.js";
import { problemFromError, problems, type CellProblem } from "./problems.js";
import { recordKey, type RecordCache } from "./recordCache.js";
import type { SpendReservations } from "./spendReservations.js";

/** A found record, or why not: a miss (no match, ambiguous, invalid input) or another problem. */
export type MatchResult =
  | { ok: true; kind: EntityKind; id: number }
  | { ok: false; miss?: MatchMiss; problem: CellProblem };

export type Prepared = Extract<PreparedMatch, { ok: true }>;

export interface Need {
  prepared: Prepared;
  fields: Set<string>;
}

export interface MatchRequestsOptions {
  client: Pick<ServiceClient, "enrichCompanies" | "enrichContacts">;
  ids: MatchCache;
  records: RecordCache;
  spend: SpendReservations;
  log?: Logger | undefined;
}

const NOUN: Record<EntityKind, [one: string, many: string]> = { company: ["company", "companies"], contact: ["person", "people"] };

export function missProblem(kind: EntityKind, miss: MatchMiss, label: string, detail?: string): CellProblem {
  const [one, many] = NOUN[kind];
  if (miss === "ambiguous") {
    const hint = kind === "company" ? "add a country or city" : "add the company";
    return { kind: "noMatch", code: "#N/A", message: `Ambiguous input: several ${many} match "${label}"; ${hint}` };
  }
  if (miss === "invalidInput") return { kind: "invalidInput", code: "#N/A", message: `Invalid input: ${detail ?? `the service did not accept "${label}"`}` };
  return { kind: "noMatch", code: "#N/A", message: `No match: no ${one} found for "${label}"` };
}

/** A NO_MATCH the service explains as ambiguous (several records fit) rather than as none. */
function isAmbiguous(record: EnrichRecord<unknown>): boolean {
  return /ambiguous/i.test(JSON.stringify(record.item?.meta.warnings ?? []));
}

/** Contact results carry company fields nested under `company`; the record cache holds them flat. */
function flatten(kind: EntityKind, attributes: Record<string, unknown>): Record<string, unknown> {
  const company = attributes.company;
  if (kind !== "contact" || typeof company !== "object" || company === null) return attributes;
  const nested = company as Record<string, unknown>;
  return { ...attributes, companyId: attributes.companyId ?? nested.id, companyName: attributes.companyName ?? nested.name };
}

export class MatchRequests {
  constructor(private readonly o: MatchRequestsOptions) {}

  /** Sends one chunk (inputs of one kind); never rejects. */
  async send(chunk: readonly Need[], signal?: AbortSignal): Promise<Map<string, MatchResult>> {
    const outcomes = new Map<string, MatchResult>();
    const first = chunk[0];
    if (!first) return outcomes;
    const kind = first.prepared.kind;
    const { spend } = this.o;
    await spend.load();
    const refused = spend.reserveInputs(chunk.map((need) => need.prepared.key));
    const capped: MatchResult = { ok: false, problem: problems.spendCap(spend.status().cap) };
    for (const key of refused) outcomes.set(key, capped);
    const sent = chunk.filter((need) => !refused.has(need.prepared.key));
    if (sent.length === 0) return outcomes;
    const fieldSet = new Set<string>();
    for (const need of sent) for (const field of need.fields) if (fieldSpec(kind, field)) fieldSet.add(field);
    // The service wants at least one output field; the id is the cheapest.
    const fields = fieldSet.size > 0 ? [...fieldSet].sort() : ["id"];
    const requestOptions = signal ? { signal } : undefined;
    let records: EnrichRecord<unknown>[];
    try {
      const prepared = sent.map((need) => need.prepared);
      records =
        kind === "company"
          ? await this.o.client.enrichCompanies(prepared.flatMap((p) => (p.kind === "company" ? [p.input] : [])), fields, requestOptions)
          : await this.o.client.enrichContacts(prepared.flatMap((p) => (p.kind === "contact" ? [p.input] : [])), fields, requestOptions);
    } catch (error) {
      const problem = problemFromError(error);
      for (const need of sent) {
        spend.inputFailed(need.prepared.key, error);
        outcomes.set(need.prepared.key, { ok: false, problem });
      }
      return outcomes;
    }
    // Whether a matched record was enriched before decides whether its unit goes back.
    const found: string[] = [];
    for (const record of records) {
      const id = record.outcome === "matched" ? parseRecordId(record.id) : undefined;
      if (id !== undefined) found.push(recordKey(kind, id));
    }
    await this.loadRecords(found);
    const matchedKeys: string[] = [];
    const matched: Array<[string, number, Record<string, unknown>]> = [];
    sent.forEach((need, index) => {
      const p = need.prepared;
      const record = records[index];
      const outcome = this.outcome(p, record);
      outcomes.set(p.key, outcome);
      if (outcome.ok && record) matched.push([recordKey(kind, outcome.id), outcome.id, flatten(kind, record.attributes)]);
      if (outcome.ok || outcome.miss !== undefined) matchedKeys.push(p.key);
    });
    // A field refused as unentitled came back in no record: it is not cached (its cells say why).
    const unentitled = new Set(records.flatMap((record) => record.unentitledFields ?? []));
    await this.save(matchedKeys, matched, fields.filter((field) => !unentitled.has(field)));
    return outcomes;
  }

  /** The answer for one input, with its unit settled. */
  private outcome(p: Prepared, record: EnrichRecord<unknown> | undefined): MatchResult {
    const { spend, ids } = this.o;
    // Left out of the answer: not known to be charged either way; the unit stays.
    if (!record) return { ok: false, problem: problems.unavailable(`no answer for "${p.label}"`) };
    switch (record.outcome) {
      case "matched": {
        const id = parseRecordId(record.id);
        if (id === undefined) return { ok: false, problem: problems.unavailable(`the service answered id "${record.id ?? ""}"`) };
        const key = recordKey(p.kind, id);
        spend.inputMatched(p.key, key, this.o.records.wasEnriched(key));
        ids.putId(p.key, id);
        return { ok: true, kind: p.kind, id };
      }
      case "noMatch": {
        spend.inputNotCharged(p.key);
        const miss: MatchMiss = isAmbiguous(record) ? "ambiguous" : "noMatch";
        ids.putMiss(p.key, miss, "");
        return { ok: false, miss, problem: missProblem(p.kind, miss, p.label) };
      }
      case "invalidInput": {
        spend.inputNotCharged(p.key);
        const detail = record.issues?.map((issue) => issue.message).join(" ") || undefined;
        ids.putMiss(p.key, "invalidInput", detail ?? "");
        return { ok: false, miss: "invalidInput", problem: missProblem(p.kind, "invalidInput", p.label, detail) };
      }
      case "limitExceeded":
        spend.inputNotCharged(p.key);
        return { ok: false, problem: problems.creditLimit() };
      default:
        spend.inputNotCharged(p.key);
        return { ok: false, problem: { kind: "unavailable", code: "#N/A", message: `No match for "${p.label}": the service answered ${record.matchStatus}` } };
    }
  }

  /** Writes the key -> id answers and the matched fields before the callers hear of them. */
  private async save(keys: string[], matched: Array<[string, number, Record<string, unknown>]>, fields: string[]): Promise<void> {
    try {
      const recordKeys = matched.map(([key]) => key);
      await this.o.records.load(recordKeys);
      for (const [key, , attributes] of matched) this.o.records.putMatch(key, fields, attributes);
      await Promise.all([this.o.ids.persist(keys), this.o.records.persist(recordKeys)]);
    } catch (error) {
      this.warn("Writing matches to the cache failed; they are asked again next time", error);
    }
  }

  private async loadRecords(keys: readonly string[]): Promise<void> {
    try {
      await this.o.records.load(keys);
    } catch (error) {
      this.warn("Reading the enrichment cache failed; matched records count as new", error);
    }
  }

  private warn(message: string, error: unknown): void {
    this.o.log?.({ level: "warn", message, data: { error: error instanceof Error ? error.message : String(error) } });
  }
}
