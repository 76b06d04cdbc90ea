// Signals (docs/signals.md): buyer intent, scoops, news and installed technologies. Requests,
// answers and lookups as the service publishes them; the sandbox validates with these schemas and
// the client checks its requests with them before sending.
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { ERROR_CODES, LIMITS, type RecordKind } from "./common.js";
import { boolean, choice, date, filtersObject, integer, list, text, type FilterSpec, type RangePair } from "./fields.js";
import { COMPANY_FILTERS, COMPANY_RANGES } from "./search.js";
import { validateAgainst, type ValidationIssue } from "./validate.js";
import { crossFieldRules, validateSearchQuery } from "./validateSearch.js";

export const SIGNAL_PATHS = {
  intentSearch: "/data/v1/intent/search",
  intentEnrich: "/data/v1/intent/enrich",
  scoopSearch: "/data/v1/scoops/search",
  scoopEnrich: "/data/v1/scoops/enrich",
  newsSearch: "/data/v1/news/search",
  newsEnrich: "/data/v1/news/enrich",
  technologiesEnrich: "/data/v1/companies/technologies/enrich",
} as const;
export type SignalOperation = keyof typeof SIGNAL_PATHS;

/** The lookups of the signal operations (GET /data/v1/lookup/{name}). */
export const SIGNAL_LOOKUPS = [
  "intent-topics",
  "scoop-types",
  "scoop-topics",
  "scoop-departments",
  "news-categories",
  "tech-categories",
  "tech-vendors",
  "tech-products",
] as const;
export type SignalLookup = (typeof SIGNAL_LOOKUPS)[number];

/**
 * Signal enrich operations that spend bulk-data credits (the service's tool list marks intent,
 * scoops and news enrich so; searches and technologies are free). Our choice of unit, as the
 * service does not say: one credit per company per signal kind, the first time in 12 months
 * (the company's signals of that kind are then under management, like a record).
 */
export const SIGNAL_CREDIT_KINDS = ["intent", "scoops", "news"] as const;
export type SignalCreditKind = (typeof SIGNAL_CREDIT_KINDS)[number];
export type CreditKind = RecordKind | SignalCreditKind;
export const SIGNAL_CREDIT_OPERATIONS: Partial<Record<SignalOperation, SignalCreditKind>> = {
  intentEnrich: "intent",
  scoopEnrich: "scoops",
  newsEnrich: "news",
};

/** Signals as records of a company in the enrichment pipeline (core/signals/signalRecords.ts). */
export const SIGNAL_RECORD_KINDS = ["intent", "scoops", "news", "technologies"] as const;
export type SignalRecordKind = (typeof SIGNAL_RECORD_KINDS)[number];

/**
 * The fields of the signal records: readable columns for Enrich selection, and (named like the
 * kind) the whole list as records that the cells read. Intent's fields are topics.
 */
export const SIGNAL_OUTPUT_FIELDS: Record<
  SignalRecordKind,
  Readonly<Record<string, { label: string; type: "string" | "integer" | "date" | "url" | "list" }>>
> = {
  intent: {},
  scoops: {
    latestScoop: { label: "Latest scoop", type: "string" },
    latestScoopDate: { label: "Latest scoop date", type: "date" },
    latestScoopTypes: { label: "Latest scoop type", type: "string" },
    scoops90: { label: "Scoops (90 days)", type: "integer" },
    scoops365: { label: "Scoops (12 months)", type: "integer" },
    scoops: { label: "Scoops (list)", type: "list" },
  },
  news: {
    latestNews: { label: "Latest news", type: "string" },
    latestNewsDate: { label: "Latest news date", type: "date" },
    latestNewsUrl: { label: "Latest news link", type: "url" },
    news: { label: "News (list)", type: "list" },
  },
  technologies: {
    technologyProducts: { label: "Technologies", type: "string" },
    technologyCategories: { label: "Technology categories", type: "string" },
    technologies: { label: "Technologies (list)", type: "list" },
  },
};

/** Audience strength: A is the largest audience researching the topic, E the smallest. */
export const AUDIENCE_STRENGTHS = ["A", "B", "C", "D", "E"] as const;
export type AudienceStrength = (typeof AUDIENCE_STRENGTHS)[number];
export const SIGNAL_SCORE = { min: 60, max: 100 } as const;
export const MAX_TOPICS = LIMITS.maxArrayItems;

const topics = (): FilterSpec => ({
  label: "Topics",
  group: "signal",
  kind: "array",
  lookup: "intent-topics",
  common: true,
  hint: "1 to 50 topics",
  schema: Type.Array(Type.String({ minLength: 1, maxLength: LIMITS.maxStringLength }), { minItems: 1, maxItems: MAX_TOPICS }),
});

/** A company id, or (scoop enrich) a comma-separated list of them. */
const companyIdSpec = (label: string): FilterSpec => ({
  label,
  group: "signal",
  kind: "text",
  schema: Type.Union([
    Type.Integer({ minimum: 1 }),
    Type.String({ maxLength: LIMITS.maxStringLength, pattern: "^\\s*\\d+\\s*(,\\s*\\d+\\s*)*$", "x-rule": "companyIds" }),
  ]),
});

const INTENT_RANGE_FILTERS = {
  signalStartDate: date("Signal from date", "signal", { common: true }),
  signalEndDate: date("Signal to date", "signal", { common: true }),
  signalScoreMin: integer("Score from", "signal", SIGNAL_SCORE.min, SIGNAL_SCORE.max, { common: true, hint: "60 to 100" }),
  signalScoreMax: integer("Score to", "signal", SIGNAL_SCORE.min, SIGNAL_SCORE.max),
  // The service's own example asks Min "C", Max "A": A is the strongest, so Min is the weaker end.
  audienceStrengthMin: choice("Weakest audience strength", "signal", AUDIENCE_STRENGTHS, { hint: "A is the largest audience, E the smallest" }),
  audienceStrengthMax: choice("Strongest audience strength", "signal", AUDIENCE_STRENGTHS),
  findRecommendedContacts: boolean("Recommended contacts", "signal", { hint: "Include the contacts to reach" }),
};

/** Intent search: topics, the signal ranges and every company-search filter. */
export const INTENT_SEARCH_FILTERS = { topics: topics(), ...INTENT_RANGE_FILTERS, ...COMPANY_FILTERS } satisfies Record<string, FilterSpec>;
/** Intent enrich: one company (by id, name or website) and the topics. */
export const INTENT_ENRICH_FILTERS = {
  companyId: companyIdSpec("Company id"),
  companyName: text("Company name", "signal"),
  companyWebsite: text("Website", "signal"),
  topics: topics(),
  ...INTENT_RANGE_FILTERS,
} satisfies Record<string, FilterSpec>;

const SCOOP_OWN_FILTERS = {
  scoopType: list("Scoop types", "signal", { lookup: "scoop-types", common: true }),
  scoopTopic: list("Scoop topics", "signal", { lookup: "scoop-topics" }),
  department: list("Departments", "signal", { lookup: "scoop-departments" }),
  publishedStartDate: date("Published from", "signal", { common: true }),
  publishedEndDate: date("Published to", "signal", { common: true }),
  updatedSinceCreation: boolean("Updated since first published", "signal"),
  description: text("Description words", "signal"),
  scoopId: list("Scoop ids", "signal"),
};
/** Scoop search: scoop filters, the company filters and a few person filters. */
export const SCOOP_SEARCH_FILTERS = {
  ...SCOOP_OWN_FILTERS,
  ...COMPANY_FILTERS,
  firstName: text("Contact first name", "person"),
  lastName: text("Contact last name", "person"),
  jobTitle: text("Contact job title", "person"),
} satisfies Record<string, FilterSpec>;
export const SCOOP_ENRICH_FILTERS = {
  companyId: companyIdSpec("Company ids"),
  companyName: text("Company name", "signal"),
  companyWebsite: text("Website", "signal"),
  ...SCOOP_OWN_FILTERS,
} satisfies Record<string, FilterSpec>;

const NEWS_OWN_FILTERS = {
  // Lists of strings on the wire (the service's NewsRequestAttributes), not comma-separated text.
  categories: {
    label: "News categories",
    group: "signal",
    kind: "array",
    lookup: "news-categories",
    common: true,
    schema: Type.Array(Type.String({ minLength: 1, maxLength: LIMITS.maxStringLength }), { minItems: 1, maxItems: LIMITS.maxArrayItems }),
  } satisfies FilterSpec,
  url: {
    label: "Article addresses",
    group: "signal",
    kind: "array",
    hint: "Whole addresses of articles",
    schema: Type.Array(Type.String({ minLength: 5, maxLength: LIMITS.maxStringLength }), { minItems: 1, maxItems: LIMITS.maxArrayItems }),
  } satisfies FilterSpec,
  pageDateMin: date("Published from", "signal", { common: true }),
  pageDateMax: date("Published to", "signal", { common: true }),
};
export const NEWS_SEARCH_FILTERS = {
  ...NEWS_OWN_FILTERS,
  companyId: list("Company ids", "company"),
  companyName: text("Company name", "company", { common: true }),
} satisfies Record<string, FilterSpec>;
export const NEWS_ENRICH_FILTERS = { companyId: companyIdSpec("Company id"), ...NEWS_OWN_FILTERS } satisfies Record<string, FilterSpec>;
export const TECHNOLOGIES_ENRICH_FILTERS = { companyId: companyIdSpec("Company id") } satisfies Record<string, FilterSpec>;

/** A request body: the operation's one type name (the service's pattern) and its attributes. */
function body<T extends TSchema>(type: string, attributes: T) {
  return Type.Object({ data: Type.Object({ type: Type.Literal(type), attributes }, { additionalProperties: false }) }, { additionalProperties: false });
}

export const IntentSearchFilters = filtersObject(INTENT_SEARCH_FILTERS);
export type IntentSearchFilters = Static<typeof IntentSearchFilters>;
export const IntentEnrichInput = filtersObject(INTENT_ENRICH_FILTERS);
export type IntentEnrichInput = Static<typeof IntentEnrichInput>;
export const ScoopSearchFilters = filtersObject(SCOOP_SEARCH_FILTERS);
export type ScoopSearchFilters = Static<typeof ScoopSearchFilters>;
export const ScoopEnrichInput = filtersObject(SCOOP_ENRICH_FILTERS);
export type ScoopEnrichInput = Static<typeof ScoopEnrichInput>;
export const NewsSearchFilters = filtersObject(NEWS_SEARCH_FILTERS);
export type NewsSearchFilters = Static<typeof NewsSearchFilters>;
export const NewsEnrichInput = filtersObject(NEWS_ENRICH_FILTERS);
export type NewsEnrichInput = Static<typeof NewsEnrichInput>;
export const TechnologiesEnrichInput = filtersObject(TECHNOLOGIES_ENRICH_FILTERS);
export type TechnologiesEnrichInput = Static<typeof TechnologiesEnrichInput>;

/** Each operation: its body schema, its filter specs (labels, lookups) and its cross-field rules. */
export const SIGNAL_REQUESTS = {
  intentSearch: { schema: body("IntentSearch", IntentSearchFilters), filters: INTENT_SEARCH_FILTERS as Record<string, FilterSpec>, type: "IntentSearch" },
  intentEnrich: { schema: body("IntentEnrich", IntentEnrichInput), filters: INTENT_ENRICH_FILTERS as Record<string, FilterSpec>, type: "IntentEnrich" },
  scoopSearch: { schema: body("ScoopSearch", ScoopSearchFilters), filters: SCOOP_SEARCH_FILTERS as Record<string, FilterSpec>, type: "ScoopSearch" },
  scoopEnrich: { schema: body("ScoopEnrich", ScoopEnrichInput), filters: SCOOP_ENRICH_FILTERS as Record<string, FilterSpec>, type: "ScoopEnrich" },
  newsSearch: { schema: body("NewsSearch", NewsSearchFilters), filters: NEWS_SEARCH_FILTERS as Record<string, FilterSpec>, type: "NewsSearch" },
  newsEnrich: { schema: body("NewsEnrich", NewsEnrichInput), filters: NEWS_ENRICH_FILTERS as Record<string, FilterSpec>, type: "NewsEnrich" },
  technologiesEnrich: {
    schema: body("TechnologyEnrich", TechnologiesEnrichInput),
    filters: TECHNOLOGIES_ENRICH_FILTERS as Record<string, FilterSpec>,
    type: "TechnologyEnrich",
  },
} as const satisfies Record<SignalOperation, { schema: TSchema; filters: Record<string, FilterSpec>; type: string }>;

const SIGNAL_RANGES: readonly RangePair[] = [
  { min: "signalScoreMin", max: "signalScoreMax" },
  { min: "signalStartDate", max: "signalEndDate" },
  { min: "publishedStartDate", max: "publishedEndDate" },
  { min: "pageDateMin", max: "pageDateMax" },
  ...COMPANY_RANGES,
];

/** A body for an operation (the client sends these). */
export function signalBody(operation: SignalOperation, attributes: object) {
  return { data: { type: SIGNAL_REQUESTS[operation].type, attributes } };
}

/** Schema issues plus the rules a schema cannot say: ranges in order, one company named for enrich. */
export function validateSignalBody(operation: SignalOperation, value: unknown): ValidationIssue[] {
  const { schema, filters } = SIGNAL_REQUESTS[operation];
  const issues = validateAgainst(schema, value, filters);
  const attrs = (value as { data?: { attributes?: unknown } } | null)?.data?.attributes;
  if (!attrs || typeof attrs !== "object" || Array.isArray(attrs)) return issues;
  const a = attrs as Record<string, unknown>;
  const { add, rangesInOrder } = crossFieldRules(filters, issues);
  rangesInOrder(a, SIGNAL_RANGES);
  if ((operation === "intentSearch" || operation === "intentEnrich") && a.topics === undefined) {
    add("topics", "required", "Choose at least one topic (up to 50): the lookup intent-topics lists them.");
  }
  const needsCompany = operation === "intentEnrich" || operation === "scoopEnrich";
  const needsId = operation === "newsEnrich" || operation === "technologiesEnrich";
  if (needsCompany && a.companyId === undefined && a.companyName === undefined && a.companyWebsite === undefined) {
    add("companyId", "required", "Name the company: a company id, a company name or a website.");
  }
  if (needsId && a.companyId === undefined) add("companyId", "required", "Give the company id.");
  if (operation !== "scoopEnrich" && typeof a.companyId === "string" && a.companyId.includes(",")) {
    add("companyId", "oneCompany", "This operation takes one company per request.");
  }
  return issues;
}

/** Company ids of an enrich input (scoop enrich takes a comma-separated list). */
export function companyIdsOf(value: unknown): number[] {
  if (typeof value === "number") return [value];
  if (typeof value !== "string") return [];
  return value
    .split(",")
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
}

/**
 * Sort fields of the paged signal operations (with - in front for descending), as the service
 * publishes them per operation: intent enrich's are lower case, news takes no sort.
 */
export const SIGNAL_SORT_FIELDS = {
  intentSearch: ["signalDate", "companyName", "signalScore", "category", "topic", "audienceStrength"],
  intentEnrich: ["audiencestrength", "category", "companybname", "issuedate", "signaldate", "signalscore", "signalstrength", "surgescore", "topic"],
  scoopSearch: ["scoopId", "originalPublishedDate", "description", "link", "linkText"],
  scoopEnrich: ["scoopId", "originalPublishedDate", "description", "link", "linkText"],
  newsSearch: [],
  newsEnrich: [],
} as const satisfies Record<Exclude<SignalOperation, "technologiesEnrich">, readonly string[]>;
export type PagedSignalOperation = keyof typeof SIGNAL_SORT_FIELDS;
/** The family of results a paged operation answers. */
export type SignalFamily = "intent" | "scoops" | "news";
export const SIGNAL_FAMILY: Record<PagedSignalOperation, SignalFamily> = {
  intentSearch: "intent",
  intentEnrich: "intent",
  scoopSearch: "scoops",
  scoopEnrich: "scoops",
  newsSearch: "news",
  newsEnrich: "news",
};
/** The order the service answers in when no sort is sent (news: its own order, no sort). */
export const DEFAULT_SIGNAL_SORT: Record<PagedSignalOperation, string | undefined> = {
  intentSearch: "-topic",
  intentEnrich: "-signalscore",
  scoopSearch: "-originalPublishedDate",
  scoopEnrich: "-originalPublishedDate",
  newsSearch: undefined,
  newsEnrich: undefined,
};

/** Page number, page size and sort of a paged signal operation, as strings from the URL. */
export function validateSignalQuery(query: Record<string, string | undefined>, operation: PagedSignalOperation): ValidationIssue[] {
  const issues = validateSearchQuery({ ...query, sort: undefined }, "company");
  const sort = query.sort;
  const fields: readonly string[] = SIGNAL_SORT_FIELDS[operation];
  if (sort !== undefined && !fields.includes(sort.startsWith("-") ? sort.slice(1) : sort)) {
    const message = fields.length === 0 ? "This operation takes no sort." : `Sort must be one of: ${fields.join(", ")} (with - in front for descending).`;
    issues.push({ parameter: "sort", label: "Sort", rule: "oneOf", code: ERROR_CODES.validation, message });
  }
  return issues;
}
