// What every call of the API passes before its handler, whether it comes in on a route (the
// app's API hook) or from the production profile's gateway (an operation call, operations.ts):
// its count, a simulated fault (faults.ts), the caller's token, the operation's scopes and roles, and
// the rate limit with its headers.
import { ERROR_CODES } from "../../core/contract/index.js";
import { requireAnyScope } from "../auth.js";
import type { SandboxContext, TokenPrincipal } from "../context.js";
import { ApiError } from "../errors.js";
import type { FaultPlan } from "../faults.js";
import type { RateLimiter } from "../rateLimit.js";
import { missingRole } from "../plan/roles.js";
import { declaredRoles, declaredScopes } from "./principal.js";

/** Counts a call of a route ("POST /data/v1/companies/enrich"), refused ones included. */
export function countCall(ctx: SandboxContext, route: string): void {
  ctx.stats.requests.set(route, (ctx.stats.requests.get(route) ?? 0) + 1);
}

/**
 * The fault plan's next decision: its latency is waited; a failing call is refused with 503;
 * "reset" when the connection is to be dropped (the caller drops it).
 */
export async function simulatedFault(d: { faultPlan: FaultPlan }): Promise<"reset" | undefined> {
  const fault = d.faultPlan.next();
  if (fault.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, fault.latencyMs));
  if (fault.reset) return "reset";
  if (fault.fail) throw new ApiError(503, ERROR_CODES.server, "The service is briefly unavailable (a simulated fault). Try again in a moment.");
  return undefined;
}

/** A call let through: who makes it, and the rate-limit headers its answer carries. */
export interface Admission {
  principal: TokenPrincipal;
  headers: Record<string, string>;
}

/**
 * The caller's token, one of the operation's scopes (the specification's) and a request of the
 * account's rate limit; a refusal is thrown (429 with the rate-limit headers).
 */
export async function admit(
  d: { ctx: SandboxContext; limiter: RateLimiter },
  authorization: string | undefined,
  operation: string | undefined,
): Promise<Admission> {
  const principal = await d.ctx.authenticate(authorization);
  requireAnyScope(principal, declaredScopes({ operation }, "specification"));
  const lacking = missingRole(principal, declaredRoles({ operation }));
  if (lacking) throw new ApiError(403, ERROR_CODES.forbidden, lacking);
  const decision = d.limiter.take(principal.account);
  if (!decision.allowed) {
    const bucket = decision.rejectedBucket ?? "second";
    throw new ApiError(
      429,
      ERROR_CODES.rateLimited,
      `Too many requests: the per-${bucket} limit is used up. Try again in ${decision.headers["Retry-After"]} s.`,
      undefined,
      decision.headers,
    );
  }
  return { principal, headers: decision.headers };
}
