// Buying committees (issue 42): the data API's org-chart enrich. One company a request, its people
// by department, tier and sub-tier, paged (at most 100 a page), filtered by contact accuracy and
// sorted; no emails or phones (contact enrichment gives them). Requests are checked strictly;
// answers are read openly, in the shape the service publishes (both profiles answer in it).
import { Type, type Static } from "@sinclair/typebox";
import { ERROR_CODES, LIMITS } from "./common.js";
import type { FieldDescription } from "./hierarchy.js";
import { validateAgainst, type ValidationIssue } from "./validate.js";

export const ORG_CHART_PATH = "/data/v1/companies/org-chart/enrich";
/** People in one org-chart page (the service's page[size] maximum) and the size when none is asked. */
export const ORG_CHART_MAX_PAGE_SIZE = LIMITS.maxPageSize;
export const ORG_CHART_DEFAULT_PAGE_SIZE = LIMITS.defaultPageSize;
/** The contact accuracy scores an org chart may be filtered on (the service: "Minimum score is 70 and maximum is 99"). */
export const ORG_CHART_ACCURACY = { min: 70, max: 99 } as const;
/** The org chart's sort keys (a leading "-" sorts descending); any other key leaves the service's own order. */
export const ORG_CHART_SORT_FIELDS = ["contactAccuracyScore", "lastName"] as const;
export type OrgChartSortField = (typeof ORG_CHART_SORT_FIELDS)[number];

/** The org chart's input and output fields, as the enrich lookup lists them. */
export const ORG_CHART_INPUT_FIELDS = {
  companyId: { description: "The company's id." },
  department: { description: "Departments to show, comma-separated (the departments lookup's ids or names)." },
  contactAccuracyScoreMin: { description: "The lowest contact accuracy score shown (70 to 99)." },
  contactAccuracyScoreMax: { description: "The highest contact accuracy score shown (70 to 99)." },
} as const satisfies Record<string, FieldDescription>;
export const ORG_CHART_OUTPUT_FIELDS = {
  firstName: { description: "First name." },
  middleName: { description: "Middle name." },
  lastName: { description: "Last name." },
  title: { description: "Job title." },
  department: { description: "Department." },
  jobFunction: { description: "Job function." },
  orgChartTier: { description: "Tier within the department by seniority, 1 the highest." },
  orgChartSubTier: { description: "Rank within the tier, 1 the head of the tier." },
  hasEmail: { description: "Whether an email address is known (contact enrichment gives it)." },
  hasDirectPhone: { description: "Whether a direct phone number is known (contact enrichment gives it)." },
  contactAccuracyScore: { description: "How likely the person is reachable and still at the company (70 to 99)." },
  lastUpdatedDate: { description: "When the person's record was last updated." },
  companyId: { description: "The company's id." },
  companyName: { description: "The company's name." },
} as const satisfies Record<string, FieldDescription>;

const S = LIMITS.maxStringLength;
const strict = { additionalProperties: false } as const;
const Open = { additionalProperties: true } as const;
const opt = Type.Optional;

// ---- Org chart: request and query ----

const digits = () => Type.String({ pattern: "^[0-9]{1,18}$", maxLength: 18, "x-rule": "number" });

export const OrgChartEnrichRequest = Type.Object(
  {
    data: Type.Object(
      {
        type: Type.Literal("OrgChartEnrich"),
        attributes: Type.Object(
          {
            companyId: digits(),
            department: opt(Type.String({ maxLength: S })),
            contactAccuracyScoreMin: opt(digits()),
            contactAccuracyScoreMax: opt(digits()),
          },
          strict,
        ),
      },
      strict,
    ),
  },
  strict,
);
export type OrgChartEnrichRequest = Static<typeof OrgChartEnrichRequest>;

export interface OrgChartAsk {
  companyId: number;
  /** Department ids or names from the departments lookup; none: every department. */
  departments?: readonly string[];
  accuracyMin?: number;
  accuracyMax?: number;
}

export function orgChartBody(ask: OrgChartAsk): OrgChartEnrichRequest {
  const attributes: OrgChartEnrichRequest["data"]["attributes"] = { companyId: String(ask.companyId) };
  if (ask.departments?.length) attributes.department = ask.departments.join(",");
  if (ask.accuracyMin !== undefined) attributes.contactAccuracyScoreMin = String(ask.accuracyMin);
  if (ask.accuracyMax !== undefined) attributes.contactAccuracyScoreMax = String(ask.accuracyMax);
  return { data: { type: "OrgChartEnrich", attributes } };
}

const ATTR = "/data/attributes";
const issue = (pointer: string, label: string, message: string): ValidationIssue => ({
  pointer,
  label,
  rule: "range",
  code: ERROR_CODES.invalidValue,
  message,
});

/** The schema's issues, then the scores' range (70 to 99) and order. */
export function validateOrgChartBody(body: unknown): ValidationIssue[] {
  const issues = validateAgainst(OrgChartEnrichRequest, body);
  if (issues.length > 0) return issues;
  const a = (body as OrgChartEnrichRequest).data.attributes;
  const { min, max } = ORG_CHART_ACCURACY;
  const scores = [
    ["contactAccuracyScoreMin", "Lowest accuracy score", a.contactAccuracyScoreMin],
    ["contactAccuracyScoreMax", "Highest accuracy score", a.contactAccuracyScoreMax],
  ] as const;
  for (const [name, label, value] of scores) {
    if (value !== undefined && (Number(value) < min || Number(value) > max))
      issues.push(issue(`${ATTR}/${name}`, label, `${label} must be from ${min} to ${max}.`));
  }
  const [low, high] = [a.contactAccuracyScoreMin, a.contactAccuracyScoreMax].map((v) => (v === undefined ? undefined : Number(v)));
  if (issues.length === 0 && low !== undefined && high !== undefined && low > high) {
    issues.push(issue(`${ATTR}/contactAccuracyScoreMin`, "Lowest accuracy score", "The lowest accuracy score must not be above the highest."));
  }
  return issues;
}

export interface OrgChartSortKey {
  field: OrgChartSortField;
  descending: boolean;
}

export interface OrgChartQuery {
  page: { number: number; size: number };
  /** The keys asked that the service sorts on, in order; empty: its own order (relevance). */
  sort: OrgChartSortKey[];
}

const queryIssue = (parameter: string, message: string): ValidationIssue => ({
  parameter,
  label: parameter,
  rule: "range",
  code: ERROR_CODES.invalidValue,
  message,
});

/** The page asked (1 to 100 pages of 1 to 100 people) and the sort keys the service knows; unknown keys are ignored, as it does. */
export function readOrgChartQuery(query: Readonly<Record<string, string | undefined>>): { query: OrgChartQuery; issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  const whole = (name: string, fallback: number, max: number): number => {
    const text = query[name];
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!/^[0-9]+$/.test(text) || n < 1 || n > max) issues.push(queryIssue(name, `${name} must be a whole number from 1 to ${max}.`));
    return n;
  };
  const page = { number: whole("page[number]", 1, LIMITS.maxPageNumber), size: whole("page[size]", ORG_CHART_DEFAULT_PAGE_SIZE, ORG_CHART_MAX_PAGE_SIZE) };
  const sort: OrgChartSortKey[] = [];
  for (const key of (query.sort ?? "").split(",").map((k) => k.trim())) {
    const field = key.replace(/^-/, "");
    if ((ORG_CHART_SORT_FIELDS as readonly string[]).includes(field)) sort.push({ field: field as OrgChartSortField, descending: key.startsWith("-") });
  }
  return { query: { page, sort }, issues };
}

// ---- Org chart: answer ----

export const OrgChartPerson = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal("OrgChart"),
    attributes: Type.Object(
      {
        firstName: opt(Type.String()),
        middleName: opt(Type.String()),
        lastName: opt(Type.String()),
        title: opt(Type.String()),
        department: opt(Type.String()),
        jobFunction: opt(Type.String()),
        orgChartTier: opt(Type.Integer()),
        orgChartSubTier: opt(Type.Integer()),
        hasEmail: opt(Type.Boolean()),
        hasDirectPhone: opt(Type.Boolean()),
        contactAccuracyScore: opt(Type.Number()),
        lastUpdatedDate: opt(Type.String()),
        companyId: opt(Type.String()),
        companyName: opt(Type.String()),
      },
      Open,
    ),
  },
  Open,
);
export type OrgChartPerson = Static<typeof OrgChartPerson>;

export const OrgChartDocument = Type.Object(
  {
    data: Type.Array(OrgChartPerson),
    meta: opt(Type.Object({ totalResults: Type.Integer({ minimum: 0 }), page: Type.Object({ number: Type.Integer(), total: Type.Integer() }, Open) }, Open)),
    links: opt(Type.Record(Type.String(), Type.String())),
  },
  Open,
);
export type OrgChartDocument = Static<typeof OrgChartDocument>;
