// Enrichment operations. enrichCompanies/enrichContacts take any number of inputs (enrich.ts
// dedupes, checks and splits them into requests of 25). enrichBatch sends ONE request whose
// ids and fields are read when it leaves, so the enrichment engine can keep adding work that
// arrives while the request waits behind the rate limiter.
import {
  EnrichResultDocument,
  LIMITS,
  PATHS,
  validateCompanyEnrichBody,
  validateContactEnrichBody,
  type EnrichResultItem,
  type MatchCompanyInput,
  type MatchPersonInput,
  type RecordKind,
} from "../contract/index.js";
import { withSignal, type ClientContext } from "./clientContext.js";
import { assertSameInput, enrichAll, outcomeOf } from "./enrich.js";
import { serviceError } from "./errors.js";
import type { EnrichRecord, OpenEnrichBatch, RequestPriority, ServiceClient } from "./types.js";

const SHAPES = {
  company: {
    path: PATHS.enrichCompanies,
    idField: "companyId",
    inputMember: "matchCompanyInput",
    type: "CompanyEnrich",
    validate: validateCompanyEnrichBody,
  },
  contact: {
    path: PATHS.enrichContacts,
    idField: "personId",
    inputMember: "matchPersonInput",
    type: "ContactEnrich",
    validate: validateContactEnrichBody,
  },
} as const;

function enrichBody(kind: RecordKind, inputs: readonly object[], outputFields: readonly string[]): unknown {
  const shape = SHAPES[kind];
  return { data: { type: shape.type, attributes: { [shape.inputMember]: inputs, outputFields } } };
}

type EnrichOperations = Pick<ServiceClient, "enrichCompanies" | "enrichContacts" | "enrichBatch">;

export function enrichOperations(ctx: ClientContext): EnrichOperations {
  const sender =
    (kind: RecordKind, priority: RequestPriority | undefined) =>
    async (body: unknown, signal: AbortSignal): Promise<EnrichResultItem[]> => {
      const path = SHAPES[kind].path;
      const doc = await ctx.call(EnrichResultDocument, {
        method: "POST",
        url: `${ctx.baseUrl}${path}`,
        operation: `POST ${path}`,
        body,
        // Enriching a record again costs no credit (it is under management), so a repeat is harmless.
        idempotent: true,
        spends: true,
        signal,
        ...(priority ? { priority } : {}),
      });
      return doc.data;
    };

  return {
    enrichCompanies: (inputs: MatchCompanyInput[], outputFields: string[], o) =>
      enrichAll({
        inputs,
        idField: SHAPES.company.idField,
        inputMember: SHAPES.company.inputMember,
        buildBody: (chunk) => enrichBody("company", chunk, outputFields),
        validate: SHAPES.company.validate,
        send: sender("company", o?.priority),
        ...(o ? { options: o } : {}),
      }),
    enrichContacts: (inputs: MatchPersonInput[], outputFields: string[], o) =>
      enrichAll({
        inputs,
        idField: SHAPES.contact.idField,
        inputMember: SHAPES.contact.inputMember,
        buildBody: (chunk) => enrichBody("contact", chunk, outputFields),
        validate: SHAPES.contact.validate,
        send: sender("contact", o?.priority),
        ...(o ? { options: o } : {}),
      }),

    async enrichBatch(kind: RecordKind, batch: OpenEnrichBatch, o) {
      const shape = SHAPES[kind];
      const operation = `POST ${shape.path}`;
      let sent: number[] = [];
      const doc = await ctx.call(EnrichResultDocument, {
        method: "POST",
        url: `${ctx.baseUrl}${shape.path}`,
        operation,
        bodyWhenSent: () => {
          const { ids, outputFields } = batch.seal();
          if (ids.length === 0 || ids.length > LIMITS.maxEnrichInputs || new Set(ids).size !== ids.length) {
            throw serviceError("validation", { operation, message: `${operation} not sent: one request takes 1 to 25 distinct ids, not ${ids.length}` });
          }
          const body = enrichBody(kind, ids.map((id) => ({ [shape.idField]: id })), outputFields);
          const issues = shape.validate(body);
          if (issues.length > 0) throw serviceError("validation", { issues, operation, message: `${operation} not sent: ${issues.map((i) => i.message).join(" ")}` });
          sent = ids;
          return body;
        },
        idempotent: true,
        spends: true,
        ...withSignal(o?.signal),
        ...(o?.priority ? { priority: o.priority } : {}),
      });
      if (doc.data.length !== sent.length) {
        throw serviceError("invalidResponse", { message: `Enrichment answered ${doc.data.length} results for ${sent.length} inputs` });
      }
      return doc.data.map((item, index): EnrichRecord<MatchCompanyInput | MatchPersonInput> => {
        const id = sent[index] as number;
        assertSameInput({ [shape.idField]: id }, item, shape.idField);
        const matchStatus = item.meta.matchStatus;
        const outcome = outcomeOf(matchStatus);
        const record: EnrichRecord<MatchCompanyInput | MatchPersonInput> = {
          input: kind === "company" ? { companyId: id } : { personId: id },
          matchStatus,
          outcome,
          attributes: item.attributes ?? {},
          item,
        };
        if (outcome === "matched") record.id = item.id;
        return record;
      });
    },
  };
}
