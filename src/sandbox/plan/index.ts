// What the plan allows and the day's insights (docs/entitlements.md, docs/signals.md "Insights"):
// GET /platform/v1/entitlements and POST /copilot/v1/companies/insights, on the specification's
// paths or, on the production profile, under /gtm behind its gateway (scope and role checked by
// the gateway's hook, refusals in its shape). Both handlers read the stores directly. On the
// specification profile also GET /data/v1/lookup/search (the search fields with accessGranted).
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ENTITLEMENTS_PATH, ERROR_CODES, INSIGHTS_PATH, InsightsRequest, MEDIA_TYPE, validateAgainst } from "../../core/contract/index.js";
import { ApiError, ValidationFailure } from "../errors.js";
import type { SandboxFeature } from "../plugin.js";
import { gatewayHandler } from "../production/gateway.js";
import type { RouteDependencies } from "../routeDependencies.js";
import { principalOf } from "../routes/principal.js";
import { stringQuery } from "../routes/validation.js";
import { searchFieldAnswer } from "./searchFields.js";
import { createInsightSource, type InsightSource } from "./insights.js";
import { AUDIENCES_ALLOWED, entitlementsDocument, readEntitlementsQuery } from "./entitlements.js";

const SEARCH_FIELDS_PATH = "/data/v1/lookup/search";

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

function entitlementsHandler(d: RouteDependencies): Handler {
  return async (request, reply) => {
    const principal = principalOf(request);
    // Read here, not as a route schema: production's gateway checks the scope (preHandler) first.
    const { issues, value: ask } = readEntitlementsQuery(request.query);
    if (!ask) throw new ValidationFailure(issues);
    if (ask.admin) {
      throw new ApiError(
        403,
        ERROR_CODES.forbidden,
        "Only an administrator may read the organization's entitlements: ask with filter[admin]=false for your own.",
      );
    }
    const limits = {
      bulkCredits: d.accounts.initialCredits(principal.account),
      aiCredits: d.aiCredits.balance(principal.account).limit,
      audiences: AUDIENCES_ALLOWED,
    };
    return reply.type(MEDIA_TYPE).send(entitlementsDocument(principal, ask.roleType, limits));
  };
}

function insightsHandler(d: RouteDependencies, source: () => InsightSource): Handler {
  return async (request, reply) => {
    // Checked here, not as a route schema: production's gateway checks the scope and role first.
    const issues = validateAgainst(InsightsRequest, request.body);
    if (issues.length > 0) throw new ValidationFailure(issues);
    const { ziCompanyIds, signalTypes = [] } = (request.body as InsightsRequest).data.attributes;
    return reply.type(MEDIA_TYPE).send(source().document(ziCompanyIds, signalTypes, d.ctx.clock.now()));
  };
}

/** Production's handler: the account's rate limit first (the core's API hook does it on the other profile). */
function limited(d: RouteDependencies, handler: Handler): Handler {
  return gatewayHandler(async (request, reply) => {
    const decision = d.limiter.take(principalOf(request).account);
    void reply.headers(decision.headers);
    if (!decision.allowed) {
      throw new ApiError(429, ERROR_CODES.rateLimited, `Too many requests: try again in ${decision.headers["Retry-After"]} s.`, undefined, decision.headers);
    }
    return handler(request, reply);
  });
}

/** The feature's routes on the profile the sandbox serves. */
export const planFeature: SandboxFeature = (app: FastifyInstance, d) => {
  const production = d.ctx.options.profile === "production";
  const base = production ? "/gtm" : "";
  const wrap = (handler: Handler) => (production ? limited(d, handler) : handler);
  app.get(`${base}${ENTITLEMENTS_PATH}`, { config: { operation: "getEntitlements" } }, wrap(entitlementsHandler(d)));
  let insights: InsightSource | undefined;
  const source = () => (insights ??= createInsightSource(d.ctx.db, d.ctx.options.seed));
  app.post(`${base}${INSIGHTS_PATH}`, { config: { operation: "companyInsights" } }, wrap(insightsHandler(d, source)));
  // The search fields with accessGranted: production serves them with its data lookups (production/data.ts).
  if (!production) {
    app.get(SEARCH_FIELDS_PATH, { config: { operation: "lookup" } }, async (request, reply) =>
      reply.type(MEDIA_TYPE).send(searchFieldAnswer(stringQuery(request.query), principalOf(request), "specification")),
    );
  }
};
