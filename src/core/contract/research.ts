// Research and lookalikes (docs/research.md): an account's briefing and questions on it, a
// contact's briefing, similar companies, similar contacts and recommended contacts. The documents
// are the service's copilot API's (gtm-copilot-v1); the specification profile serves the same
// documents under paths of our own (/data/v1/research, /data/v1/lookalikes,
// /data/v1/recommendations), and a contact's briefing there only. The queries are written and
// read here, so the client and the sandbox cannot drift.
import { Type, type Static } from "@sinclair/typebox";
import { ERROR_CODES } from "./common.js";
import { validateAgainst, type ValidationIssue } from "./validate.js";

/** Where the operations are, per profile (relative to the data API's base address). */
export type ResearchProfile = "specification" | "production";
export type ResearchOperation = "accountBriefing" | "askAccount" | "contactBriefing" | "companyLookalikes" | "contactLookalikes" | "contactRecommendations";

const SPECIFICATION_PATHS = {
  accountBriefing: (companyId: string) => `/data/v1/research/accounts/${encodeURIComponent(companyId)}`,
  askAccount: (companyId: string) => `/data/v1/research/accounts/${encodeURIComponent(companyId)}/questions`,
  contactBriefing: (contactId: string) => `/data/v1/research/contacts/${encodeURIComponent(contactId)}`,
  companyLookalikes: () => "/data/v1/lookalikes/companies",
  contactLookalikes: () => "/data/v1/lookalikes/contacts",
  contactRecommendations: () => "/data/v1/recommendations/contacts",
} as const;

/** The copilot API's paths (the service's base address holds /copilot/v1 beside /data/v1). No contact briefing. */
const PRODUCTION_PATHS = {
  accountBriefing: (companyId: string) => `/copilot/v1/companies/${encodeURIComponent(companyId)}/account-summary`,
  askAccount: (companyId: string) => `/copilot/v1/companies/${encodeURIComponent(companyId)}/account-summary/actions/ask`,
  companyLookalikes: () => "/copilot/v1/companies/lookalikes",
  contactLookalikes: () => "/copilot/v1/contacts/lookalikes",
  contactRecommendations: () => "/copilot/v1/contacts/recommendations",
} as const;

export const RESEARCH_PATHS = { specification: SPECIFICATION_PATHS, production: PRODUCTION_PATHS } as const;

/** The path of an operation in a profile, or undefined where the profile does not offer it. */
export function researchPath(profile: ResearchProfile, operation: ResearchOperation, id = ""): string | undefined {
  const paths: Partial<Record<ResearchOperation, (id: string) => string>> = RESEARCH_PATHS[profile];
  return paths[operation]?.(id);
}

/** Operations that spend AI action credits (the service's tool list: account_research, contact_research). */
export const AI_ACTION_OPERATIONS: readonly ResearchOperation[] = ["accountBriefing", "askAccount", "contactBriefing"];
/** Credits one research call costs, charged only when it succeeds. */
export const AI_ACTION_CREDITS_PER_CALL = 1;
/** The usage entry of the AI action credits (GET /data/v1/users/usage). */
export const AI_ACTION_LIMIT_TYPE = "aiAction";
/** The detail of the refusal when no AI action credit is left (code PFAPI0011, 400). */
export const AI_CREDITS_EXHAUSTED = "Credit Limit Reached: no AI action credits are left for research.";

export const USE_CASE_TYPES = ["PROSPECTING", "DEAL_ACCELERATION", "RENEWAL_AND_GROWTH"] as const;
export type UseCaseType = (typeof USE_CASE_TYPES)[number];

/** Results one lookalike or recommendation call returns at most (page[size]); the service's default is 25. */
export const RESEARCH_MAX_RESULTS = 100;
export const RESEARCH_DEFAULT_RESULTS = 25;
/** A question on an account: at most this many characters. */
export const QUESTION_MAX_LENGTH = 1000;

// ---------- documents (as the copilot API publishes them; ids are text) ----------

const resource = <A extends ReturnType<typeof Type.Object>>(type: string, attributes: A, meta?: ReturnType<typeof Type.Object>) =>
  Type.Object({ id: Type.String(), type: Type.Literal(type), attributes, ...(meta ? { meta: Type.Optional(meta) } : {}) }, { additionalProperties: true });
const open = <P extends Parameters<typeof Type.Object>[0]>(properties: P) => Type.Object(properties, { additionalProperties: true });

export const AccountSummaryDocument = open({ data: resource("AccountSummary", open({ markdown: Type.String() })) });
export type AccountSummaryDocument = Static<typeof AccountSummaryDocument>;

/** A contact's briefing: ours (the specification profile only), shaped like the account summary. */
export const ContactSummaryDocument = open({ data: resource("ContactSummary", open({ markdown: Type.String() })) });
export type ContactSummaryDocument = Static<typeof ContactSummaryDocument>;

export const AccountQuestionBody = Type.Object(
  {
    data: Type.Object(
      {
        type: Type.Literal("AccountSummaryQuestionRequest"),
        attributes: Type.Object(
          { question: Type.String({ minLength: 1, maxLength: QUESTION_MAX_LENGTH, pattern: "\\S", "x-label": "Question" }) },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type AccountQuestionBody = Static<typeof AccountQuestionBody>;

export const AccountAnswerDocument = open({ data: resource("AccountSummaryQuestion", open({ answer: Type.String() })) });
export type AccountAnswerDocument = Static<typeof AccountAnswerDocument>;

export const CompanyLookalikeItem = resource(
  "CompanyLookalike",
  open({
    companyName: Type.String(),
    score: Type.Number(),
    rank: Type.Integer(),
    industry: Type.String(),
    revenueRange: Type.String(),
    employeeRange: Type.String(),
    country: Type.String(),
  }),
);
export const CompanyLookalikesDocument = open({ data: Type.Array(CompanyLookalikeItem) });
export type CompanyLookalikesDocument = Static<typeof CompanyLookalikesDocument>;

const PersonMeta = open({
  referencePersonId: Type.Optional(Type.Integer()),
  referencePersonBrief: Type.Optional(Type.String()),
  sourceType: Type.Optional(Type.String()),
});

export const ContactLookalikeItem = resource(
  "ContactLookalike",
  open({ rank: Type.Integer(), score: Type.Number(), lookalikePersonBrief: Type.String() }),
  PersonMeta,
);
export const ContactLookalikesDocument = open({ data: Type.Array(ContactLookalikeItem) });
export type ContactLookalikesDocument = Static<typeof ContactLookalikesDocument>;

export const ContactRecommendationItem = resource(
  "ContactRecommendation",
  open({ rank: Type.Integer(), score: Type.Number(), reRankingScore: Type.Number(), recommendedPersonBrief: Type.Optional(Type.String()) }),
  PersonMeta,
);
export const ContactRecommendationsDocument = open({ data: Type.Array(ContactRecommendationItem) });
export type ContactRecommendationsDocument = Static<typeof ContactRecommendationsDocument>;

// ---------- queries (one writer and one reader, shared by the client and the sandbox) ----------

const ID_PATTERN = "^[1-9][0-9]{0,17}$";
const Id = (label: string) => Type.String({ pattern: ID_PATTERN, "x-label": label });
const Size = Type.Integer({ minimum: 1, maximum: RESEARCH_MAX_RESULTS, "x-label": "Number of results" });

export const CompanyLookalikeQuery = Type.Object(
  {
    companyId: Type.Optional(Id("Company id")),
    companyName: Type.Optional(Type.String({ minLength: 1, maxLength: 500, pattern: "\\S", "x-label": "Company name" })),
    sameCountry: Type.Optional(Type.Boolean()),
    sameIndustry: Type.Optional(Type.Boolean()),
    sameRevenueRange: Type.Optional(Type.Boolean()),
    sameEmployeeRange: Type.Optional(Type.Boolean()),
    size: Type.Optional(Size),
  },
  { additionalProperties: false },
);
export type CompanyLookalikeQuery = Static<typeof CompanyLookalikeQuery>;

export const ContactLookalikeQuery = Type.Object(
  { referencePersonId: Id("Reference contact id"), targetCompanyId: Type.Optional(Id("Target company id")), size: Type.Optional(Size) },
  { additionalProperties: false },
);
export type ContactLookalikeQuery = Static<typeof ContactLookalikeQuery>;

export const ContactRecommendationQuery = Type.Object(
  {
    companyId: Id("Company id"),
    useCase: Type.Union(
      USE_CASE_TYPES.map((u) => Type.Literal(u)),
      { "x-label": "Use case" },
    ),
    size: Type.Optional(Size),
  },
  { additionalProperties: false },
);
export type ContactRecommendationQuery = Static<typeof ContactRecommendationQuery>;

/** Wire parameter of each query field. */
const PARAMS = {
  companyId: "filter[companyId]",
  companyName: "filter[companyName]",
  sameCountry: "filter[sameCountry]",
  sameIndustry: "filter[sameIndustry]",
  sameRevenueRange: "filter[sameRevenueRange]",
  sameEmployeeRange: "filter[sameEmployeeRange]",
  referencePersonId: "filter[referencePersonId]",
  targetCompanyId: "filter[targetCompanyId]",
  useCase: "filter[useCaseType]",
  recommendationCompanyId: "filter[ziCompanyId]",
  size: "page[size]",
} as const;
const BOOLEAN_FIELDS = new Set(["sameCountry", "sameIndustry", "sameRevenueRange", "sameEmployeeRange"]);
const NUMBER_FIELDS = new Set(["size"]);

type QueryKind = "companyLookalikes" | "contactLookalikes" | "contactRecommendations";
const QUERY_SCHEMAS = {
  companyLookalikes: CompanyLookalikeQuery,
  contactLookalikes: ContactLookalikeQuery,
  contactRecommendations: ContactRecommendationQuery,
};

function paramOf(kind: QueryKind, field: string): string {
  if (kind === "contactRecommendations" && field === "companyId") return PARAMS.recommendationCompanyId;
  return PARAMS[field as keyof typeof PARAMS];
}

function issue(parameter: string, label: string, rule: string, message: string): ValidationIssue {
  return { parameter, label, rule, code: ERROR_CODES.validation, message };
}

/** Each query field in the user's words. */
const QUERY_LABELS: Record<string, string> = {
  companyId: "Company id",
  companyName: "Company name",
  referencePersonId: "Reference contact id",
  targetCompanyId: "Target company id",
  useCase: "Use case",
  size: "Number of results",
  sameCountry: "Same country",
  sameIndustry: "Same industry",
  sameRevenueRange: "Same revenue range",
  sameEmployeeRange: "Same employee range",
};

/** Why a query may not be sent (empty: it may), each issue on its wire parameter. */
export function validateResearchQuery(kind: QueryKind, query: unknown): ValidationIssue[] {
  const issues = validateAgainst(QUERY_SCHEMAS[kind], query).map((i): ValidationIssue => {
    const field = (i.pointer ?? "").split("/")[1] ?? "";
    const { pointer: _pointer, ...rest } = i;
    const parameter = field === "" ? "" : paramOf(kind, field);
    if (field === "size") return { ...rest, parameter, message: `Number of results must be a whole number from 1 to ${RESEARCH_MAX_RESULTS}.` };
    const label = QUERY_LABELS[field] ?? field;
    if (/[Ii]d$/.test(field)) return { ...rest, parameter, label, message: `${label} must be a ZoomInfo id: digits only.` };
    if (field === "companyName") return { ...rest, parameter, label, message: "Company name must not be blank, and at most 500 characters." };
    if (field === "useCase") return { ...rest, parameter, label, message: "Use case must be Prospecting, Deal acceleration or Renewal and growth." };
    return { ...rest, parameter, label, message: rest.message.replace(field, label) };
  });
  const q = query as { companyId?: unknown; companyName?: unknown } | null;
  if (kind === "companyLookalikes" && q && typeof q === "object" && q.companyId === undefined && q.companyName === undefined) {
    // The service's code for "provide at least one of [fields]".
    issues.push({ ...issue(PARAMS.companyId, "Company", "required", "Give the company's id or its name to find companies like it."), code: "PFAPI0004" });
  }
  return issues;
}

/** The query parameters of a valid query, in the wire's names. */
export function researchQueryParams(kind: QueryKind, query: Record<string, string | number | boolean | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, value] of Object.entries(query)) if (value !== undefined) out[paramOf(kind, field)] = String(value);
  return out;
}

/** Reads wire parameters back into a query (the sandbox), with the issues of what it read. */
export function readResearchQuery(kind: QueryKind, params: Record<string, string | undefined>): { query: Record<string, unknown>; issues: ValidationIssue[] } {
  const query: Record<string, unknown> = {};
  const issues: ValidationIssue[] = [];
  const fields = Object.keys(QUERY_SCHEMAS[kind].properties);
  for (const field of fields) {
    const raw = params[paramOf(kind, field)];
    if (raw === undefined) continue;
    if (BOOLEAN_FIELDS.has(field)) {
      if (raw === "true" || raw === "false") query[field] = raw === "true";
      else issues.push(issue(paramOf(kind, field), field, "boolean", `${paramOf(kind, field)} must be true or false.`));
    } else if (NUMBER_FIELDS.has(field)) {
      query[field] = /^-?\d+$/.test(raw) ? Number(raw) : raw;
    } else {
      query[field] = raw;
    }
  }
  return { query, issues: [...issues, ...validateResearchQuery(kind, query)] };
}

/** Why a company or contact id of a path may not be sent (empty: it may). */
export function validateResearchId(id: string, label = "Company id"): ValidationIssue[] {
  return new RegExp(ID_PATTERN).test(id) ? [] : [issue("id", label, "pattern", `${label} must be a ZoomInfo id: digits only.`)];
}

/** A question's body, and why it may not be sent. */
export function accountQuestionBody(question: string): { body: AccountQuestionBody; issues: ValidationIssue[] } {
  const body: AccountQuestionBody = { data: { type: "AccountSummaryQuestionRequest", attributes: { question } } };
  const issues = validateAgainst(AccountQuestionBody, body).map((i) =>
    i.pointer === "/data/attributes/question"
      ? { ...i, message: question.trim() === "" ? "Write a question to ask." : `A question is at most ${QUESTION_MAX_LENGTH} characters.` }
      : i,
  );
  return { body, issues };
}
