// The production gateway in front of the API: its codes (ZI0001 401, ZI0002/ZI0003 403, ZI0004
// 429, ZI9998 404; the contract's catalog) in its error shape (the sandbox's one writer,
// errors.ts), the scope check each route declares (useGatewayScopes), and forwarding to the sandbox's
// core routes (which speak the specification).
import { randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { GATEWAY_CODES, MEDIA_TYPE } from "../../core/contract/index.js";
import type { SandboxContext } from "../context.js";
import { missingRole } from "../plan/roles.js";
import { declaredRoles, declaredScopes } from "../routes/principal.js";
import { ApiError, sendGatewayError } from "../errors.js";

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

/** Answers gateway errors (and the core's 401/403/429) in the gateway's shape; the rest go to the app's error handler. */
export function gatewayHandler(handler: Handler): Handler {
  return async (request, reply) => {
    try {
      return await handler(request, reply);
    } catch (error) {
      if (error instanceof GatewayError) return sendGateway(reply, error);
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

const PASSED_HEADERS = /^(x-ratelimit-|retry-after$)/i;

export interface CoreAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export interface CoreForwarder {
  /** Calls a core route with the caller's token; the answer is parsed JSON. */
  call(request: FastifyRequest, method: "GET" | "POST" | "PATCH" | "DELETE", url: string, body?: unknown): Promise<CoreAnswer>;
  /** Whether a request came from this forwarder (core paths are not on production's wire). */
  isInternal(request: FastifyRequest): boolean;
}

const MARKER = "x-sandbox-production-profile";

export function createForwarder(app: FastifyInstance): CoreForwarder {
  // Per process, so a client cannot claim to be the forwarder.
  const secret = randomBytes(16).toString("hex");
  return {
    isInternal: (request) => request.headers[MARKER] === secret,
    async call(request, method, url, body) {
      const res = await app.inject({
        method,
        url,
        remoteAddress: request.ip,
        headers: {
          [MARKER]: secret,
          accept: MEDIA_TYPE,
          ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
          ...(body !== undefined ? { "content-type": MEDIA_TYPE } : {}),
        },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      });
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        if (PASSED_HEADERS.test(name) && value !== undefined) headers[name] = String(value);
      }
      let parsed: unknown = undefined;
      if (res.body) {
        try {
          parsed = JSON.parse(res.body);
        } catch {
          parsed = res.body;
        }
      }
      return { status: res.statusCode, body: parsed, headers };
    },
  };
}

/** Sends a core answer on, in the gateway's shape for 401/403/429. */
export function relayAnswer(reply: FastifyReply, answer: CoreAnswer, body: unknown = answer.body): FastifyReply {
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
