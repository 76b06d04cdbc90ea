// The verified principal of an API request, set by the API hook.
import type { FastifyRequest } from "fastify";
import type { TokenPrincipal } from "../context.js";
import { unauthorized } from "../auth.js";

declare module "fastify" {
  interface FastifyRequest {
    principal?: TokenPrincipal;
  }
  interface FastifyContextConfig {
    /** Scope an API route requires (the role is checked for every API route). */
    scope?: string;
  }
}

export function principalOf(request: FastifyRequest): TokenPrincipal {
  if (!request.principal) throw unauthorized("Sign in first: the request was not authenticated.");
  return request.principal;
}
