// A call of the service, made from its entry in the operation table (core/contract/operations.ts):
// the method, the path of the client's profile (its `{name}` parameters filled), the check of the
// request against the entry's body and query schemas before anything is sent, the check of the
// answer against the entry's answer schema after, whether a repeat is harmless (the retry policy
// resends only what the entry calls idempotent) and whether it spends. An operation file adds
// only what is its own: the user's words for a refused input, the reading of the answer into
// plain records, paging. A new entry of the table is callable here with no other client code.
import type { Static, TSchema } from "@sinclair/typebox";
import { operation as tableEntry, validateAgainst, type Operation, type TableOperation } from "../contract/index.js";
import { STUDIO_PREFIX } from "../contract/operationTypes.js";
import { queryString, refuse, withSignal, type ClientContext } from "./clientContext.js";
import { serviceError } from "./errors.js";
import type { RawResponse, RequestPriority, RequestSpec } from "./requestSpec.js";
import { parseDocument } from "./responses.js";

/** What one call of an operation carries besides its entry. */
export interface OperationArgs<S extends TSchema = TSchema> {
  /** The path's parameters, by the name the entry's path gives them (`{audienceId}`). */
  params?: Readonly<Record<string, string | number>>;
  /** The query as it is sent. */
  query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** The query in the terms of the entry's query schema, where the sent names differ (research's filter[...]); default `query`. */
  asked?: object;
  body?: unknown;
  /** Builds the body when the request leaves (RequestSpec.bodyWhenSent); checked then. */
  bodyWhenSent?: () => unknown;
  /** Reads the answer with this schema instead of the entry's (an entry without one, or a narrower reading). */
  answer?: S;
  /**
   * False when this call, unlike the operation in general, must not be sent twice (rows without
   * their ids would be created twice). A call can only narrow the entry's flag, never widen it.
   */
  idempotent?: boolean;
  /** The request reads the account's usage (RequestSpec.readsUsage). */
  readsUsage?: boolean;
  expect?: number[];
  priority?: RequestPriority | undefined;
  signal?: AbortSignal | undefined;
}

/** The table's entry of an id, with each entry's own types. */
type EntryFor<T, Id> = T extends { id: infer I } ? (Id extends I ? T : never) : never;
/** The schema an entry's answer is read with (any document when it has none). */
type AnswerSchemaOf<E> = [E] extends [{ answer: infer S extends TSchema }] ? S : TSchema;

/** The ids a call may name: every entry of the table. */
export type OperationId = TableOperation["id"];

const encode = (value: string | number) => encodeURIComponent(String(value));

/** The entry's place on the client's profile: base address and path relative to it. */
function placeOf(ctx: ClientContext, entry: Operation): { base: string; path: string } {
  const profile = ctx.profile ?? "specification";
  const place = entry[profile];
  if (!place) throw serviceError("validation", { operation: entry.id, message: `${entry.id} not sent: the service's ${profile} API does not offer it` });
  if (!entry.audiences) return { base: ctx.baseUrl, path: place.path };
  // The audience address already ends where production's studio prefix would begin.
  const path = profile === "production" && place.path.startsWith(`${STUDIO_PREFIX}/`) ? place.path.slice(STUDIO_PREFIX.length) : place.path;
  return { base: ctx.audiencesBaseUrl, path };
}

function filled(entry: Operation, path: string, params: OperationArgs["params"] = {}): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`${entry.id} needs its path parameter ${name}`);
    return encode(value);
  });
}

/** Refuses a body or query the entry's schemas reject, before anything is sent. */
function checked<T>(entry: Operation, label: string, schema: TSchema | undefined, value: T): T {
  if (schema === undefined || value === undefined) return value;
  const issues = validateAgainst(schema, value);
  if (issues.length > 0) refuse(issues, label);
  return value;
}

/** The request of one call of an entry. */
export function operationRequest(ctx: ClientContext, entry: Operation, args: OperationArgs = {}): RequestSpec {
  if (!entry.client) throw new TypeError(`${entry.id} is not an operation the add-in calls`);
  const { base, path } = placeOf(ctx, entry);
  const label = `${entry.method} ${path}`;
  if (entry.query) checked(entry, label, entry.query, args.asked ?? args.query);
  const query = args.query ? queryString(args.query as Record<string, string | number | undefined>) : "";
  const whenSent = args.bodyWhenSent;
  return {
    method: entry.method,
    url: `${base}${filled(entry, path, args.params)}${query}`,
    operation: label,
    ...(args.body !== undefined ? { body: checked(entry, label, entry.body, args.body) } : {}),
    ...(whenSent ? { bodyWhenSent: () => checked(entry, label, entry.body, whenSent()) } : {}),
    idempotent: entry.idempotent && args.idempotent !== false,
    ...(entry.credit !== "none" ? { spends: true } : {}),
    ...(args.readsUsage ? { readsUsage: true } : {}),
    ...(args.expect ? { expect: args.expect } : {}),
    ...(args.priority ? { priority: args.priority } : {}),
    ...withSignal(args.signal),
  };
}

/** What came back from a call, and its document checked against the answer's schema. */
export interface SentOperation<S extends TSchema> {
  response: RawResponse;
  /** The request's label ("GET /v1/audiences/{audienceId}"), for messages. */
  operation: string;
  answer(): Static<S>;
}

async function sendEntry<S extends TSchema>(ctx: ClientContext, entry: Operation, args: OperationArgs<S>): Promise<SentOperation<S>> {
  const spec = operationRequest(ctx, entry, args);
  const response = await ctx.send(spec);
  const schema = args.answer ?? entry.answer;
  return {
    response,
    operation: spec.operation,
    answer: () => {
      if (!schema) throw new TypeError(`${entry.id} has no answer schema to read its answer with`);
      return parseDocument(schema as S, response, spec.operation);
    },
  };
}

/**
 * How messages name an operation of the table before anything is sent (a refusal of its input):
 * its method and the specification's path, `{name}` for each parameter ("GET /v1/audiences/{audienceId}").
 */
export function operationLabel(id: OperationId): string {
  const entry: Operation = tableEntry(id);
  return `${entry.method} ${(entry.specification ?? entry.production)?.path ?? entry.id}`;
}

/** The call functions of a table: `call` reads the answer, `send` leaves the response to the caller. */
export function operationCaller<T extends Operation>(find: (id: string) => T) {
  return {
    call: async <Id extends T["id"], S extends TSchema = AnswerSchemaOf<EntryFor<T, Id>>>(
      ctx: ClientContext,
      id: Id,
      args: OperationArgs<S> = {},
    ): Promise<Static<S>> => (await sendEntry(ctx, find(id), args)).answer(),
    send: <Id extends T["id"], S extends TSchema = AnswerSchemaOf<EntryFor<T, Id>>>(ctx: ClientContext, id: Id, args: OperationArgs<S> = {}) =>
      sendEntry<S>(ctx, find(id), args),
  };
}

/** A caller over a table of entries given here (a test's, a feature's own). */
export function tableCaller<const T extends readonly Operation[]>(table: T) {
  const byId = new Map<string, Operation>(table.map((entry) => [entry.id, entry]));
  return operationCaller<T[number]>((id) => {
    const entry = byId.get(id);
    if (!entry) throw new RangeError(`No operation is called ${id}.`);
    return entry as T[number];
  });
}

const SERVICE = operationCaller<TableOperation>((id) => tableEntry(id) as TableOperation);

/** Calls the service's operation `id` of the table and reads its answer with the entry's answer schema. */
export const callOperation = SERVICE.call;
/** Sends the service's operation `id` of the table; the answer is read when the caller asks (a 204, a header). */
export const sendOperation = SERVICE.send;
