// The lookup operation and the account's usage figures. One operation serves every lookup
// (GET /data/v1/lookup/{fieldName}, as the operation table has it): the permitted values of a
// filter field, the signal lookups (signals/catalog.ts) and the search fields with their
// accessGranted (plan/searchFields.ts). The enrich lookup is an operation of its own, at its fixed
// path (accounts/routes.ts).
import { Type, type Static } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import { AI_ACTION_LIMIT_TYPE, ERROR_CODES, LOOKUP_FIELDS, LookupDocument, PATHS, UsageDocument, type UsageEntry } from "../../core/contract/index.js";
import { ApiError } from "../errors.js";
import { lookupValues } from "../lookup.js";
import { searchFieldAnswer } from "../plan/searchFields.js";
import type { RouteDependencies } from "../routeDependencies.js";
import { isSignalLookup, signalLookupDocument } from "../signals/routes.js";
import { answer, type OperationAnswer, type OperationCall } from "./operations.js";
import { stringQuery } from "./validation.js";

const LookupParams = Type.Object({ fieldName: Type.String() });
type LookupParams = Static<typeof LookupParams>;

/** A filter field's permitted values (both profiles), or the 404 naming the known lookups. */
export function fieldValuesDocument(fieldName: string): LookupDocument {
  const values = lookupValues(fieldName);
  if (!values) {
    throw new ApiError(404, ERROR_CODES.notFound, `There is no lookup named "${fieldName}". Known lookups: ${LOOKUP_FIELDS.join(", ")}.`, {
      parameter: "fieldName",
    });
  }
  return { data: values };
}

/** The lookup of a field: a signal lookup, the search fields, or a filter field's permitted values. */
function lookup({ params: { fieldName }, query, principal }: OperationCall<unknown, unknown, LookupParams>): OperationAnswer {
  if (isSignalLookup(fieldName)) return answer(signalLookupDocument(fieldName, stringQuery(query)));
  if (fieldName === "search") return answer(searchFieldAnswer(stringQuery(query), principal, "specification"));
  return answer(fieldValuesDocument(fieldName));
}

export async function lookupUsageRoutes(app: FastifyInstance, s: RouteDependencies): Promise<void> {
  s.operations.serve(app, {
    method: "GET",
    url: "/data/v1/lookup/:fieldName",
    operation: "lookup",
    schema: { params: LookupParams, response: { 200: LookupDocument } },
    handle: lookup,
  });
  s.operations.serve(app, { method: "GET", url: PATHS.usage, operation: "usage", schema: { response: { 200: UsageDocument } }, handle: usage(s) });
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
