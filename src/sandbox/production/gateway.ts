// The production gateway in front of the API: its codes (ZI0001 401, ZI0002/ZI0003 403, ZI0004
// 429, ZI9998 404; the contract's catalog) in its error shape (the sandbox's one writer,
// errors.ts), the scope check each route declares (useGatewayScopes), and the answers of the
// specification's operations, which the profile's handlers call directly (routes/operations.ts),
// relayed in the gateway's shape (relayAnswer).
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { GATEWAY_CODES, MEDIA_TYPE } from "../../core/contract/index.js";
import type { SandboxContext } from "../context.js";
import { missingRole } from "../plan/roles.js";
import { declaredRoles, declaredScopes } from "../routes/principal.js";
import { ApiError, sendGatewayError } from "../errors.js";
import { ConnectionDropped, type CalledAnswer } from "../routes/operations.js";

class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "GatewayError";
  }
}

export function sendGateway(reply: FastifyReply, error: GatewayError): FastifyReply {
  return sendGatewayError(reply, error.status, error.code, error.message, error.headers);
}

export function gatewayNotFound(method: string, url: string): GatewayError {
  return new GatewayError(404, GATEWAY_CODES.notFound, `No operation ${method} ${url.split("?")[0]} exists.`);
}

export function gatewayUnauthorized(message: string): GatewayError {
  return new GatewayError(401, GATEWAY_CODES.unauthorized, message);
}

/** The sandbox's 401/403/429 as the gateway answers them. */
function fromApiError(error: ApiError): GatewayError | undefined {
  if (error.status === 401) return new GatewayError(401, GATEWAY_CODES.unauthorized, error.message, error.headers);
  if (error.status === 403) return new GatewayError(403, GATEWAY_CODES.noAccess, error.message, error.headers);
  if (error.status === 429) return new GatewayError(429, GATEWAY_CODES.rateLimited, error.message, error.headers);
  return undefined;
}

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/**
 * Answers gateway errors (and the core's 401/403/429) in the gateway's shape; the rest go to the
 * app's error handler. A call the fault plan drops drops the caller's connection.
 */
export function gatewayHandler(handler: Handler): Handler {
  return async (request, reply) => {
    try {
      return await handler(request, reply);
    } catch (error) {
      if (error instanceof GatewayError) return sendGateway(reply, error);
      if (error instanceof ConnectionDropped) {
        reply.hijack();
        request.raw.socket.destroy();
        return reply;
      }
      if (error instanceof ApiError) {
        const gateway = fromApiError(error);
        if (gateway) return sendGateway(reply, gateway);
      }
      throw error;
    }
  };
}

/**
 * The gateway's scope check, declared on each route: its operation (config.operation) names the
 * scopes of which the token needs one (the operation table's production scopes), and a refusal
 * names the route's resource (config.resource, else the request's path), as production's does.
 * It runs before the handler, after the body is read, like the gateway.
 */
export function useGatewayScopes(app: FastifyInstance, ctx: SandboxContext): void {
  app.addHook("preHandler", async (request, reply) => {
    const config = request.routeOptions.config;
    if (!request.routeOptions.url?.startsWith("/gtm/") || !config.operation) return;
    try {
      request.principal = await ctx.authenticate(request.headers.authorization);
    } catch (error) {
      const gateway = error instanceof ApiError ? fromApiError(error) : undefined;
      if (gateway) return sendGateway(reply, gateway);
      throw error;
    }
    const scopes = declaredScopes(config, "production");
    if (scopes.length > 0 && !scopes.some((scope) => request.principal!.scopes.includes(scope))) {
      const resource = config.resource ?? request.url.split("?")[0];
      return sendGateway(reply, new GatewayError(403, GATEWAY_CODES.missingScope, `Your app is not allowed to use the resource ${resource}.`));
    }
    // The operation's roles (the user's plan): no access in this subscription.
    const lacking = missingRole(request.principal, declaredRoles(config));
    if (lacking) return sendGateway(reply, new GatewayError(403, GATEWAY_CODES.noAccess, lacking));
  });
}

/** Sends a specification operation's answer on, in the gateway's shape for 401/403/429. */
export function relayAnswer(reply: FastifyReply, answer: CalledAnswer, body: unknown = answer.body): FastifyReply {
  void reply.headers(answer.headers);
  if (answer.status === 401 || answer.status === 403 || answer.status === 429) {
    const code = answer.status === 401 ? GATEWAY_CODES.unauthorized : answer.status === 403 ? GATEWAY_CODES.noAccess : GATEWAY_CODES.rateLimited;
    return sendGateway(reply, new GatewayError(answer.status, code, firstDetail(answer.body) ?? "The request was refused.", answer.headers));
  }
  if (answer.status === 204) return reply.code(204).send();
  return reply.code(answer.status).type(MEDIA_TYPE).send(body);
}

function firstDetail(body: unknown): string | undefined {
  const errors = (body as { errors?: { detail?: unknown }[] } | undefined)?.errors;
  const detail = Array.isArray(errors) ? errors[0]?.detail : undefined;
  return typeof detail === "string" ? detail : undefined;
}
