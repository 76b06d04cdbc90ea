// The service's operations in one table: for each, its method, its path on each profile (absent
// where a profile lacks it), its request and answer schemas where the contract has them, the
// scopes of which a token needs one, what it spends and whether repeating it is safe. The relay's
// allow-list (broker/relayOperations.ts) is made from it, and a test holds the sandbox's routes
// to it (test/sandbox/operations.test.ts). Paths are made from the contract's own path
// declarations, with `{name}` where a path parameter goes.
import type { TSchema } from "@sinclair/typebox";
import { LookupDocument, UsageDocument } from "./account.js";
import { AUDIENCE_READS, AUDIENCE_WRITES, FOLDER_OPERATIONS } from "./audienceOperations.js";
import { PATHS } from "./common.js";
import { CompanyEnrichBody, ContactEnrichBody, EnrichResultDocument } from "./enrich.js";
import { HASHTAGS_PATH, HashtagEnrichRequest, HashtagsDocument } from "./hashtags.js";
import {
  CORPORATE_HIERARCHY_PATH,
  CorporateHierarchyDocument,
  CorporateHierarchyEnrichRequest,
  EnrichLookupDocument,
  LOOKUP_ENRICH_PATH,
} from "./hierarchy.js";
import { ENTITLEMENT_SCOPES, ENTITLEMENTS_PATH, EntitlementsDocument, EntitlementsQuery, ROLES } from "./entitlements.js";
import { INSIGHTS_PATH, INSIGHTS_ROLE, INSIGHTS_SCOPE, InsightsDocument, InsightsRequest } from "./insights.js";
import { ANY_DATA_SCOPE, at, both, template, type Operation } from "./operationTypes.js";
import { ORG_CHART_PATH, OrgChartDocument, OrgChartEnrichRequest } from "./orgChart.js";
import * as R from "./research.js";
import { SCOPES } from "./scopes.js";
import { CompanySearchBody, CompanySearchResult, ContactSearchBody, ContactSearchResult } from "./search.js";
import { IntentDocument, NewsDocument, ScoopDocument, TechnologiesDocument } from "./signalDocuments.js";
import { SIGNAL_CREDIT_OPERATIONS, SIGNAL_PATHS, SIGNAL_REQUESTS, type SignalOperation } from "./signals.js";

export type { Operation, OperationCredit, OperationMethod, OperationPlace, OperationProfileName } from "./operationTypes.js";

// Corporate families and org charts (docs/accounts.md). The enrich lookup comes before the
// general lookup: its path is also a value of the lookup's {fieldName}, and the more specific
// entry must be found first.
const ACCOUNT_OPERATIONS: readonly Operation[] = [
  // A credit per matched company not already under management (a record, 12 months).
  {
    id: "enrichCorporateHierarchy",
    method: "POST",
    ...both(CORPORATE_HIERARCHY_PATH, [SCOPES.company]),
    body: CorporateHierarchyEnrichRequest,
    answer: CorporateHierarchyDocument,
    credit: "bulkRecord",
    idempotent: true,
    client: true,
  },
  // A credit for the company per request, however many people come back: the company is the
  // record charged (a bulk credit that puts it under management, so a repeat within 12 months is
  // free), which is what "bulkRecord" says; no other kind of credit fits.
  {
    id: "enrichOrgChart",
    method: "POST",
    ...both(ORG_CHART_PATH, [SCOPES.contact]),
    body: OrgChartEnrichRequest,
    answer: OrgChartDocument,
    credit: "bulkRecord",
    idempotent: true,
    client: true,
  },
  {
    id: "lookupEnrich",
    method: "GET",
    ...both(LOOKUP_ENRICH_PATH, ANY_DATA_SCOPE),
    answer: EnrichLookupDocument,
    credit: "none",
    idempotent: true,
    client: true,
  },
];

// What the plan allows, and the day's insights (docs/entitlements.md, docs/signals.md). Insights
// are free: the vendor's tool list names no insights tool and so no credit type for them.
const PLAN_OPERATIONS: readonly Operation[] = [
  {
    id: "getEntitlements",
    method: "GET",
    ...both(ENTITLEMENTS_PATH, ENTITLEMENT_SCOPES),
    query: EntitlementsQuery,
    answer: EntitlementsDocument,
    credit: "none",
    idempotent: true,
    client: true,
  },
  {
    id: "companyInsights",
    method: "POST",
    ...both(INSIGHTS_PATH, [INSIGHTS_SCOPE]),
    body: InsightsRequest,
    answer: InsightsDocument,
    credit: "none",
    roles: [INSIGHTS_ROLE],
    idempotent: true,
    client: true,
  },
];

const DATA_OPERATIONS: readonly Operation[] = [
  {
    id: "searchCompanies",
    method: "POST",
    ...both(PATHS.searchCompanies, [SCOPES.company]),
    body: CompanySearchBody,
    answer: CompanySearchResult,
    credit: "none",
    idempotent: true,
    client: true,
  },
  {
    id: "searchContacts",
    method: "POST",
    ...both(PATHS.searchContacts, [SCOPES.contact]),
    body: ContactSearchBody,
    answer: ContactSearchResult,
    credit: "none",
    idempotent: true,
    client: true,
  },
  // Enriching a record again within 12 months costs nothing more.
  {
    id: "enrichCompanies",
    method: "POST",
    ...both(PATHS.enrichCompanies, [SCOPES.company]),
    body: CompanyEnrichBody,
    answer: EnrichResultDocument,
    credit: "bulkRecord",
    idempotent: true,
    client: true,
  },
  {
    id: "enrichContacts",
    method: "POST",
    ...both(PATHS.enrichContacts, [SCOPES.contact]),
    body: ContactEnrichBody,
    answer: EnrichResultDocument,
    credit: "bulkRecord",
    idempotent: true,
    client: true,
  },
  // One path for every lookup: the permitted values, the signal lookups and production's output-field lookups (enrich, search).
  {
    id: "lookup",
    method: "GET",
    ...both(template(PATHS.lookup, "fieldName"), [SCOPES.lookup], ANY_DATA_SCOPE),
    answer: LookupDocument,
    credit: "none",
    idempotent: true,
    client: true,
  },
  { id: "usage", method: "GET", ...both(PATHS.usage, [], ANY_DATA_SCOPE), answer: UsageDocument, credit: "none", idempotent: true, client: true },
  {
    id: "hashtagsEnrich",
    method: "POST",
    ...both(HASHTAGS_PATH, [SCOPES.company]),
    body: HashtagEnrichRequest,
    answer: HashtagsDocument,
    credit: "none",
    idempotent: true,
    client: true,
  },
];

const SIGNAL_SCOPES: Record<SignalOperation, string> = {
  intentSearch: SCOPES.intent,
  intentEnrich: SCOPES.intent,
  scoopSearch: SCOPES.scoops,
  scoopEnrich: SCOPES.scoops,
  newsSearch: SCOPES.news,
  newsEnrich: SCOPES.news,
  technologiesEnrich: SCOPES.company,
};
/** The role of each signal kind (the twin's own codes: the service publishes none for them). */
const SIGNAL_ROLES: Record<SignalOperation, string> = {
  intentSearch: ROLES.intent,
  intentEnrich: ROLES.intent,
  scoopSearch: ROLES.scoops,
  scoopEnrich: ROLES.scoops,
  newsSearch: ROLES.news,
  newsEnrich: ROLES.news,
  technologiesEnrich: ROLES.technologies,
};
const SIGNAL_ANSWERS: Record<SignalOperation, TSchema> = {
  intentSearch: IntentDocument,
  intentEnrich: IntentDocument,
  scoopSearch: ScoopDocument,
  scoopEnrich: ScoopDocument,
  newsSearch: NewsDocument,
  newsEnrich: NewsDocument,
  technologiesEnrich: TechnologiesDocument,
};

const SIGNAL_OPERATIONS: readonly Operation[] = (Object.keys(SIGNAL_PATHS) as SignalOperation[]).map((id) => ({
  id,
  method: "POST",
  ...both(SIGNAL_PATHS[id], [SIGNAL_SCOPES[id]]),
  body: SIGNAL_REQUESTS[id].schema,
  answer: SIGNAL_ANSWERS[id],
  roles: [SIGNAL_ROLES[id]],
  // A company's signals of a kind are charged once in 12 months.
  credit: SIGNAL_CREDIT_OPERATIONS[id] ? "bulkSignal" : "none",
  idempotent: true,
  client: true,
}));

const spec = R.RESEARCH_PATHS.specification;
const prod = R.RESEARCH_PATHS.production;
const research = (id: R.ResearchOperation, scope: string, parameter?: string) => {
  const path = (paths: Partial<Record<R.ResearchOperation, (id: string) => string>>) => {
    const fn = paths[id];
    return fn ? at(parameter ? template(fn, parameter) : fn(""), [scope]) : undefined;
  };
  const production = path(prod);
  return { id, specification: path(spec)!, ...(production ? { production } : {}), client: true };
};

const RESEARCH_OPERATIONS: readonly Operation[] = [
  // Each briefing and answer spends an AI action credit: asking twice spends twice.
  {
    ...research("accountBriefing", SCOPES.accountSummary, "companyId"),
    method: "GET",
    roles: [ROLES.accountSummary],
    answer: R.AccountSummaryDocument,
    credit: "aiAction",
    idempotent: false,
  },
  {
    ...research("askAccount", SCOPES.accountSummary, "companyId"),
    method: "POST",
    roles: [ROLES.askAccount],
    body: R.AccountQuestionBody,
    answer: R.AccountAnswerDocument,
    credit: "aiAction",
    idempotent: false,
  },
  {
    ...research("contactBriefing", SCOPES.accountSummary, "contactId"),
    method: "GET",
    roles: [ROLES.accountSummary],
    answer: R.ContactSummaryDocument,
    credit: "aiAction",
    idempotent: false,
  },
  {
    ...research("companyLookalikes", SCOPES.recommendations),
    method: "GET",
    query: R.CompanyLookalikeQuery,
    answer: R.CompanyLookalikesDocument,
    credit: "none",
    idempotent: true,
  },
  {
    ...research("contactLookalikes", SCOPES.recommendations),
    method: "GET",
    query: R.ContactLookalikeQuery,
    answer: R.ContactLookalikesDocument,
    credit: "none",
    idempotent: true,
  },
  {
    ...research("contactRecommendations", SCOPES.recommendations),
    method: "GET",
    query: R.ContactRecommendationQuery,
    answer: R.ContactRecommendationsDocument,
    credit: "none",
    idempotent: true,
  },
];

/** Every operation of the service the add-in and the sandbox know, one entry each. */
export const OPERATIONS: readonly Operation[] = [
  ...ACCOUNT_OPERATIONS,
  ...PLAN_OPERATIONS,
  ...DATA_OPERATIONS,
  ...SIGNAL_OPERATIONS,
  ...RESEARCH_OPERATIONS,
  ...AUDIENCE_READS,
  ...AUDIENCE_WRITES,
  ...FOLDER_OPERATIONS,
];

const BY_ID = new Map(OPERATIONS.map((op) => [op.id, op]));

/**
 * Adds an operation outside the table: the operation of a kind declared elsewhere (its sandbox
 * data declares it, sandbox/signals/kindData.ts). Returns how to withdraw it.
 */
export function declareOperation(entry: Operation): () => void {
  if (BY_ID.has(entry.id)) throw new Error(`An operation is called ${entry.id} already.`);
  BY_ID.set(entry.id, entry);
  return () => BY_ID.delete(entry.id);
}

/** Whether an operation of that id is known (the table's, or a declared one). */
export function isOperation(id: string): boolean {
  return BY_ID.has(id);
}

/** An operation by its id (throws on an unknown id: a typo is a bug, not a missing operation). */
export function operation(id: string): Operation {
  const found = BY_ID.get(id);
  if (!found) throw new RangeError(`No operation is called ${id}.`);
  return found;
}
