// What research needs of the service client: the research operations (core/api's
// researchOperations.ts, docs/research.md) and the usage reading with its AI action credits.
import type { ServiceClient } from "../api/types.js";
import type { UseCaseType } from "../api/researchTypes.js";

export type { AiActionBalance, CompanyLookalike, LookalikeQuery, RecommendedContact, ResearchCallOptions, UseCaseType } from "../api/researchTypes.js";

export type ResearchClient = Pick<ServiceClient, "accountBriefing" | "askAccount" | "companyLookalikes" | "contactRecommendations" | "usage">;

export type UseCase = UseCaseType;

export const USE_CASES: readonly { value: UseCase; label: string }[] = [
  { value: "PROSPECTING", label: "Prospecting" },
  { value: "DEAL_ACCELERATION", label: "Deal acceleration" },
  { value: "RENEWAL_AND_GROWTH", label: "Renewal and growth" },
];

/** The lookalike filters a list of seeds shares. */
export interface LookalikeFilters {
  sameCountry?: boolean;
  sameIndustry?: boolean;
  sameRevenueRange?: boolean;
  sameEmployeeRange?: boolean;
}

/** Results one lookalike or recommendation call returns at most. */
export const MAX_RESULTS_PER_CALL = 100;
