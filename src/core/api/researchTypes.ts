// Research and lookalike operations of the service client (docs/research.md), as plain records;
// implemented in researchOperations.ts. Briefings and questions spend AI action credits (one a
// call, charged when it succeeds); lookalikes and recommendations are free.
import type { UseCaseType } from "../contract/index.js";
import type { RequestPriority } from "./requestSpec.js";

export type { UseCaseType } from "../contract/index.js";

export interface ResearchCallOptions {
  signal?: AbortSignal;
  /** Who waits for it (default interactive; see RequestPriority). */
  priority?: RequestPriority;
}

/** A company's briefing: markdown with headings, lists and http(s) links. */
export interface AccountBriefing {
  companyId: string;
  markdown: string;
}

export interface AccountAnswer {
  companyId: string;
  question: string;
  answer: string;
}

/** A contact's briefing (the specification profile only: production's API does not offer it). */
export interface ContactBriefing {
  contactId: string;
  markdown: string;
}

/** The company whose lookalikes are asked (its id, or its name for the service to resolve), and filters. */
export interface LookalikeQuery {
  companyId?: string;
  companyName?: string;
  /** Only companies in the reference company's country. */
  sameCountry?: boolean;
  sameIndustry?: boolean;
  sameRevenueRange?: boolean;
  sameEmployeeRange?: boolean;
  /** Results, 1 to 100 (the service's default is 25). */
  size?: number;
}

export interface CompanyLookalike {
  companyId: string;
  companyName: string;
  /** Similarity to the reference company, 0 to 1 (higher is closer). */
  score: number;
  /** 1 is the most similar. */
  rank: number;
  industry: string;
  revenueRange: string;
  employeeRange: string;
  country: string;
}

export interface ContactLookalikeQuery {
  referencePersonId: string;
  /** Only contacts at this company. */
  targetCompanyId?: string;
  size?: number;
}

export interface ContactLookalike {
  contactId: string;
  rank: number;
  score: number;
  /** The service's short description of the contact. */
  brief: string;
  referencePersonId: string;
}

export interface RecommendationQuery {
  companyId: string;
  useCase: UseCaseType;
  size?: number;
}

export interface RecommendedContact {
  contactId: string;
  companyId: string;
  rank: number;
  score: number;
  /** The service's re-ranking score; -1 when its re-ranking did not run. */
  reRankingScore: number;
  brief?: string;
}

/** The AI action credits of the account (a usage entry of their own). */
export interface AiActionBalance {
  limit: number;
  used: number;
  remaining: number;
}

export interface ResearchOperations {
  /** A company's briefing; one AI action credit. */
  accountBriefing(companyId: string, options?: ResearchCallOptions): Promise<AccountBriefing>;
  /** A question on a company, answered from its data; one AI action credit. */
  askAccount(companyId: string, question: string, options?: ResearchCallOptions): Promise<AccountAnswer>;
  /** A contact's briefing; one AI action credit. Refused before sending in production (its API does not offer it). */
  contactBriefing(contactId: string, options?: ResearchCallOptions): Promise<ContactBriefing>;
  /** Companies like one company, most similar first; free. */
  companyLookalikes(query: LookalikeQuery, options?: ResearchCallOptions): Promise<CompanyLookalike[]>;
  /** Contacts like one contact, most similar first; free. */
  contactLookalikes(query: ContactLookalikeQuery, options?: ResearchCallOptions): Promise<ContactLookalike[]>;
  /** The people to talk to at a company for a use case, most relevant first; free. */
  contactRecommendations(query: RecommendationQuery, options?: ResearchCallOptions): Promise<RecommendedContact[]>;
}
