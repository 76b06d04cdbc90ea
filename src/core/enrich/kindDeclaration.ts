// What a kind of enrichment is, as one declaration (docs/architecture.md): its operation, how
// its input is resolved, its fields, its words, how a request is sent and how its answer is
// cached and charged. The pipeline (engine, batcher, caches, spend guard, companions) reads
// nothing else about a kind, so a kind declared here, or given to an engine (its `kinds`
// option), flows through it like the built-in ones (builtInKinds.ts).
import type { EnrichRecord, RequestPriority, ServiceClient } from "../api/types.js";
import type { OutputFieldSpec, RecordKind } from "../contract/index.js";
import type { SignalClient } from "../signals/index.js";

/** What the pipeline's requests need of the client: record enrich, the signal operations, corporate families, and a posted document (a declared kind's own operation). */
export type EnrichClient = Pick<ServiceClient, "enrichBatch"> &
  Partial<SignalClient> &
  Partial<Pick<ServiceClient, "postDocument" | "enrichHierarchy" | "companyInsights">>;

/** One request as the batcher hands it to a kind: read when it leaves. */
export interface SealedRequest {
  inputs: object[];
  outputFields: string[];
}

/** A request's options, as the pipeline gives them: cancel, whose wait it is, and the engine's time. */
export interface KindRequestOptions {
  signal?: AbortSignal;
  priority?: RequestPriority;
  now?: () => number;
}

export interface EnrichmentKind {
  /** Its name (cache keys, field names, entitlements, cells). */
  kind: string;
  /** What the Enrich pane calls it ("Intent scores"). */
  label: string;
  /** Its output fields: labels and types for cells and columns. */
  outputFields: Readonly<Record<string, OutputFieldSpec>>;
  /** The fields Enrich selection starts with (ids), and with a list to match (the found record's name and website come along). */
  defaultFields: readonly string[];
  matchDefaultFields: readonly string[];
  /** Field names taken as written, not from `outputFields` (intent's fields are the topics the service lists). */
  fieldsAsWritten?: boolean;
  /** Fields asked when a request needs none (a match that only wants the id). */
  minimalFields: readonly string[];
  /** Whether fields likely asked next ride along: a record's cost nothing more, a signal's cost by what they ask. */
  companions: boolean;
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
  /** One request; `seal` is called once when it leaves. One record per sealed input, in order. */
  send(client: EnrichClient, seal: () => SealedRequest, options: KindRequestOptions): Promise<EnrichRecord<object>[]>;
  /** The answer's attributes as the record cache holds them (flat field names). */
  cached(attributes: Record<string, unknown>): Record<string, unknown>;
  /** Until when an answer holds (ms since epoch), for a kind whose answers expire (insights); default the cache's age limit. */
  freshUntil?(attributes: Record<string, unknown>, now: number): number | undefined;
}

/** The company id of an input of a kind keyed by company (`{ companyId }`). */
/** The words and input of a kind whose record is a company, given by its id. */
export const COMPANY_KEYED = {
  noun: "company",
  idLabel: "Company id",
  matchNouns: ["company", "companies"] as const,
  matchKind: "company" as const,
  idInput: (id: number): object => ({ companyId: id }),
};

/** What a kind's request passes on to the client: the caller's cancel and priority, where given. */
export function callOptions(options: KindRequestOptions): { signal?: AbortSignal; priority?: RequestPriority } {
  return { ...(options.signal ? { signal: options.signal } : {}), ...(options.priority ? { priority: options.priority } : {}) };
}

export const companyIdOf = (input: object): number => (input as { companyId: number }).companyId;

/** A matched record per input, for kinds whose operation answers per company id (signals, hashtags). */
export function recordsByCompany(inputs: readonly object[], attributes: (id: number) => Record<string, unknown>): EnrichRecord<object>[] {
  return inputs.map((input) => {
    const id = companyIdOf(input);
    return { input, matchStatus: "MATCH", outcome: "matched", id: String(id), attributes: attributes(id) };
  });
}
