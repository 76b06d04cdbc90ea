// What the plan allows and the day's insights (docs/entitlements.md, docs/signals.md "Insights"):
// GET /platform/v1/entitlements and POST /copilot/v1/companies/insights, two operations of the
// table (routes/operations.ts) whose handlers read the stores directly. The specification profile
// serves them (the API hook checks scope, role and rate limit); production's routes under /gtm,
// behind its gateway (scope and role checked by the gateway's hook, refusals in its shape), call the
// same handlers. The search fields with accessGranted are a lookup (routes/lookupUsage.ts).
import type { FastifyInstance } from "fastify";
import { ENTITLEMENTS_PATH, ERROR_CODES, INSIGHTS_PATH, InsightsRequest, MEDIA_TYPE, validateAgainst } from "../../core/contract/index.js";
import { ApiError, ValidationFailure } from "../errors.js";
import type { SandboxFeature } from "../plugin.js";
import { gatewayHandler } from "../production/gateway.js";
import type { RouteDependencies } from "../routeDependencies.js";
import { answer, type OperationAnswer, type OperationCall } from "../routes/operations.js";
import { principalOf } from "../routes/principal.js";
import { createInsightSource, type InsightSource } from "./insights.js";
import { AUDIENCES_ALLOWED, entitlementsDocument, readEntitlementsQuery } from "./entitlements.js";

type Handle = (call: OperationCall) => OperationAnswer;

function entitlements(d: RouteDependencies): Handle {
  return ({ principal, query }) => {
    // Read here, not as a route schema: production's gateway checks the scope (preHandler) first.
    const { issues, value: ask } = readEntitlementsQuery(query);
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
    return answer(entitlementsDocument(principal, ask.roleType, limits));
  };
}

function insights(d: RouteDependencies, source: () => InsightSource): Handle {
  return ({ body }) => {
    // Checked here, not as a route schema: production's gateway checks the scope and role first.
    const issues = validateAgainst(InsightsRequest, body);
    if (issues.length > 0) throw new ValidationFailure(issues);
    const { ziCompanyIds, signalTypes = [] } = (body as InsightsRequest).data.attributes;
    return answer(source().document(ziCompanyIds, signalTypes, d.ctx.clock.now()));
  };
}

/** Production's route of an operation: the account's rate limit first (the API hook takes it on the other profile), then its handler. */
function productionRoute(d: RouteDependencies, handle: Handle) {
  return gatewayHandler(async (request, reply) => {
    const principal = principalOf(request);
    const decision = d.limiter.take(principal.account);
    void reply.headers(decision.headers);
    if (!decision.allowed) {
      throw new ApiError(429, ERROR_CODES.rateLimited, `Too many requests: try again in ${decision.headers["Retry-After"]} s.`, undefined, decision.headers);
    }
    const result = handle({ principal, params: {}, query: request.query as OperationCall["query"], body: request.body });
    return reply.code(result.status).type(MEDIA_TYPE).send(result.body);
  });
}

/** The feature's operations, and on the production profile its routes under /gtm. */
export const planFeature: SandboxFeature = (app: FastifyInstance, d) => {
  let source: InsightSource | undefined;
  const handles = {
    getEntitlements: entitlements(d),
    companyInsights: insights(d, () => (source ??= createInsightSource(d.ctx.db, d.ctx.options.seed))),
  };
  d.operations.serve(app, { method: "GET", url: ENTITLEMENTS_PATH, operation: "getEntitlements", handle: handles.getEntitlements });
  d.operations.serve(app, { method: "POST", url: INSIGHTS_PATH, operation: "companyInsights", handle: handles.companyInsights });
  if (d.ctx.options.profile !== "production") return;
  app.get(`/gtm${ENTITLEMENTS_PATH}`, { config: { operation: "getEntitlements" } }, productionRoute(d, handles.getEntitlements));
  app.post(`/gtm${INSIGHTS_PATH}`, { config: { operation: "companyInsights" } }, productionRoute(d, handles.companyInsights));
};
