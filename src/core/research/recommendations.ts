// The people to talk to at many accounts: one request per account (the service takes one
// company a call), each contact linked to the account it was recommended for.
import { runList, type ListRunOptions } from "./listRun.js";
import type { RecommendedContact, ResearchCallOptions, UseCase } from "./port.js";

/** One recommended contact, linked to the account row it came from. */
export interface AccountContact {
  accountId: string;
  rank: number;
  contactId: string;
  score: number;
  reRankingScore: number;
  brief: string;
  /** From a contact search by id (withContactNames); absent when it was not found. */
  contactName?: string;
  jobTitle?: string;
  companyName?: string;
}

export type RecommendationFetch = (
  query: { companyId: string; useCase: UseCase; size?: number },
  options?: ResearchCallOptions,
) => Promise<RecommendedContact[]>;

export interface RecommendationsRequest extends ListRunOptions {
  /** Account (company) ids; blanks and repeats are dropped. */
  accounts: readonly string[];
  useCase: UseCase;
  /** Contacts per account (1 to 100; the service's default when absent). */
  size?: number;
}

export interface RecommendationsResult {
  contacts: AccountContact[];
  failures: { accountId: string; error: unknown }[];
  accountsAsked: number;
  cancelled: boolean;
}

export async function recommendationsForAccounts(fetch: RecommendationFetch, request: RecommendationsRequest): Promise<RecommendationsResult> {
  const accounts = [...new Set(request.accounts.map((a) => String(a).trim()).filter((a) => a !== ""))];
  const size = request.size !== undefined ? { size: request.size } : {};
  const run = await runList(
    accounts,
    (companyId, signal) => fetch({ companyId, useCase: request.useCase, ...size }, { priority: "bulk", ...(signal ? { signal } : {}) }),
    request,
  );
  const contacts: AccountContact[] = [];
  const failures: RecommendationsResult["failures"] = [];
  run.outcomes.forEach((outcome, i) => {
    const accountId = accounts[i]!;
    if (!outcome) return;
    if (!outcome.ok) return void failures.push({ accountId, error: outcome.error });
    const sorted = [...outcome.value].sort((a, b) => a.rank - b.rank);
    for (const c of sorted)
      contacts.push({ accountId, rank: c.rank, contactId: c.contactId, score: c.score, reRankingScore: c.reRankingScore, brief: c.brief ?? "" });
  });
  return { contacts, failures, accountsAsked: run.outcomes.filter(Boolean).length, cancelled: run.cancelled };
}
