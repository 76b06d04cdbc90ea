// Enrichment operations: each sends ONE request. enrichBatch reads its inputs and fields when the
// request leaves (after its rate-limit slot), so the enrichment pipeline (src/core/enrich) can
// keep adding work that arrives while it waits; enrichCompanies/enrichContacts send the inputs
// they are given as they are. enrich.ts checks the request and reads the answer.
import {
  EnrichResultDocument,
  PATHS,
  validateCompanyEnrichBody,
  validateContactEnrichBody,
  type MatchCompanyInput,
  type MatchPersonInput,
  type RecordKind,
} from "../contract/index.js";
import { withSignal, type ClientContext } from "./clientContext.js";
import { checkRequest, recordsOf, type CheckedRequest, type EnrichShape } from "./enrich.js";
import type { EnrichRecord, OpenEnrichBatch, RequestPriority, ServiceClient } from "./types.js";

const SHAPES: Record<RecordKind, EnrichShape & { path: string }> = {
  company: {
    path: PATHS.enrichCompanies,
    idField: "companyId",
    inputMember: "matchCompanyInput",
    buildBody: (inputs, outputFields) => ({ data: { type: "CompanyEnrich", attributes: { matchCompanyInput: inputs, outputFields } } }),
    validate: validateCompanyEnrichBody,
  },
  contact: {
    path: PATHS.enrichContacts,
    idField: "personId",
    inputMember: "matchPersonInput",
    buildBody: (inputs, outputFields) => ({ data: { type: "ContactEnrich", attributes: { matchPersonInput: inputs, outputFields } } }),
    validate: validateContactEnrichBody,
  },
};

type EnrichOperations = Pick<ServiceClient, "enrichCompanies" | "enrichContacts" | "enrichBatch">;

export function enrichOperations(ctx: ClientContext): EnrichOperations {
  async function send<TInput extends MatchCompanyInput | MatchPersonInput>(
    kind: RecordKind,
    batch: OpenEnrichBatch<TInput>,
    o?: { signal?: AbortSignal; priority?: RequestPriority },
  ): Promise<EnrichRecord<TInput>[]> {
    const shape = SHAPES[kind];
    const operation = `POST ${shape.path}`;
    let inputs: TInput[] = [];
    let checked: CheckedRequest | undefined;
    const check = (): CheckedRequest => {
      const sealed = batch.seal();
      inputs = sealed.inputs;
      checked = checkRequest(shape, operation, inputs, sealed.outputFields);
      return checked;
    };
    if (batch.sealNow) check();
    if (checked?.body === undefined && checked !== undefined) return recordsOf(shape, inputs, checked, []);
    const doc = await ctx.call(EnrichResultDocument, {
      method: "POST",
      url: `${ctx.baseUrl}${shape.path}`,
      operation,
      bodyWhenSent: () => (checked ?? check()).body ?? {},
      // Enriching a record again costs no credit (it is under management), so a repeat is harmless.
      idempotent: true,
      spends: true,
      ...withSignal(o?.signal),
      ...(o?.priority ? { priority: o.priority } : {}),
    });
    return recordsOf(shape, inputs, checked as CheckedRequest, doc.data);
  }

  return {
    enrichBatch: (kind, batch, o) => send(kind, batch, o),
    enrichCompanies: async (inputs, outputFields, o) => (inputs.length === 0 ? [] : send<MatchCompanyInput>("company", { seal: () => ({ inputs, outputFields }), sealNow: true }, o)),
    enrichContacts: async (inputs, outputFields, o) => (inputs.length === 0 ? [] : send<MatchPersonInput>("contact", { seal: () => ({ inputs, outputFields }), sealNow: true }, o)),
  };
}
