// Research and lookalike operations (docs/research.md): each request is checked with the contract
// before it is sent (core/contract/research.ts), its answer shape-checked and read into plain
// records (researchTypes.ts). The profile chooses the paths: the specification's /data/v1/...
// or production's copilot API (/copilot/v1/...), with the same documents. A contact's briefing
// is not in production's API: it is refused before anything is sent.
import {
  accountQuestionBody,
  type CompanyLookalikesDocument,
  type ContactLookalikesDocument,
  type ContactRecommendationsDocument,
  researchPath,
  researchQueryParams,
  validateResearchId,
  validateResearchQuery,
  type ResearchOperation,
  type ResearchProfile,
} from "../contract/index.js";
import { refuse, type ClientContext } from "./clientContext.js";
import { serviceError } from "./errors.js";
import { callOperation } from "./operationCall.js";
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

/** The caller's signal and priority, as a call of the table carries them. */
const asked = (options: ResearchCallOptions | undefined) => ({ signal: options?.signal, priority: options?.priority });

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
  // The table's entries say which calls spend an AI action credit, and so are never resent blindly.
  const listed = <Q extends object>(
    operation: "companyLookalikes" | "contactLookalikes" | "contactRecommendations",
    query: Q,
    options?: ResearchCallOptions,
  ) => {
    const path = pathOf(profile, operation);
    const question = defined(query);
    const issues = validateResearchQuery(operation, question);
    if (issues.length > 0) refuse(issues, `GET ${path}`);
    return { query: researchQueryParams(operation, question as Record<string, string>), asked: question, ...asked(options) };
  };
  return {
    async accountBriefing(companyId, options) {
      checkedId(companyId, "Company id", "GET account briefing");
      const doc = await callOperation(ctx, "accountBriefing", { params: { companyId }, ...asked(options) });
      return { companyId, markdown: doc.data.attributes.markdown };
    },

    async askAccount(companyId, question, options) {
      const path = pathOf(profile, "askAccount", checkedId(companyId, "Company id", "POST account question"));
      const { body, issues } = accountQuestionBody(question);
      if (issues.length > 0) refuse(issues, `POST ${path}`);
      const doc = await callOperation(ctx, "askAccount", { params: { companyId }, body, ...asked(options) });
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
      checkedId(contactId, "Contact id", "GET contact briefing");
      const doc = await callOperation(ctx, "contactBriefing", { params: { contactId }, ...asked(options) });
      return { contactId, markdown: doc.data.attributes.markdown };
    },

    async companyLookalikes(query: LookalikeQuery, options) {
      return (await callOperation(ctx, "companyLookalikes", listed("companyLookalikes", query, options))).data.map(companyLookalike);
    },

    async contactLookalikes(query: ContactLookalikeQuery, options) {
      const doc = await callOperation(ctx, "contactLookalikes", listed("contactLookalikes", query, options));
      return doc.data.map((item) => contactLookalike(item, query.referencePersonId));
    },

    async contactRecommendations(query: RecommendationQuery, options) {
      const doc = await callOperation(ctx, "contactRecommendations", listed("contactRecommendations", query, options));
      return doc.data.map((item) => recommendedContact(item, query.companyId));
    },
  };
}
