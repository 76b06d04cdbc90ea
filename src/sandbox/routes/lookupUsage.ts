// Lookup of permitted values and the account's usage figures.
import { Type, type Static } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import { AI_ACTION_LIMIT_TYPE, ERROR_CODES, LOOKUP_FIELDS, LookupDocument, MEDIA_TYPE, UsageDocument, type UsageEntry } from "../../core/contract/index.js";
import { ApiError } from "../errors.js";
import { lookupValues } from "../lookup.js";
import type { RouteDependencies } from "../routeDependencies.js";
import { answer, type OperationAnswer, type OperationCall } from "./operations.js";

const LookupParams = Type.Object({ fieldName: Type.String() });

export async function lookupUsageRoutes(app: FastifyInstance, s: RouteDependencies): Promise<void> {
  s.operations.serve(app, { method: "GET", url: "/data/v1/users/usage", operation: "usage", schema: { response: { 200: UsageDocument } }, handle: usage(s) });
  if (s.ctx.options.profile === "production") return;
  const lookupSchema = { params: LookupParams, response: { 200: LookupDocument } };
  app.get<{ Params: Static<typeof LookupParams> }>(
    "/data/v1/lookup/:fieldName",
    { schema: lookupSchema, config: { operation: "lookup" } },
    async (request, reply) => {
      const values = lookupValues(request.params.fieldName);
      if (!values) {
        throw new ApiError(404, ERROR_CODES.notFound, `There is no lookup named "${request.params.fieldName}". Known lookups: ${LOOKUP_FIELDS.join(", ")}.`, {
          parameter: "fieldName",
        });
      }
      return reply.type(MEDIA_TYPE).send({ data: values });
    },
  );
}

/** The account's usage figures: requests today, bulk and AI action credits, records under management. */
function usage(s: RouteDependencies) {
  return ({ principal }: OperationCall): OperationAnswer => {
    const account = principal.account;
    const limits = s.ctx.options.rateLimit;
    const requests = s.limiter.usedToday(account);
    const initial = s.accounts.initialCredits(account);
    const used = s.accounts.creditsUsed(account);
    // Records only: a company's signals under management are not a record.
    const ai = s.aiCredits.balance(account);
    const unique = s.accounts.managedCount(account, "company") + s.accounts.managedCount(account, "contact");
    const usage: UsageEntry[] = [
      {
        limitType: "request",
        description: "API requests today",
        totalLimit: limits.perDay,
        currentUsage: requests,
        usageRemaining: Math.max(0, limits.perDay - requests),
      },
      {
        limitType: "record",
        description: "Bulk credits for new records and signals",
        totalLimit: initial,
        currentUsage: used,
        usageRemaining: s.accounts.balance(account),
      },
      {
        limitType: AI_ACTION_LIMIT_TYPE,
        description: "AI action credits for research (briefings and questions)",
        totalLimit: ai.limit,
        currentUsage: ai.used,
        usageRemaining: ai.remaining,
      },
      {
        limitType: "uniqueID",
        description: "Records under management (12 months)",
        totalLimit: initial,
        currentUsage: unique,
        usageRemaining: Math.max(0, initial - unique),
      },
    ];
    return answer({ data: [{ id: account, type: "UserUsage", attributes: { usage } }] });
  };
}
