// Company and contact search (docs/service.md, "Search"): validate with the shared validator, run, page.
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  LIMITS,
  MEDIA_TYPE,
  PATHS,
  SCOPES,
  validateCompanySearchBody,
  validateContactSearchBody,
  validateSearchQuery,
  type CompanySearchBody,
  type ContactSearchBody,
} from "../../core/contract/index.js";
import { ValidationFailure } from "../errors.js";
import { companySearchAttributes, contactSearchAttributes } from "../records.js";
import type { CompanyFilterValues, ContactFilterValues } from "../search/filterValues.js";
import type { PageRequest } from "../search/runSearch.js";
import type { SandboxServices } from "../services.js";
import { principalOf } from "./principal.js";

/** Query parameters as single strings (a repeated parameter counts by its first value). */
export function stringQuery(query: unknown): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  if (query && typeof query === "object") {
    for (const [k, v] of Object.entries(query as Record<string, unknown>)) {
      out[k] = Array.isArray(v) ? String(v[0]) : v === undefined ? undefined : String(v);
    }
  }
  return out;
}

function pageOf(query: Record<string, string | undefined>): PageRequest {
  return {
    number: Number(query["page[number]"] ?? 1),
    size: Number(query["page[size]"] ?? LIMITS.defaultPageSize),
    sort: query.sort,
  };
}

function managementStatus(date: string | undefined) {
  return date ? { underManagement: true, purchaseDate: date } : { underManagement: false };
}

export async function searchRoutes(app: FastifyInstance, s: SandboxServices): Promise<void> {
  app.post(PATHS.searchCompanies, { config: { scope: SCOPES.company } }, async (request: FastifyRequest, reply) => {
    const query = stringQuery(request.query);
    const issues = [...validateSearchQuery(query, "company"), ...validateCompanySearchBody(request.body)];
    if (issues.length) throw new ValidationFailure(issues);
    const account = principalOf(request).account;
    const body = request.body as CompanySearchBody;
    const result = s.searcher.companies(body.data.attributes as CompanyFilterValues, pageOf(query), account, PATHS.searchCompanies);
    const dates = s.accounts.purchaseDates(account, "company", result.rows.map((r) => r.id));
    return reply.type(MEDIA_TYPE).send({
      data: result.rows.map((row) => ({
        id: String(row.id),
        type: "Company",
        attributes: { ...companySearchAttributes(row), managementStatus: managementStatus(dates.get(row.id)) },
      })),
      meta: { totalResults: result.totalResults, page: result.page },
      links: result.links,
    });
  });

  app.post(PATHS.searchContacts, { config: { scope: SCOPES.contact } }, async (request: FastifyRequest, reply) => {
    const query = stringQuery(request.query);
    const issues = [...validateSearchQuery(query, "contact"), ...validateContactSearchBody(request.body)];
    if (issues.length) throw new ValidationFailure(issues);
    const account = principalOf(request).account;
    const body = request.body as ContactSearchBody;
    const result = s.searcher.contacts(body.data.attributes as ContactFilterValues, pageOf(query), account, PATHS.searchContacts);
    const dates = s.accounts.purchaseDates(account, "contact", result.rows.map((r) => r.id));
    return reply.type(MEDIA_TYPE).send({
      data: result.rows.map((row) => ({
        id: String(row.id),
        type: "Contact",
        attributes: { ...contactSearchAttributes(row), managementStatus: managementStatus(dates.get(row.id)) },
      })),
      meta: { totalResults: result.totalResults, page: result.page },
      links: result.links,
    });
  });
}
