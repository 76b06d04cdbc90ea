// The operations of issue 42 as plain functions (a request in, the answer out, or an ApiError /
// ValidationFailure the app's error handler turns into the service's error document), so that a
// route of either profile is a thin registration and tests call them directly.
//
// Credits (the service's rules): the hierarchy charges a credit per matched company not already
// under management, nothing for a NoMatch; credits that run out answer the rest LIMIT_EXCEEDED.
// The org chart charges its company (when not under management) once per request, however many
// people come back; with no credit left it is refused (400, the credit-limit code). A company the
// data does not have answers no people and costs nothing.
import {
  ERROR_CODES,
  ORG_CHART_PATH,
  readOrgChartQuery,
  validateHierarchyBody,
  validateOrgChartBody,
  type CorporateHierarchyDocument,
  type CorporateHierarchyEnrichRequest,
  type CorporateHierarchyItem,
  type HierarchyMatchInput,
  type HierarchyNoMatchItem,
  type OrgChartDocument,
  type OrgChartEnrichRequest,
  type OrgChartQuery,
} from "../../core/contract/index.js";
import type { CreditLedger, SandboxContext } from "../context.js";
import { ApiError, ValidationFailure } from "../errors.js";
import { DEPARTMENTS } from "../data/reference.js";
import { familyTree, parentage } from "./families.js";
import { departmentIds, orgChartPerson, selectPeople, type OrgChartFilter } from "./orgChart.js";
import { accountData, type AccountData } from "./store.js";

/** A matcher's verdict on one input (the company enrichment's matchers give these). */
export type CompanyMatch = { id: number } | { status: string; warnings?: readonly string[] };

export interface AccountOperations {
  data: AccountData;
  credits: Pick<CreditLedger, "charge" | "balance" | "purchaseDate">;
  /** The company enrichment's matcher (by id, name or website), so both match alike. */
  matchCompany(input: HierarchyMatchInput): CompanyMatch;
}

/** The operations' dependencies from the sandbox's context and the company enrichment's matcher. */
export function accountOperations(ctx: Pick<SandboxContext, "db" | "credits">, matchCompany: AccountOperations["matchCompany"]): AccountOperations {
  return { data: accountData(ctx.db), credits: ctx.credits, matchCompany };
}

type HierarchyAnswer = CorporateHierarchyItem | HierarchyNoMatchItem;

/** "AMBIGUOUS_INPUT: 2 companies fit ..." as the service's warning object. */
function warningOf(text: string): { code?: string; message: string } {
  const m = /^([A-Z_]+): (.*)$/s.exec(text);
  return m ? { code: m[1]!, message: m[2]! } : { message: text };
}

function noMatch(input: HierarchyMatchInput, matchStatus: string, warnings?: readonly string[]): HierarchyNoMatchItem {
  return { id: "0", type: "NoMatch", meta: { matchStatus, input, ...(warnings?.length ? { warnings: warnings.map(warningOf) } : {}) } };
}

function hierarchyItem(d: AccountOperations, id: number, input: HierarchyMatchInput, fields: ReadonlySet<string>): HierarchyAnswer {
  const family = d.data.familyOf(id);
  if (!family) return noMatch(input, "NO_MATCH");
  const attributes: CorporateHierarchyItem["attributes"] = {};
  if (fields.has("companyId")) attributes.companyId = id;
  if (fields.has("parentage")) attributes.parentage = parentage(family, id);
  if (fields.has("familyTree")) attributes.familyTree = [familyTree(family)];
  return { id: String(id), type: "CorporateHierarchy", attributes, meta: { matchStatus: "FULL_MATCH", input } };
}

/** POST corporate-hierarchy/enrich: one item per input, in input order. */
export function enrichCorporateHierarchy(body: unknown, account: string, d: AccountOperations): CorporateHierarchyDocument {
  const issues = validateHierarchyBody(body);
  if (issues.length > 0) throw new ValidationFailure(issues);
  const { matchCompanyInput: inputs, outputFields } = (body as CorporateHierarchyEnrichRequest).data.attributes;
  const fields = new Set<string>(outputFields);
  const matches = inputs.map((input) => d.matchCompany(input));
  const ids = [...new Set(matches.flatMap((m) => ("id" in m ? [m.id] : [])))];
  const refused = new Set(d.credits.charge(account, "company", ids).refused);
  const data = inputs.map((input, i): HierarchyAnswer => {
    const match = matches[i]!;
    if (!("id" in match)) return noMatch(input, match.status, match.warnings);
    if (refused.has(match.id)) return noMatch(input, "LIMIT_EXCEEDED");
    return hierarchyItem(d, match.id, input, fields);
  });
  return { data };
}

const DEPARTMENT_LIST = DEPARTMENTS.map((dep) => `${dep.id} (${dep.name})`).join(", ");

/** The request's filter: its departments (400 naming any the lookup does not have) and scores. */
function orgChartFilter(attributes: OrgChartEnrichRequest["data"]["attributes"]): OrgChartFilter {
  const filter: OrgChartFilter = {};
  const names = (attributes.department ?? "").split(",").filter((name) => name.trim() !== "");
  if (names.length > 0) {
    const { ids, unknown } = departmentIds(names);
    if (unknown.length > 0) {
      throw new ApiError(400, ERROR_CODES.invalidValue, `Unknown department: ${unknown.join(", ")}. Departments: ${DEPARTMENT_LIST}.`, {
        pointer: "/data/attributes/department",
      });
    }
    filter.departments = ids;
  }
  if (attributes.contactAccuracyScoreMin !== undefined) filter.accuracyMin = Number(attributes.contactAccuracyScoreMin);
  if (attributes.contactAccuracyScoreMax !== undefined) filter.accuracyMax = Number(attributes.contactAccuracyScoreMax);
  return filter;
}

/** Charges the company (free when under management); refuses the request when no credit is left. */
function chargeCompany(d: AccountOperations, account: string, companyId: number): void {
  if (d.credits.charge(account, "company", [companyId]).refused.length === 0) return;
  throw new ApiError(400, ERROR_CODES.creditLimit, `The credit limit is reached: this company needs a credit and ${d.credits.balance(account)} are left.`);
}

/** Links to the first, last, previous and next pages (relative, as the service's examples give them). */
function pageLinks(query: OrgChartQuery, pages: number, sortText: string | undefined): Record<string, string> {
  const size = query.page.size;
  const link = (n: number) => `${ORG_CHART_PATH}?page[number]=${n}&page[size]=${size}${sortText ? `&sort=${encodeURIComponent(sortText)}` : ""}`;
  const last = Math.max(1, pages);
  const n = query.page.number;
  return { first: link(1), last: link(last), ...(n > 1 ? { prev: link(Math.min(n - 1, last)) } : {}), ...(n < pages ? { next: link(n + 1) } : {}) };
}

/** POST org-chart/enrich: one page of the company's people, filtered and sorted. */
export function enrichOrgChart(
  body: unknown,
  queryText: Readonly<Record<string, string | undefined>>,
  account: string,
  d: AccountOperations,
): OrgChartDocument {
  const read = readOrgChartQuery(queryText);
  const issues = [...validateOrgChartBody(body), ...read.issues];
  if (issues.length > 0) throw new ValidationFailure(issues);
  const attributes = (body as OrgChartEnrichRequest).data.attributes;
  const filter = orgChartFilter(attributes);
  const companyId = Number(attributes.companyId);
  // A company the data does not have has no people, and nothing is enriched or charged.
  const entries = d.data.orgChartOf(companyId);
  if (entries) chargeCompany(d, account, companyId);
  const people = selectPeople(entries ?? [], filter, read.query.sort);
  const { number, size } = read.query.page;
  const pages = Math.ceil(people.length / size);
  return {
    data: people.slice((number - 1) * size, number * size).map(orgChartPerson),
    meta: { totalResults: people.length, page: { number, total: pages } },
    links: pageLinks(read.query, pages, queryText.sort),
  };
}
