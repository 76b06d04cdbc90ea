// The kinds of enrichment the pipeline knows, each a declaration: how its requests are sent, how
// many inputs one request takes, how an input names a record by id, whether a new record spends
// a credit (and so the daily cap), and how an answer's attributes are cached. The batcher, the
// caches, the spend guard, companions and entitlements work on any kind the same way; adding a
// kind (intent, scoops, news, technologies) is one more entry here (docs/architecture.md).
import type { EnrichRecord, RequestPriority, ServiceClient } from "../api/types.js";
import { LIMITS, type MatchCompanyInput, type MatchPersonInput } from "../contract/index.js";
import { fieldNames, flattenAttributes, type EntityKind } from "./fields.js";

/** What the pipeline's requests need of the client. */
export type EnrichClient = Pick<ServiceClient, "enrichBatch">;

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
function recordKind(kind: EntityKind, idField: "companyId" | "personId"): EnrichmentKind {
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

export const ENRICHMENT_KINDS: Readonly<Record<EntityKind, EnrichmentKind>> = {
  company: recordKind("company", "companyId"),
  contact: recordKind("contact", "personId"),
};
