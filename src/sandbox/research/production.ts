// Research and lookalikes on production's wire: the copilot API under /gtm/copilot/v1 (its
// published paths, scopes and documents). Each request passes the gateway's scope check
// (ZI0002 without api:account-summary:read or api:recommendations:read) and calls the
// specification profile's operation (routes.ts) directly: its validation, data, credits and rate limits it
// shares; the documents are the same. Contact research is not offered here (the service
// publishes it only as a tool of its assistant): its path is the gateway's 404.
import type { FastifyInstance } from "fastify";
import { RESEARCH_PATHS, type ResearchOperation } from "../../core/contract/index.js";
import { gatewayHandler, relayAnswer } from "../production/gateway.js";
import type { OperationCaller } from "../routes/operations.js";

const GTM = "/gtm";

interface Served {
  operation: Exclude<ResearchOperation, "contactBriefing">;
  method: "GET" | "POST";
}

const SERVED: readonly Served[] = [
  { operation: "accountBriefing", method: "GET" },
  { operation: "askAccount", method: "POST" },
  { operation: "companyLookalikes", method: "GET" },
  { operation: "contactLookalikes", method: "GET" },
  { operation: "contactRecommendations", method: "GET" },
];

export function productionResearchRoutes(app: FastifyInstance, operations: OperationCaller): void {
  for (const { operation, method } of SERVED) {
    // The route pattern: the path with `:companyId` where it takes the id (the path function encodes its argument).
    const wirePath = `${GTM}${decodeURIComponent(RESEARCH_PATHS.production[operation](":companyId"))}`;
    app.route({
      method,
      url: wirePath,
      config: { operation },
      handler: gatewayHandler(async (request, reply) => {
        const input = { params: request.params as Record<string, string>, query: request.query as Record<string, unknown> };
        return relayAnswer(reply, await operations.call(operation, request, { ...input, body: method === "POST" ? request.body : undefined }));
      }),
    });
  }
}
