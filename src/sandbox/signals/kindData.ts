// The sandbox's data of each declared kind that has an operation of its own (a document posted
// to one path: hashtags, or a kind a test declares), in one registry: a kind's data is one entry
// here, served on both profiles by the routes below, with nothing else in the sandbox to change.
// Each entry names its operation (core/contract/operations.ts: method, paths, scopes, schemas);
// an operation the table does not hold (a kind declared outside it) is declared with the data.
// The specification profile checks the body with the operation's schema and the route's scope;
// the production profile serves the same answer on its wire (/gtm), through its gateway.
import type { FastifyInstance } from "fastify";
import { declareOperation, isOperation, type Operation, type ValidationIssue } from "../../core/contract/index.js";
import type { SandboxContext } from "../context.js";
import { gatewayHandler, relayAnswer } from "../production/gateway.js";
import type { OperationCaller } from "../routes/operations.js";
import type { RouteDependencies } from "../routeDependencies.js";
import { checkedBy } from "../routes/validation.js";
import { answer } from "../routes/operations.js";

/** One kind's data: its operation (path, scopes and body schema per profile), and its answers. */
export interface KindData {
  /** A POST with a body schema and a specification path (production serves it under /gtm). */
  operation: Operation;
  /** The checks the body's schema cannot say (issues, none when valid). */
  check?: (body: unknown) => ValidationIssue[];
  /** The answer to one request, read from the sandbox's data (built once per app). */
  answers(ctx: SandboxContext): (body: unknown) => { data: unknown[]; meta?: Record<string, unknown> };
}

const DECLARED: KindData[] = [];

/** Adds a kind's data (the built-in kinds' at their module's load, a test's before it builds a sandbox). Returns how to withdraw it. */
export function declareKindData(data: KindData): () => void {
  const id = data.operation.id;
  if (!data.operation.specification || !data.operation.body) throw new Error(`Kind data for ${id} needs a path and a body schema`);
  if (DECLARED.some((d) => d.operation.id === id)) throw new Error(`Kind data for ${id} is declared already`);
  const withdrawOperation = isOperation(id) ? () => undefined : declareOperation(data.operation);
  DECLARED.push(data);
  return () => {
    const at = DECLARED.indexOf(data);
    if (at >= 0) DECLARED.splice(at, 1);
    withdrawOperation();
  };
}

const pathOf = (data: KindData) => data.operation.specification!.path;

/** The specification profile's route of every declared kind (validation, scope and rate limits as every data route). */
export function declaredKindRoutes(app: FastifyInstance, d: RouteDependencies): void {
  for (const data of DECLARED) {
    const respond = data.answers(d.ctx);
    const body = data.operation.body!;
    const schema = { body: data.check ? checkedBy(body, (value) => ({ issues: data.check!(value) })) : body };
    d.operations.serve(app, { method: "POST", url: pathOf(data), operation: data.operation.id, schema, handle: ({ body }) => answer(respond(body)) });
  }
}

/** Production's wire (/gtm) of every declared kind: the gateway's scope check and error shape, the answer the specification operation's. */
export function productionDeclaredKindRoutes(app: FastifyInstance, operations: OperationCaller): void {
  for (const data of DECLARED) {
    const id = data.operation.id;
    const place = data.operation.production;
    if (!place) continue;
    app.post(
      `/gtm${place.path}`,
      { config: { operation: id } },
      gatewayHandler(async (request, reply) => relayAnswer(reply, await operations.call(id, request, { body: request.body }))),
    );
  }
}
