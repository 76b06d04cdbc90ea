// Enrichment of any number of inputs: duplicates are sent once (by record id, or by the whole
// match criteria when there is no id), inputs go in requests of at most 25, every request is
// checked before sending, and each input gets its own result back in input order. Per-record
// outcomes (no match, limit exceeded, invalid input, unknown statuses) are values.
import { LIMITS, type EnrichResultItem, type ValidationIssue } from "../contract/index.js";
import { serviceError } from "./errors.js";
import { cancelledError } from "./request.js";
import type { EnrichOptions, EnrichOutcome, EnrichRecord } from "./types.js";

/** What one enrichment request answered: its items, and the output fields left out as unentitled. */
export interface SentBatch {
  items: EnrichResultItem[];
  unentitledFields: string[];
}

export interface EnrichJob<TInput extends object> {
  inputs: TInput[];
  /** The id member of an input: companyId or personId. */
  idField: string;
  /** Name of the input array in the body: matchCompanyInput or matchPersonInput. */
  inputMember: string;
  buildBody(inputs: TInput[]): unknown;
  validate(body: unknown): ValidationIssue[];
  /** Sends one request and returns its result items (already shape-checked) and the output fields refused as unentitled. */
  send(body: unknown, signal: AbortSignal): Promise<SentBatch>;
  options?: EnrichOptions;
}

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

/** JSON with sorted keys, so {a,b} and {b,a} are the same criteria. */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/** The identity of an input for de-duplication. */
function enrichKey(input: object, idField: string): string {
  const id = (input as Record<string, unknown>)[idField];
  if (typeof id === "number" || typeof id === "string") return `id:${String(id)}`;
  return `criteria:${canonicalJson(input)}`;
}

export async function enrichAll<TInput extends object>(job: EnrichJob<TInput>): Promise<EnrichRecord<TInput>[]> {
  const { inputs, options } = job;
  if (inputs.length === 0) return [];
  if (options?.signal?.aborted) throw cancelledError("enrichment");

  // 1. De-duplicate, keeping the first occurrence's input as the one sent.
  const keys = inputs.map((input) => enrichKey(input, job.idField));
  const unique = new Map<string, TInput>();
  const firstIndex = new Map<string, number>();
  inputs.forEach((input, i) => {
    const key = keys[i]!;
    if (!unique.has(key)) {
      unique.set(key, input);
      firstIndex.set(key, i);
    }
  });

  // 2. Check every input before anything is sent. A bad input is that record's outcome; a bad
  //    request as a whole (output fields, say) refuses the call.
  const inputPrefix = `/data/attributes/${job.inputMember}/`;
  const refused = new Map<string, ValidationIssue[]>();
  const sendable: Array<[string, TInput]> = [];
  for (const [key, input] of unique) {
    const issues = job.validate(job.buildBody([input]));
    const own = issues.filter((i) => i.pointer?.startsWith(inputPrefix));
    const general = issues.filter((i) => !i.pointer?.startsWith(inputPrefix));
    if (general.length > 0) throw serviceError("validation", { issues: general, message: general.map((i) => i.message).join(" ") });
    if (own.length > 0) refused.set(key, own.map((issue) => renumber(issue, inputPrefix, firstIndex.get(key) ?? 0)));
    else sendable.push([key, input]);
  }
  const chunks: Array<Array<[string, TInput]>> = [];
  for (let i = 0; i < sendable.length; i += LIMITS.maxEnrichInputs) chunks.push(sendable.slice(i, i + LIMITS.maxEnrichInputs));
  const bodies = chunks.map((chunk) => job.buildBody(chunk.map(([, input]) => input)));
  for (const body of bodies) {
    const issues = job.validate(body);
    if (issues.length > 0) throw serviceError("validation", { issues, message: issues.map((i) => i.message).join(" ") });
  }

  // 3. Send every chunk; the request runner's concurrency cap and rate limiter pace them (in
  //    order, first come first served). The first failure cancels the ones not yet answered.
  // One controller per request, stopped together: every waiting request listening on one shared
  // signal would pile up listeners (more than ten requests waiting is ordinary here).
  const perChunk = chunks.map(() => new AbortController());
  const stopAll = (reason?: unknown) => perChunk.forEach((c) => c.abort(reason));
  const onCallerAbort = () => stopAll(options?.signal?.reason);
  options?.signal?.addEventListener("abort", onCallerAbort, { once: true });
  const results = new Map<string, EnrichResultItem>();
  const unentitled = new Map<string, string[]>();
  const progress = { requestsDone: 0, requestsTotal: chunks.length, recordsDone: 0, recordsTotal: sendable.length };
  const sendChunk = async (chunk: Array<[string, TInput]>, body: unknown, signal: AbortSignal): Promise<void> => {
    const { items, unentitledFields } = await job.send(body, signal);
    if (items.length !== chunk.length) {
      throw serviceError("invalidResponse", {
        message: `Enrichment answered ${items.length} results for ${chunk.length} inputs`,
      });
    }
    chunk.forEach(([key, input], i) => {
      const item = items[i]!;
      assertSameInput(input, item, job.idField);
      results.set(key, item);
      if (unentitledFields.length > 0) unentitled.set(key, unentitledFields);
    });
    progress.requestsDone += 1;
    progress.recordsDone += chunk.length;
    options?.onProgress?.({ ...progress });
  };
  try {
    const sent = chunks.map((chunk, c) =>
      sendChunk(chunk, bodies[c], perChunk[c]!.signal).catch((error: unknown) => {
        stopAll();
        throw error;
      }),
    );
    // The first failure is the one reported; the others (cancelled by it) are expected.
    for (const one of sent) one.catch(() => undefined);
    await Promise.all(sent);
    if (options?.signal?.aborted) throw cancelledError("enrichment");
  } catch (error) {
    if (options?.signal?.aborted) throw cancelledError("enrichment");
    throw error;
  } finally {
    options?.signal?.removeEventListener("abort", onCallerAbort);
  }

  // 4. One record per input, in input order, duplicates included.
  return inputs.map((input, i) => {
    const key = keys[i]!;
    const issues = refused.get(key);
    if (issues) {
      return { input, matchStatus: "INVALID_INPUT", outcome: "invalidInput", attributes: {}, issues };
    }
    const item = results.get(key)!;
    const matchStatus = item.meta.matchStatus;
    const outcome = outcomeOf(matchStatus);
    const record: EnrichRecord<TInput> = { input, matchStatus, outcome, attributes: item.attributes ?? {}, item };
    if (outcome === "matched") record.id = item.id;
    const refusedFields = unentitled.get(key);
    if (refusedFields) record.unentitledFields = refusedFields;
    return record;
  });
}

/**
 * An input is checked alone (as item 0 of a one-input body); its issues name it by its place
 * in the caller's list instead ("Company 8: companyId", .../matchCompanyInput/7/companyId).
 */
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
