// The service's insights (docs/signals.md, Insights): one POST of up to 50 company ids and, if
// any, the signal types asked, at the operation table's path for the client's profile
// (core/contract/operations.ts: the same path on both, production's under its /gtm base). The
// request is checked against the contract before it is sent, and the answer shape-checked.
import { InsightsDocument, InsightsRequest, insightsRequest, operation, validateAgainst } from "../contract/index.js";
import { refuse, withSignal, type ClientContext } from "./clientContext.js";
import type { InsightOperations } from "./insightTypes.js";

export function insightOperations(ctx: ClientContext): InsightOperations {
  const profile = ctx.profile ?? "specification";
  return {
    async companyInsights(companyIds, types = [], options = {}) {
      const place = operation("companyInsights")[profile];
      if (!place) throw new Error(`Insights have no path in the ${profile} profile`);
      const body = insightsRequest(companyIds, types);
      const label = `POST ${place.path}`;
      const issues = validateAgainst(InsightsRequest, body);
      if (issues.length > 0) refuse(issues, label);
      const doc = await ctx.call(InsightsDocument, {
        method: "POST",
        url: `${ctx.baseUrl}${place.path}`,
        operation: label,
        body,
        // Insights are read, not charged: asking twice is asking once.
        idempotent: true,
        ...withSignal(options.signal),
        ...(options.priority ? { priority: options.priority } : {}),
      });
      return doc.data.flatMap((resource) => resource.attributes.insights);
    },
  };
}
