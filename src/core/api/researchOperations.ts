// Research and lookalike operations (docs/research.md): each request is checked with the contract
// before it is sent (core/contract/research.ts), its answer shape-checked and read into plain
// records (researchTypes.ts). The profile chooses the paths: the specification's /data/v1/...
// or production's copilot API (/copilot/v1/...), with the same documents. A contact's briefing
// is not in production's API: it is refused before anything is sent.
import {
  AccountAnswerDocument,
  AccountSummaryDocument,
  CompanyLookalikesDocument,
  ContactLookalikesDocument,
  ContactRecommendationsDocument,
  ContactSummaryDocument,
  accountQuestionBody,
  researchPath,
  researchQueryParams,
  validateResearchId,
  validateResearchQuery,
  type ResearchOperation,
  type ResearchProfile,
} from "../contract/index.js";
import { queryString, refuse, withSignal, type ClientContext } from "./clientContext.js";
import { serviceError } from "./errors.js";
import type { RequestSpec } from "./requestSpec.js";
import type {
  CompanyLookalike,
  ContactLookalike,
  ContactLookalikeQuery,
  LookalikeQuery,
  RecommendationQuery,
  RecommendedContact,
  ResearchCallOptions,
  ResearchOperations,
} from "./researchTypes.js";

/** The sentence of a contact briefing asked of production. */
export const CONTACT_RESEARCH_NOT_OFFERED =
  "The service does not offer contact research over its API (only in its own assistant), so the add-in cannot brief you on a contact here.";

function pathOf(profile: ResearchProfile, operation: ResearchOperation, id?: string): string {
  const path = researchPath(profile, operation, id);
  if (path === undefined) throw new Error(`${operation} has no path in the ${profile} profile`);
  return path;
}

function specOf(
  ctx: ClientContext,
  method: "GET" | "POST",
  path: string,
  query: string,
  options: ResearchCallOptions | undefined,
  spends: boolean,
): RequestSpec {
  return {
    method,
    url: `${ctx.baseUrl}${path}${query}`,
    operation: `${method} ${path}`,
    // A research call that reached the service may have been charged: sent again only when surely refused.
    idempotent: !spends,
    ...(spends ? { spends: true } : {}),
    ...(options?.priority ? { priority: options.priority } : {}),
    ...withSignal(options?.signal),
  };
}

const defined = <T extends object>(value: T): T => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

/** The path's id, checked before sending. */
function checkedId(id: string, label: string, operation: string): string {
  const issues = validateResearchId(id, label);
  if (issues.length > 0) refuse(issues, operation);
  return id;
}

function companyLookalike(item: CompanyLookalikesDocument["data"][number]): CompanyLookalike {
  const a = item.attributes;
  return {
    companyId: item.id,
    companyName: a.companyName,
    score: a.score,
    rank: a.rank,
    industry: a.industry,
    revenueRange: a.revenueRange,
    employeeRange: a.employeeRange,
    country: a.country,
  };
}

function contactLookalike(item: ContactLookalikesDocument["data"][number], referencePersonId: string): ContactLookalike {
  const said = item.meta?.referencePersonId;
  return {
    contactId: item.id,
    rank: item.attributes.rank,
    score: item.attributes.score,
    brief: item.attributes.lookalikePersonBrief,
    referencePersonId: said === undefined ? referencePersonId : String(said),
  };
}

function recommendedContact(item: ContactRecommendationsDocument["data"][number], companyId: string): RecommendedContact {
  const a = item.attributes;
  return {
    contactId: item.id,
    companyId,
    rank: a.rank,
    score: a.score,
    reRankingScore: a.reRankingScore,
    ...(a.recommendedPersonBrief !== undefined ? { brief: a.recommendedPersonBrief } : {}),
  };
}

export function researchOperations(ctx: ClientContext): ResearchOperations {
  const profile: ResearchProfile = ctx.profile ?? "specification";
  const listed = async <Q extends object>(
    operation: "companyLookalikes" | "contactLookalikes" | "contactRecommendations",
    query: Q,
    options?: ResearchCallOptions,
  ) => {
    const path = pathOf(profile, operation);
    const asked = defined(query);
    const issues = validateResearchQuery(operation, asked);
    if (issues.length > 0) refuse(issues, `GET ${path}`);
    return { path, spec: specOf(ctx, "GET", path, queryString(researchQueryParams(operation, asked as Record<string, string>)), options, false) };
  };
  return {
    async accountBriefing(companyId, options) {
      const path = pathOf(profile, "accountBriefing", checkedId(companyId, "Company id", "GET account briefing"));
      const doc = await ctx.call(AccountSummaryDocument, specOf(ctx, "GET", path, "", options, true));
      return { companyId, markdown: doc.data.attributes.markdown };
    },

    async askAccount(companyId, question, options) {
      const path = pathOf(profile, "askAccount", checkedId(companyId, "Company id", "POST account question"));
      const { body, issues } = accountQuestionBody(question);
      if (issues.length > 0) refuse(issues, `POST ${path}`);
      const doc = await ctx.call(AccountAnswerDocument, { ...specOf(ctx, "POST", path, "", options, true), body });
      return { companyId, question, answer: doc.data.attributes.answer };
    },

    async contactBriefing(contactId, options) {
      if (profile === "production") {
        throw serviceError("validation", {
          operation: "contact research",
          message: `contact research not sent: ${CONTACT_RESEARCH_NOT_OFFERED}`,
          userMessage: CONTACT_RESEARCH_NOT_OFFERED,
          issues: [{ parameter: "contactId", label: "Contact", rule: "notOffered", code: "NOT_OFFERED", message: CONTACT_RESEARCH_NOT_OFFERED }],
        });
      }
      const path = pathOf(profile, "contactBriefing", checkedId(contactId, "Contact id", "GET contact briefing"));
      const doc = await ctx.call(ContactSummaryDocument, specOf(ctx, "GET", path, "", options, true));
      return { contactId, markdown: doc.data.attributes.markdown };
    },

    async companyLookalikes(query: LookalikeQuery, options) {
      const { spec } = await listed("companyLookalikes", query, options);
      return (await ctx.call(CompanyLookalikesDocument, spec)).data.map(companyLookalike);
    },

    async contactLookalikes(query: ContactLookalikeQuery, options) {
      const { spec } = await listed("contactLookalikes", query, options);
      return (await ctx.call(ContactLookalikesDocument, spec)).data.map((item) => contactLookalike(item, query.referencePersonId));
    },

    async contactRecommendations(query: RecommendationQuery, options) {
      const { spec } = await listed("contactRecommendations", query, options);
      return (await ctx.call(ContactRecommendationsDocument, spec)).data.map((item) => recommendedContact(item, query.companyId));
    },
  };
}
