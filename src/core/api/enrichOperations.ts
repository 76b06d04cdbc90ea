// Enrichment operations. enrichCompanies/enrichContacts take any number of inputs (enrich.ts
// dedupes, checks and splits them into requests of 25). enrichBatch sends ONE request whose
// ids and fields are read when it leaves, so the enrichment engine can keep adding work that
// arrives while the request waits behind the rate limiter.
// An answer refusing output fields as unentitled (PFAPI0001/PFAPI0009 naming them) loses no
// batch: the named fields are dropped, the same inputs are sent once more (a refused request
// costs nothing), the fields are reported (to the account's entitlements, and on each record),
// and fields known to be refused are left out of later requests.
import {
  EnrichResultDocument,
  LIMITS,
  PATHS,
  disallowedFieldsOf,
  validateCompanyEnrichBody,
  validateContactEnrichBody,
  type EnrichResultItem,
  type MatchCompanyInput,
  type MatchPersonInput,
  type RecordKind,
} from "../contract/index.js";
import { withSignal, type ClientContext } from "./clientContext.js";
import { assertSameInput, enrichAll, outcomeOf, type SentBatch } from "./enrich.js";
import { isServiceError, serviceError } from "./errors.js";
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
  const post = async (kind: RecordKind, body: unknown, signal: AbortSignal | undefined, priority: RequestPriority | undefined): Promise<EnrichResultItem[]> => {
    const path = SHAPES[kind].path;
    const doc = await ctx.call(EnrichResultDocument, {
      method: "POST",
      url: `${ctx.baseUrl}${path}`,
      operation: `POST ${path}`,
      body,
      // Enriching a record again costs no credit (it is under management), so a repeat is harmless.
      idempotent: true,
      spends: true,
      ...withSignal(signal),
      ...(priority ? { priority } : {}),
    });
    return doc.data;
  };

  /**
   * After a refusal naming unentitled fields: the same inputs once more without them. Undefined
   * when the error is another one, or nothing would be left to ask (the error then stands).
   */
  const withoutRefused = async (
    kind: RecordKind,
    error: unknown,
    body: unknown,
    signal: AbortSignal | undefined,
    priority: RequestPriority | undefined,
  ): Promise<SentBatch | undefined> => {
    const asked = outputFieldsOf(body);
    const refused = refusedFields(error, asked);
    if (refused.length === 0) return undefined;
    ctx.entitlements?.learn(kind, refused);
    const kept = asked.filter((field) => !refused.includes(field));
    if (kept.length === 0) return undefined;
    return { items: await post(kind, withOutputFields(body, kept), signal, priority), unentitledFields: refused };
  };

  /** The body without the fields known to be refused (unless none would be left: the service then says). */
  const leaveOutKnown = (kind: RecordKind, body: unknown): { body: unknown; left: string[] } => {
    const known = ctx.entitlements?.refused(kind);
    const asked = outputFieldsOf(body);
    const left = known ? asked.filter((field) => known.has(field)) : [];
    if (left.length === 0 || left.length === asked.length) return { body, left: [] };
    return { body: withOutputFields(body, asked.filter((field) => !left.includes(field))), left };
  };

  const sender =
    (kind: RecordKind, priority: RequestPriority | undefined) =>
    async (body: unknown, signal: AbortSignal): Promise<SentBatch> => {
      const { body: sendable, left } = leaveOutKnown(kind, body);
      try {
        return { items: await post(kind, sendable, signal, priority), unentitledFields: left };
      } catch (error) {
        const again = await withoutRefused(kind, error, sendable, signal, priority);
        if (!again) throw error;
        return { items: again.items, unentitledFields: [...left, ...again.unentitledFields] };
      }
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
      let sentBody: unknown;
      let left: string[] = [];
      let answer: SentBatch;
      try {
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
            ({ body: sentBody, left } = leaveOutKnown(kind, body));
            return sentBody;
          },
          idempotent: true,
          spends: true,
          ...withSignal(o?.signal),
          ...(o?.priority ? { priority: o.priority } : {}),
        });
        answer = { items: doc.data, unentitledFields: left };
      } catch (error) {
        const again = sentBody === undefined ? undefined : await withoutRefused(kind, error, sentBody, o?.signal, o?.priority);
        if (!again) throw error;
        answer = { items: again.items, unentitledFields: [...left, ...again.unentitledFields] };
      }
      const doc = { data: answer.items };
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
        if (answer.unentitledFields.length > 0) record.unentitledFields = answer.unentitledFields;
        return record;
      });
    },
  };
}
