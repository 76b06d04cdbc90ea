// Enrichment operations: each sends ONE request. enrichBatch reads its inputs and fields when the
// request leaves (after its rate-limit slot), so the enrichment pipeline (src/core/enrich) can
// keep adding work that arrives while it waits; enrichCompanies/enrichContacts send the inputs
// they are given as they are. enrich.ts checks the request and reads the answer.
// An answer refusing output fields as unentitled (PFAPI0001/PFAPI0009 naming them) loses no
// request: the named fields are dropped, the same inputs are sent once more (a refused request
// costs nothing), the fields are reported (to the account's entitlements, and on each record),
// and fields known to be refused are left out of later requests.
import {
  EnrichResultDocument,
  PATHS,
  disallowedFieldsOf,
  validateCompanyEnrichBody,
  validateContactEnrichBody,
  type MatchCompanyInput,
  type EnrichResultItem,
  type MatchPersonInput,
  type RecordKind,
} from "../contract/index.js";
import { withSignal, type ClientContext } from "./clientContext.js";
import { checkRequest, recordsOf, type CheckedRequest, type EnrichShape } from "./enrich.js";
import { isServiceError } from "./errors.js";
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

type EnrichBody = { data: { attributes: { outputFields?: unknown } } };

function outputFieldsOf(body: unknown): string[] {
  const fields = (body as EnrichBody | undefined)?.data?.attributes?.outputFields;
  return Array.isArray(fields) ? fields.filter((f): f is string => typeof f === "string") : [];
}

function withOutputFields(body: unknown, outputFields: string[]): unknown {
  const b = body as EnrichBody;
  return { ...b, data: { ...b.data, attributes: { ...b.data.attributes, outputFields } } };
}

/** The asked output fields an enrichment error refuses as unentitled (none for any other error). */
function refusedFields(error: unknown, asked: readonly string[]): string[] {
  if (!isServiceError(error) || error.kind !== "validation") return [];
  return disallowedFieldsOf(error.errors).filter((field) => asked.includes(field));
}

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
    const post = async (body: unknown): Promise<EnrichResultItem[]> =>
      (
        await ctx.call(EnrichResultDocument, {
          method: "POST",
          url: `${ctx.baseUrl}${shape.path}`,
          operation,
          body,
          // Enriching a record again costs no credit (it is under management), so a repeat is harmless.
          idempotent: true,
          spends: true,
          ...withSignal(o?.signal),
          ...(o?.priority ? { priority: o.priority } : {}),
        })
      ).data;
    // Fields known to be refused are left out (unless none would be left: the service then says).
    let sentBody: unknown;
    let left: string[] = [];
    const leaveOutKnown = (body: unknown): unknown => {
      const known = ctx.entitlements?.refused(kind);
      const asked = outputFieldsOf(body);
      const leave = known ? asked.filter((field) => known.has(field)) : [];
      left = leave.length === 0 || leave.length === asked.length ? [] : leave;
      sentBody = left.length === 0 ? body : withOutputFields(body, asked.filter((field) => !left.includes(field)));
      return sentBody;
    };
    let items: EnrichResultItem[];
    let unentitled: string[] = [];
    try {
      const doc = await ctx.call(EnrichResultDocument, {
        method: "POST",
        url: `${ctx.baseUrl}${shape.path}`,
        operation,
        bodyWhenSent: () => leaveOutKnown((checked ?? check()).body ?? {}),
        // Enriching a record again costs no credit (it is under management), so a repeat is harmless.
        idempotent: true,
        spends: true,
        ...withSignal(o?.signal),
        ...(o?.priority ? { priority: o.priority } : {}),
      });
      items = doc.data;
      unentitled = left;
    } catch (error) {
      // A refusal naming unentitled fields: the same inputs once more without them.
      const asked = sentBody === undefined ? [] : outputFieldsOf(sentBody);
      const refused = refusedFields(error, asked);
      if (refused.length === 0) throw error;
      ctx.entitlements?.learn(kind, refused);
      const kept = asked.filter((field) => !refused.includes(field));
      if (kept.length === 0) throw error;
      items = await post(withOutputFields(sentBody, kept));
      unentitled = [...left, ...refused];
    }
    const records = recordsOf(shape, inputs, checked as CheckedRequest, items);
    if (unentitled.length > 0) for (const record of records) record.unentitledFields = unentitled;
    return records;
  }

  return {
    enrichBatch: (kind, batch, o) => send(kind, batch, o),
    enrichCompanies: async (inputs, outputFields, o) => (inputs.length === 0 ? [] : send<MatchCompanyInput>("company", { seal: () => ({ inputs, outputFields }), sealNow: true }, o)),
    enrichContacts: async (inputs, outputFields, o) => (inputs.length === 0 ? [] : send<MatchPersonInput>("contact", { seal: () => ({ inputs, outputFields }), sealNow: true }, o)),
  };
}
