// What research needs of the service client: the research operations (core/api's
// researchOperations.ts, docs/research.md) and the AI action credit balance in the usage
// reading. Written as a port of its own so research runs on any client with these members.
import type { RequestPriority } from "../contract/common.js";

export type UseCase = "PROSPECTING" | "DEAL_ACCELERATION" | "RENEWAL_AND_GROWTH";

export const USE_CASES: readonly { value: UseCase; label: string }[] = [
  { value: "PROSPECTING", label: "Prospecting" },
  { value: "DEAL_ACCELERATION", label: "Deal acceleration" },
  { value: "RENEWAL_AND_GROWTH", label: "Renewal and growth" },
];

export interface ResearchCallOptions {
  signal?: AbortSignal;
  priority?: RequestPriority;
}

export interface LookalikeFilters {
  sameCountry?: boolean;
  sameIndustry?: boolean;
  sameRevenueRange?: boolean;
  sameEmployeeRange?: boolean;
}

export interface LookalikeQuery extends LookalikeFilters {
  companyId?: string;
  companyName?: string;
  /** 1 to 100. */
  size?: number;
}

export interface CompanyLookalike {
  companyId: string;
  companyName: string;
  score: number;
  rank: number;
  industry: string;
  revenueRange: string;
  employeeRange: string;
  country: string;
}

export interface RecommendedContact {
  contactId: string;
  companyId: string;
  rank: number;
  score: number;
  reRankingScore: number;
  brief?: string;
}

export interface AiActionBalance {
  limit: number;
  used: number;
  remaining: number;
}

export interface ResearchClient {
  /** One AI action credit. */
  accountBriefing(companyId: string, options?: ResearchCallOptions): Promise<{ companyId: string; markdown: string }>;
  /** One AI action credit. */
  askAccount(companyId: string, question: string, options?: ResearchCallOptions): Promise<{ companyId: string; question: string; answer: string }>;
  /** Free. */
  companyLookalikes(query: LookalikeQuery, options?: ResearchCallOptions): Promise<CompanyLookalike[]>;
  /** Free. */
  contactRecommendations(query: { companyId: string; useCase: UseCase; size?: number }, options?: ResearchCallOptions): Promise<RecommendedContact[]>;
  /** The usage reading; `aiActions` is the AI action credit balance where the service tells it. */
  usage(options?: { signal?: AbortSignal }): Promise<{ aiActions?: AiActionBalance }>;
}

/** Results one lookalike or recommendation call returns at most. */
export const MAX_RESULTS_PER_CALL = 100;
