// The verified principal of an API request, set by the API hook.
import type { FastifyContextConfig, FastifyRequest } from "fastify";
import { operation, type OperationProfileName } from "../../core/contract/index.js";
import type { TokenPrincipal } from "../context.js";
import { unauthorized } from "../auth.js";

declare module "fastify" {
  interface FastifyRequest {
    principal?: TokenPrincipal;
  }
  interface FastifyContextConfig {
    /**
     * The operation an API route serves (core/contract/operations.ts): the API hook requires one
     * of its scopes on the route's profile (the role is checked for every API route).
     */
    operation?: string;
    /** What a production refusal names as the resource, when it is not the request's path. */
    resource?: string;
  }
}

export function principalOf(request: FastifyRequest): TokenPrincipal {
  if (!request.principal) throw unauthorized("Sign in first: the request was not authenticated.");
  return request.principal;
}

/** The scopes (any one) a route's operation needs on a profile: none when the route names no operation. */
export function declaredScopes(config: FastifyContextConfig, profile: OperationProfileName): readonly string[] {
  return config.operation ? (operation(config.operation)[profile]?.scopes ?? []) : [];
}

/** The roles (any one) a route's operation needs: none when the route names no operation or its entry names none. */
export function declaredRoles(config: FastifyContextConfig): readonly string[] {
  return config.operation ? (operation(config.operation).roles ?? []) : [];
}
