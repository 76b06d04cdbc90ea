// The kinds of enrichment the pipeline knows, each a declaration: how its requests are sent, how
// many inputs one request takes, how an input names a record by id, whether a new record spends
// a credit (and so the daily cap), and how an answer's attributes are cached. The batcher, the
// caches, the spend guard, companions and entitlements work on any kind the same way; adding a
// kind (intent, scoops, news, technologies) is one more entry here (docs/architecture.md).
import type { EnrichRecord, RequestPriority, ServiceClient } from "../api/types.js";
import { LIMITS, SIGNAL_RECORD_KINDS, type MatchCompanyInput, type MatchPersonInput, type RecordKind, type SignalRecordKind } from "../contract/index.js";
import { fetchSignalRecords, SIGNAL_MAX_INPUTS, type SignalClient } from "../signals/index.js";
import { fieldNames, flattenAttributes, type EntityKind } from "./fields.js";

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
  /** The input that names a record by id. */
  idInput(id: number): object;
  /** Every output field (the "all" companions). */
  fields(): string[];
  /** Fields asked when a request needs none (a match that only wants the id). */
  minimalFields: string[];
  /** One request; `seal` is called once when it leaves. One record per sealed input, in order. */
  send(client: EnrichClient, seal: () => SealedRequest, options: { signal?: AbortSignal; priority?: RequestPriority }): Promise<EnrichRecord<object>[]>;
  /** The answer's attributes as the record cache holds them (flat field names). */
  cached(attributes: Record<string, unknown>): Record<string, unknown>;
}

/** A record kind of the contract (companies, contacts): up to 25 inputs a request, by id or by match criteria. */
function recordKind(kind: RecordKind, idField: "companyId" | "personId"): EnrichmentKind {
  return {
    kind,
    maxInputs: LIMITS.maxEnrichInputs,
    spends: true,
    idInput: (id) => ({ [idField]: id }),
    fields: () => fieldNames(kind),
    minimalFields: ["id"],
    send: (client, seal, options) =>
      client.enrichBatch(kind, { seal: () => seal() as { inputs: Array<MatchCompanyInput | MatchPersonInput>; outputFields: string[] } }, options),
    cached: (attributes) => flattenAttributes(kind, attributes),
  };
}

/**
 * A signal of a company (docs/signals.md): keyed by the company id, no credit, fields as
 * core/signals/signalRecords.ts defines them; a request is the cheapest plan for its companies.
 */
function signalKind(kind: SignalRecordKind): EnrichmentKind {
  return {
    kind,
    maxInputs: SIGNAL_MAX_INPUTS[kind],
    spends: false,
    idInput: (id) => ({ companyId: id }),
    fields: () => fieldNames(kind),
    minimalFields: fieldNames(kind),
    async send(client, seal, options) {
      const { inputs, outputFields } = seal();
      const ids = inputs.map((input) => (input as { companyId: number }).companyId);
      if (!client.enrichIntent || !client.searchIntent || !client.enrichScoops || !client.enrichNews || !client.enrichTechnologies) throw new Error("This client has no signal operations.");
      const records = await fetchSignalRecords(client as SignalClient, kind, ids, outputFields, options.signal ? { signal: options.signal } : {});
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
