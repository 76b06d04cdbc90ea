// The sandbox's data of each declared kind that has an operation of its own (a document posted
// to one path: hashtags, or a kind a test declares), in one registry: a kind's data is one entry
// here, served on both profiles by the routes below, with nothing else in the sandbox to change.
// The specification profile checks the body with the entry's schema and the route's scope; the
// production profile serves the same answer on its wire (/gtm), through its gateway.
import type { FastifyInstance } from "fastify";
import type { TSchema } from "@sinclair/typebox";
import { MEDIA_TYPE, type ValidationIssue } from "../../core/contract/index.js";
import type { SandboxContext } from "../context.js";
import { authorize, gatewayHandler, relayAnswer, type CoreForwarder } from "../production/gateway.js";
import type { RouteDependencies } from "../routeDependencies.js";
import { checkedBy } from "../routes/validation.js";

/** One kind's data: its operation's path and scope, its request's schema, and its answers. */
export interface KindData {
  /** The specification's path of the kind's operation (production serves it under /gtm). */
  path: string;
  /** The scope a token needs for it. */
  scope: string;
  /** The request body's schema, and the checks a schema cannot say (issues, none when valid). */
  body: TSchema;
  check?: (body: unknown) => ValidationIssue[];
  /** The answer to one request, read from the sandbox's data (built once per app). */
  answers(ctx: SandboxContext): (body: unknown) => { data: unknown[]; meta?: Record<string, unknown> };
}

const DECLARED: KindData[] = [];

/** Adds a kind's data (the built-in kinds' at their module's load, a test's before it builds a sandbox). Returns how to withdraw it. */
export function declareKindData(data: KindData): () => void {
  if (DECLARED.some((d) => d.path === data.path)) throw new Error(`Kind data for ${data.path} is declared already`);
  DECLARED.push(data);
  return () => {
    const at = DECLARED.indexOf(data);
    if (at >= 0) DECLARED.splice(at, 1);
  };
}

/** The specification profile's route of every declared kind (validation, scope and rate limits as every data route). */
export function declaredKindRoutes(app: FastifyInstance, d: RouteDependencies): void {
  for (const data of DECLARED) {
    const answer = data.answers(d.ctx);
    const schema = { body: data.check ? checkedBy(data.body, (body) => ({ issues: data.check!(body) })) : data.body };
    app.post(data.path, { schema, config: { scope: data.scope } }, async (request, reply) => reply.type(MEDIA_TYPE).send(answer(request.body)));
  }
}

/** Production's wire (/gtm) of every declared kind: the gateway's scope check and error shape, the answer the core's. */
export function productionDeclaredKindRoutes(app: FastifyInstance, ctx: SandboxContext, core: CoreForwarder): void {
  for (const data of DECLARED) {
    app.post(
      `/gtm${data.path}`,
      gatewayHandler(async (request, reply) => {
        await authorize(ctx, request, [data.scope], `/gtm${data.path}`);
        return relayAnswer(reply, await core.call(request, "POST", data.path, request.body));
      }),
    );
  }
}
