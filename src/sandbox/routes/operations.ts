// One kind of specification route: an operation of the table (its method, path, schemas and
// scope) and a handler function of the call (the principal, params, query and body) answering
// status, body and headers. The specification profile serves it as a route (the API hook admits
// the request, Fastify checks its parts); the production profile serves no specification route
// and calls the same handler directly (OperationCaller.call), and the call passes the same steps explicitly: its count, a simulated
// fault, the token, the operation's scopes and the rate limit (admission.ts), the route's
// schemas (checkedParts), and failures answered as the error handler answers them.
import type { TSchema } from "@sinclair/typebox";
import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from "fastify";
import { MEDIA_TYPE } from "../../core/contract/index.js";
import type { SandboxContext, TokenPrincipal } from "../context.js";
import { errorAnswer } from "../errors.js";
import type { FaultPlan } from "../faults.js";
import type { RateLimiter } from "../rateLimit.js";
import { admit, countCall, simulatedFault } from "./admission.js";
import { principalOf } from "./principal.js";
import { checkedParts } from "./validation.js";

/** A call of an operation: who makes it, and the request's parts as checked by the route's schemas. */
export interface OperationCall<B = unknown, Q = Record<string, string | undefined>, P = Record<string, string>> {
  principal: TokenPrincipal;
  params: P;
  query: Q;
  body: B;
}

/** A handler's answer: its status, its body (none for 204) and headers of its own. */
export interface OperationAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A JSON:API document answered with `status` (200 unless said). */
export const answer = (body: unknown, status = 200): OperationAnswer => ({ status, body });
/** 204, no body. */
export const NO_CONTENT: OperationAnswer = { status: 204 };

export interface SpecOperation<B = unknown, Q = Record<string, string | undefined>, P = Record<string, string>> {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** The route's URL (`:name` for a parameter). */
  url: string;
  /** The operation it serves (core/contract/operations.ts): its scopes are the table's. */
  operation: string;
  schema?: { params?: TSchema; querystring?: TSchema; body?: TSchema; response?: Record<number, TSchema> };
  /** Route options beyond these (a body limit, an onRequest hook). */
  options?: Pick<RouteShorthandOptions, "bodyLimit" | "onRequest">;
  handle(call: OperationCall<B, Q, P>): OperationAnswer | Promise<OperationAnswer>;
}

/** An operation's answer to a direct call: status, body as the route would have written it, and its rate-limit headers. */
export interface CalledAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** The request parts of a direct call (none given: no params, an empty query, no body). */
export interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** Calls the specification's operations by id, as a request on their routes would be answered. */
export interface OperationCaller {
  /** `request` is the caller's own request: its token is the call's. */
  call(id: string, request: FastifyRequest, input?: CallInput): Promise<CalledAnswer>;
}

export interface OperationTable extends OperationCaller {
  /** Adds an operation to the table and, on the specification profile, serves it as a route of `app`. */
  serve<B, Q, P>(app: FastifyInstance, op: SpecOperation<B, Q, P>): void;
}

/** Thrown by a call the fault plan drops: the caller drops its own connection. */
export class ConnectionDropped extends Error {
  constructor() {
    super("The connection was dropped (a simulated fault).");
    this.name = "ConnectionDropped";
  }
}

/** The headers an answer passes on: the rate limit's. */
const PASSED_HEADERS = /^(x-ratelimit-|retry-after$)/i;

function passed(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).flatMap(([name, value]) => (PASSED_HEADERS.test(name) ? [[name.toLowerCase(), value]] : [])));
}

/** A value as JSON text reads back (what the route's serializer writes: JSON.stringify). */
const asJson = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

type Services = { ctx: SandboxContext; faultPlan: FaultPlan; limiter: RateLimiter };

function serveRoute(app: FastifyInstance, op: SpecOperation<unknown, unknown, unknown>): void {
  app.route({
    method: op.method,
    url: op.url,
    ...op.options,
    ...(op.schema ? { schema: op.schema } : {}),
    config: { operation: op.operation },
    handler: async (request, reply) => {
      const result = await op.handle({ principal: principalOf(request), params: request.params, query: request.query, body: request.body });
      if (result.headers) void reply.headers(result.headers);
      if (result.status === 204) return reply.code(204).send();
      return reply.code(result.status).type(MEDIA_TYPE).send(result.body);
    },
  });
}

async function callOperation(d: Services, op: SpecOperation<unknown, unknown, unknown>, request: FastifyRequest, input: CallInput): Promise<CalledAnswer> {
  let headers: Record<string, string> = {};
  try {
    countCall(d.ctx, `${op.method} ${op.url}`);
    if ((await simulatedFault(d)) === "reset") throw new ConnectionDropped();
    const admission = await admit(d, request.headers.authorization, op.operation);
    headers = admission.headers;
    const parts = checkedParts(op.schema, { params: input.params ?? {}, query: input.query ?? {}, body: asJson(input.body) });
    const result = await op.handle({ principal: admission.principal, ...parts });
    return { status: result.status, body: result.status === 204 ? undefined : asJson(result.body), headers: passed({ ...headers, ...result.headers }) };
  } catch (error) {
    if (error instanceof ConnectionDropped) throw error;
    const failed = errorAnswer(error, d.ctx.faults.gatewayErrors, `${op.method} ${op.url} (called by the production profile)`);
    return { status: failed.status, body: asJson(failed.body), headers: passed({ ...headers, ...failed.headers }) };
  }
}

/**
 * The app's table of specification operations, filled as their features are registered. The
 * production profile's wire is its own (/gtm): there an operation is only called, never a route.
 */
export function createOperationTable(d: Services): OperationTable {
  const operations = new Map<string, SpecOperation<unknown, unknown, unknown>>();
  const routed = d.ctx.options.profile !== "production";
  return {
    serve(app, op) {
      const entry = op as unknown as SpecOperation<unknown, unknown, unknown>;
      if (operations.has(op.operation)) throw new Error(`The operation ${op.operation} is served twice`);
      operations.set(op.operation, entry);
      if (routed) serveRoute(app, entry);
    },
    call(id, request, input = {}) {
      const op = operations.get(id);
      if (!op) throw new Error(`No specification route serves the operation ${id}`);
      return callOperation(d, op, request, input);
    },
  };
}
