// The kinds of enrichment the pipeline knows, each a declaration: its output fields, how its
// requests are sent, how many inputs one request takes, how an input names a record by id,
// whether a new record spends a credit (and so the daily cap), and how an answer's attributes
// are cached. The batcher, the caches, the spend guard, companions and entitlements work on any
// kind the same way; adding a kind (intent, scoops, news, technologies) is one more entry here
// (docs/architecture.md). Also how a cell names a record (its id) and a kind's fields.
import type { EnrichRecord, RequestPriority, ServiceClient } from "../api/types.js";
import {
  COMPANY_OUTPUT_FIELDS,
  CONTACT_OUTPUT_FIELDS,
  LIMITS,
  SIGNAL_OUTPUT_FIELDS,
  SIGNAL_CREDIT_KINDS,
  SIGNAL_RECORD_KINDS,
  type MatchCompanyInput,
  type MatchPersonInput,
  type OutputFieldSpec,
  type RecordKind,
  type SignalRecordKind,
} from "../contract/index.js";
import { fetchSignalRecords, SIGNAL_MAX_INPUTS, type SignalClient } from "../signals/index.js";

// ---------- the kinds and their fields ----------

/** A kind of record: the contract's RecordKind, or a signal of a company (docs/signals.md). */
export type EntityKind = RecordKind | SignalRecordKind;

export const OUTPUT_FIELDS: Record<EntityKind, Readonly<Record<string, OutputFieldSpec>>> = {
  company: COMPANY_OUTPUT_FIELDS,
  contact: CONTACT_OUTPUT_FIELDS,
  ...SIGNAL_OUTPUT_FIELDS,
};

/** Whether a kind is a record of the contract (company, contact) rather than a signal of a company. */
export const isRecordKind = (kind: EntityKind): kind is RecordKind => kind === "company" || kind === "contact";

export function fieldNames(kind: EntityKind): string[] {
  return Object.keys(OUTPUT_FIELDS[kind]);
}

export function fieldSpec(kind: EntityKind, field: string): OutputFieldSpec | undefined {
  return OUTPUT_FIELDS[kind][field];
}

/**
 * A record id as the service takes it: a positive whole number. Cells hand in numbers or
 * text ("123", " 123 "); anything else (empty, 12.5, -3, "abc", TRUE) is not an id.
 */
export function parseRecordId(raw: unknown): number | undefined {
  let value: number;
  if (typeof raw === "number") value = raw;
  else if (typeof raw === "string" && /^\s*\d+\s*$/.test(raw)) value = Number(raw.trim());
  else return undefined;
  if (!Number.isSafeInteger(value) || value < 1) return undefined;
  return value;
}

const ALL_KINDS = Object.keys(OUTPUT_FIELDS) as EntityKind[];
const lowerCaseIndex = Object.fromEntries(ALL_KINDS.map((kind) => [kind, new Map(fieldNames(kind).map((name) => [name.toLowerCase(), name]))])) as Record<
  EntityKind,
  Map<string, string>
>;

export type FieldResolution = { ok: true; fields: string[] } | { ok: false; unknown: string };

/** Every cell of a sheet names the same few fields: resolve each text once. */
const resolvedText = Object.fromEntries(ALL_KINDS.map((kind) => [kind, new Map()])) as Record<EntityKind, Map<string, FieldResolution>>;
const MAX_REMEMBERED_TEXTS = 1000;

/**
 * Field names from what a user typed: one name, comma-separated names, or a range/array of
 * names (empty cells skipped). Matching ignores case and surrounding spaces; duplicates are kept
 * so a spilled row lines up with what was asked. Callers must not change the returned array.
 */
export function resolveFieldNames(kind: EntityKind, input: unknown): FieldResolution {
  if (typeof input === "string") {
    const known = resolvedText[kind].get(input);
    if (known) return known;
    const resolved = resolveNames(kind, splitNames(input, []));
    if (resolvedText[kind].size < MAX_REMEMBERED_TEXTS) resolvedText[kind].set(input, resolved);
    return resolved;
  }
  return resolveNames(kind, collectNames(input, []));
}

function collectNames(value: unknown, names: string[]): string[] {
  if (Array.isArray(value)) {
    for (const item of value) collectNames(item, names);
    return names;
  }
  if (value === null || value === undefined) return names;
  return splitNames(String(value), names);
}

function splitNames(text: string, names: string[]): string[] {
  for (const part of text.split(",")) {
    const trimmed = part.trim();
    if (trimmed !== "") names.push(trimmed);
  }
  return names;
}

function resolveNames(kind: EntityKind, names: readonly string[]): FieldResolution {
  const fields: string[] = [];
  for (const name of names) {
    // Intent's fields are the topics the service lists (lookup intent-topics): taken as written.
    const canonical = kind === "intent" ? name : lowerCaseIndex[kind].get(name.toLowerCase());
    if (canonical === undefined) return { ok: false, unknown: name };
    fields.push(canonical);
  }
  return { ok: true, fields };
}

/** Contact results carry company fields nested under `company`; cells ask for them flat. */
function flattenAttributes(kind: EntityKind, attributes: Record<string, unknown>): Record<string, unknown> {
  if (kind !== "contact") return attributes;
  const company = attributes.company;
  if (typeof company !== "object" || company === null) return attributes;
  const nested = company as Record<string, unknown>;
  return { ...attributes, companyId: attributes.companyId ?? nested.id, companyName: attributes.companyName ?? nested.name };
}

/** The distinct valid ids of a selection in first-seen order, and how many cells were not ids or blank. */
export function scanSelectedIds(rawIds: readonly unknown[]): { ids: number[]; invalidCount: number; blankCount: number } {
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
  return { ids, invalidCount, blankCount };
}

// ---------- how each kind is asked ----------

/** What the pipeline's requests need of the client (the signal operations for the signal kinds). */
export type EnrichClient = Pick<ServiceClient, "enrichBatch"> & Partial<SignalClient>;

/** One request as the batcher hands it to a kind: read when it leaves. */
export interface SealedRequest {
  inputs: object[];
  outputFields: string[];
}

export interface EnrichmentKind {
  /** The record kind (cache keys, field names, entitlements). */
  kind: EntityKind;
  /** Inputs one request takes. */
  maxInputs: number;
  /** Whether a record new to the account costs a credit: such inputs reserve the daily cap. */
  spends: boolean;
  /** How a person calls the kind's record in a cell's message ("company": a signal's record is its company's). */
  noun: string;
  /** The label of its id ("Company id"). */
  idLabel: string;
  /** One and many of what a match looks for ("person", "people"). */
  matchNouns: readonly [one: string, many: string];
  /**
   * The record kind whose criteria name an input (a website or name names a company, an email a
   * contact). A kind keyed by another kind's record (a signal of a company) matches it first, in
   * the same pass (engine.ts), then asks by id.
   */
  matchKind: RecordKind;
  /** The input that names a record by id. */
  idInput(id: number): object;
  /** Every output field (the "all" companions). */
  fields(): string[];
  /** Fields asked when a request needs none (a match that only wants the id). */
  minimalFields: string[];
  /** One request; `seal` is called once when it leaves. One record per sealed input, in order. */
  send(
    client: EnrichClient,
    seal: () => SealedRequest,
    options: { signal?: AbortSignal; priority?: RequestPriority; now?: () => number },
  ): Promise<EnrichRecord<object>[]>;
  /** The answer's attributes as the record cache holds them (flat field names). */
  cached(attributes: Record<string, unknown>): Record<string, unknown>;
}

const COMPANY_NOUNS = { noun: "company", idLabel: "Company id", matchNouns: ["company", "companies"] as const };

/** A record kind of the contract (companies, contacts): up to 25 inputs a request, by id or by match criteria. */
function recordKind(kind: RecordKind, idField: "companyId" | "personId"): EnrichmentKind {
  return {
    kind,
    maxInputs: LIMITS.maxEnrichInputs,
    spends: true,
    ...(kind === "company" ? COMPANY_NOUNS : { noun: "contact", idLabel: "Person id", matchNouns: ["person", "people"] as const }),
    matchKind: kind,
    idInput: (id) => ({ [idField]: id }),
    fields: () => fieldNames(kind),
    minimalFields: ["id"],
    send: (client, seal, options) =>
      client.enrichBatch(kind, { seal: () => seal() as { inputs: Array<MatchCompanyInput | MatchPersonInput>; outputFields: string[] } }, options),
    cached: (attributes) => flattenAttributes(kind, attributes),
  };
}

/**
 * A signal of a company (docs/signals.md): keyed by the company id, fields as
 * core/signals/signalRecords.ts defines them; a request is the cheapest plan for its companies.
 * Intent, scoops and news spend a bulk-data credit per company new to the kind (the daily cap
 * counts them like records); technologies are free.
 */
function signalKind(kind: SignalRecordKind): EnrichmentKind {
  return {
    kind,
    maxInputs: SIGNAL_MAX_INPUTS[kind],
    spends: (SIGNAL_CREDIT_KINDS as readonly string[]).includes(kind),
    ...COMPANY_NOUNS,
    matchKind: "company",
    idInput: (id) => ({ companyId: id }),
    fields: () => fieldNames(kind),
    minimalFields: fieldNames(kind),
    async send(client, seal, options) {
      const { inputs, outputFields } = seal();
      const ids = inputs.map((input) => (input as { companyId: number }).companyId);
      if (!client.enrichIntent || !client.searchIntent || !client.enrichScoops || !client.enrichNews || !client.enrichTechnologies)
        throw new Error("This client has no signal operations.");
      const records = await fetchSignalRecords(client as SignalClient, kind, ids, outputFields, {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.priority ? { priority: options.priority } : {}),
        ...(options.now ? { clock: { now: options.now } } : {}),
      });
      return inputs.map((input, i) => ({ input, matchStatus: "MATCH", outcome: "matched", id: String(ids[i]), attributes: records.get(ids[i]!) ?? {} }));
    },
    cached: (attributes) => attributes,
  };
}

export const ENRICHMENT_KINDS: Readonly<Record<EntityKind, EnrichmentKind>> = {
  company: recordKind("company", "companyId"),
  contact: recordKind("contact", "personId"),
  ...(Object.fromEntries(SIGNAL_RECORD_KINDS.map((kind) => [kind, signalKind(kind)])) as Record<SignalRecordKind, EnrichmentKind>),
};
