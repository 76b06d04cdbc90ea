// Enrichment operations: each sends ONE request. enrichBatch reads its inputs and fields when the
// request leaves (after its rate-limit slot), so the enrichment pipeline (src/core/enrich) can
// keep adding work that arrives while it waits; enrichCompanies/enrichContacts send the inputs
// they are given as they are. The request's checks and
// the reading of its answer are below the operations.
// An answer refusing output fields as unentitled (PFAPI0001/PFAPI0009 naming them) loses no
// request: the named fields are dropped, the same inputs are sent once more (a refused request
// costs nothing), the fields are reported (to the account's entitlements, and on each record),
// and fields known to be refused are left out of later requests.
import {
  EnrichResultDocument,
  disallowedFieldsOf,
  validateCompanyEnrichBody,
  validateContactEnrichBody,
  type MatchCompanyInput,
  type EnrichResultItem,
  type MatchPersonInput,
  LIMITS,
  type RecordKind,
  type ValidationIssue,
} from "../contract/index.js";
import type { ClientContext } from "./clientContext.js";
import { callOperation, operationLabel } from "./operationCall.js";
import { isServiceError, serviceError } from "./errors.js";
import type { EnrichOutcome, EnrichRecord, OpenEnrichBatch, RequestPriority, ServiceClient } from "./types.js";

const SHAPES: Record<RecordKind, EnrichShape & { id: "enrichCompanies" | "enrichContacts" }> = {
  company: {
    id: "enrichCompanies",
    idField: "companyId",
    inputMember: "matchCompanyInput",
    buildBody: (inputs, outputFields) => ({ data: { type: "CompanyEnrich", attributes: { matchCompanyInput: inputs, outputFields } } }),
    validate: validateCompanyEnrichBody,
  },
  contact: {
    id: "enrichContacts",
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

/** The body without the output fields known to be refused, unless none would be left (the service then says). */
function withoutKnownRefused(body: unknown, known: ReadonlySet<string> | undefined): { body: unknown; left: string[] } {
  const asked = outputFieldsOf(body);
  const leave = known ? asked.filter((field) => known.has(field)) : [];
  const left = leave.length === 0 || leave.length === asked.length ? [] : leave;
  return {
    body:
      left.length === 0
        ? body
        : withOutputFields(
            body,
            asked.filter((field) => !left.includes(field)),
          ),
    left,
  };
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
    options?: { signal?: AbortSignal; priority?: RequestPriority },
  ): Promise<EnrichRecord<TInput>[]> {
    const shape = SHAPES[kind];
    const operation = operationLabel(shape.id);
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
    // Enriching a record again costs no credit (it is under management): the table calls a repeat harmless.
    const spec = { answer: EnrichResultDocument, signal: options?.signal, priority: options?.priority };
    const post = async (body: unknown): Promise<EnrichResultItem[]> => (await callOperation(ctx, shape.id, { ...spec, body })).data;
    // Fields known to be refused are left out (unless none would be left: the service then says).
    let sentBody: unknown;
    let left: string[] = [];
    const leaveOutKnown = (body: unknown): unknown => {
      ({ body: sentBody, left } = withoutKnownRefused(body, ctx.entitlements?.refused(kind)));
      return sentBody;
    };
    let items: EnrichResultItem[];
    let unentitled: string[] = [];
    try {
      const doc = await callOperation(ctx, shape.id, { ...spec, bodyWhenSent: () => leaveOutKnown((checked ?? check()).body ?? {}) });
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
    enrichBatch: (kind, batch, options) => send(kind, batch, options),
    enrichCompanies: async (inputs, outputFields, options) =>
      inputs.length === 0 ? [] : send<MatchCompanyInput>("company", { seal: () => ({ inputs, outputFields }), sealNow: true }, options),
    enrichContacts: async (inputs, outputFields, options) =>
      inputs.length === 0 ? [] : send<MatchPersonInput>("contact", { seal: () => ({ inputs, outputFields }), sealNow: true }, options),
  };
}

// ---- one request: its checks and its answer ----
// What one enrichment request is, apart from sending it: the inputs and fields it carries are
// checked before it leaves (an input the contract refuses is that input's own outcome and is not
// sent; a problem of the request as a whole refuses it), the answer is read back in input order,
// and each result's matchStatus becomes an outcome. Deduplication, batching and pacing belong to
// the enrichment pipeline (src/core/enrich), not here: the client sends exactly what it is given.

const MATCHED = new Set(["FULL_MATCH", "CONTACT_ONLY_MATCH"]);
const NO_MATCH = new Set([
  "NO_MATCH",
  "COMPANY_ONLY_MATCH",
  "OPT_OUT",
  "NON_MATCH_BY_LAST_UPDATED_DATE",
  "NON_MATCH_BY_VALID_DATE",
  "NON_MATCH_BY_REQUIRED_FIELDS",
  "NON_MATCH_BY_CONTACT_ACCURACY_MIN",
]);

export function outcomeOf(matchStatus: string): EnrichOutcome {
  if (MATCHED.has(matchStatus)) return "matched";
  if (NO_MATCH.has(matchStatus)) return "noMatch";
  if (matchStatus === "LIMIT_EXCEEDED") return "limitExceeded";
  if (matchStatus === "INVALID_INPUT") return "invalidInput";
  return "other";
}

/** How one kind's request body is built and checked. */
export interface EnrichShape {
  /** The id member of an input: companyId or personId. */
  idField: string;
  /** Name of the input array in the body: matchCompanyInput or matchPersonInput. */
  inputMember: string;
  buildBody(inputs: readonly object[], outputFields: readonly string[]): unknown;
  validate(body: unknown): ValidationIssue[];
}

/** A request ready to leave: its body, and which of the given inputs it carries. */
export interface CheckedRequest {
  /** Undefined when no input is left to send. */
  body: unknown;
  /** Indexes (into the given inputs) of the inputs sent, in body order. */
  sent: number[];
  /** Inputs refused before sending, by index, with their issues. */
  refused: Map<number, ValidationIssue[]>;
}

/**
 * Checks one request's inputs and fields before it leaves. Each input is checked alone (as item
 * 0 of a one-input body); its issues name it by its place in the request instead.
 */
export function checkRequest(shape: EnrichShape, operation: string, inputs: readonly object[], outputFields: readonly string[]): CheckedRequest {
  if (inputs.length === 0 || inputs.length > LIMITS.maxEnrichInputs) {
    throw serviceError("validation", {
      operation,
      message: `${operation} not sent: one request takes 1 to ${LIMITS.maxEnrichInputs} inputs, not ${inputs.length}`,
    });
  }
  const prefix = `/data/attributes/${shape.inputMember}/`;
  const refused = new Map<number, ValidationIssue[]>();
  const sent: number[] = [];
  inputs.forEach((input, index) => {
    const issues = shape.validate(shape.buildBody([input], outputFields));
    const general = issues.filter((i) => !i.pointer?.startsWith(prefix));
    if (general.length > 0)
      throw serviceError("validation", { issues: general, operation, message: `${operation} not sent: ${general.map((i) => i.message).join(" ")}` });
    if (issues.length > 0)
      refused.set(
        index,
        issues.map((issue) => renumber(issue, prefix, index)),
      );
    else sent.push(index);
  });
  if (sent.length === 0) return { body: undefined, sent, refused };
  const body = shape.buildBody(
    sent.map((index) => inputs[index] as object),
    outputFields,
  );
  const issues = shape.validate(body);
  if (issues.length > 0) throw serviceError("validation", { issues, operation, message: `${operation} not sent: ${issues.map((i) => i.message).join(" ")}` });
  return { body, sent, refused };
}

/** One record per given input, in their order: the answer's items for the ones sent, the refusals for the others. */
export function recordsOf<TInput extends object>(
  shape: EnrichShape,
  inputs: readonly TInput[],
  checked: CheckedRequest,
  items: readonly EnrichResultItem[],
): EnrichRecord<TInput>[] {
  if (items.length !== checked.sent.length) {
    throw serviceError("invalidResponse", { message: `Enrichment answered ${items.length} results for ${checked.sent.length} inputs` });
  }
  const byIndex = new Map<number, EnrichResultItem>();
  checked.sent.forEach((index, at) => {
    const item = items[at] as EnrichResultItem;
    assertSameInput(inputs[index] as object, item, shape.idField);
    byIndex.set(index, item);
  });
  return inputs.map((input, index) => {
    const issues = checked.refused.get(index);
    if (issues) return { input, matchStatus: "INVALID_INPUT", outcome: "invalidInput", attributes: {}, issues };
    const item = byIndex.get(index) as EnrichResultItem;
    const matchStatus = item.meta.matchStatus;
    const outcome = outcomeOf(matchStatus);
    const record: EnrichRecord<TInput> = { input, matchStatus, outcome, attributes: item.attributes ?? {}, item };
    if (outcome === "matched") record.id = item.id;
    return record;
  });
}

function renumber(issue: ValidationIssue, inputPrefix: string, index: number): ValidationIssue {
  if (index === 0) return issue;
  const label = issue.label.replace(/^(Company|Contact) 1\b/, `$1 ${index + 1}`);
  return {
    ...issue,
    ...(issue.pointer !== undefined ? { pointer: issue.pointer.replace(`${inputPrefix}0`, `${inputPrefix}${index}`) } : {}),
    label,
    message: issue.message.split(issue.label).join(label),
  };
}

/** Results come back in input order; an echo that names another record means they did not. */
export function assertSameInput(input: object, item: EnrichResultItem, idField: string): void {
  const sent = (input as Record<string, unknown>)[idField];
  const echoed = item.meta.input?.[idField];
  if (sent !== undefined && echoed !== undefined && String(sent) !== String(echoed)) {
    throw serviceError("invalidResponse", {
      message: `Enrichment answered for ${idField} ${String(echoed)} where ${String(sent)} was sent`,
    });
  }
}
