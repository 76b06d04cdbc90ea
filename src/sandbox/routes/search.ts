// Company search and contact search (docs/service.md, "Search"): one route factory. The body and query schemas are the
// contract's (checked by the shared validator, cross-field rules included); the handler runs the
// search, pages it and adds each record's management status for the caller's account.
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import {
  CompanySearchBody,
  CompanySearchResult,
  ContactSearchBody,
  ContactSearchResult,
  LIMITS,
  PATHS,
  validateCompanySearchBody,
  validateContactSearchBody,
  validateSearchQuery,
  type CompanySearchFilters,
  type ContactSearchFilters,
  type SearchKind,
} from "../../core/contract/index.js";
import { companySearchAttributes, contactSearchAttributes, type CompanyRow, type ContactRow } from "../records.js";
import type { RouteDependencies } from "../routeDependencies.js";
import type { PageRequest, SearchPage } from "../search/runSearch.js";
import { answer } from "./operations.js";
import { checkedBy, stringQuery } from "./validation.js";

const SearchQuerystring = Type.Object({
  "page[number]": Type.Optional(Type.String()),
  "page[size]": Type.Optional(Type.String()),
  sort: Type.Optional(Type.String()),
});
type SearchQuerystring = Static<typeof SearchQuerystring>;

/** The query schema of one kind of search (its sort fields differ). */
function searchQuerystring(kind: SearchKind) {
  return checkedBy(Type.Object(SearchQuerystring.properties), (raw) => {
    const value = stringQuery(raw);
    return { issues: validateSearchQuery(value, kind), value };
  });
}

function pageOf(query: SearchQuerystring): PageRequest {
  return {
    number: Number(query["page[number]"] ?? 1),
    size: Number(query["page[size]"] ?? LIMITS.defaultPageSize),
    sort: query.sort,
  };
}

function managementStatus(date: string | undefined) {
  return date ? { underManagement: true, purchaseDate: date } : { underManagement: false };
}

/** A search body schema whose static type carries the filters `F`. */
type SearchBodySchema<F> = TSchema & { static: { data: { attributes: F } } };

interface SearchRoute<F, Row extends { id: number }> {
  kind: SearchKind;
  path: string;
  /** The operation it serves (its scope is the operation table's). */
  operation: "searchCompanies" | "searchContacts";
  body: SearchBodySchema<F>;
  check: (body: unknown) => ReturnType<typeof validateCompanySearchBody>;
  result: typeof CompanySearchResult | typeof ContactSearchResult;
  itemType: "Company" | "Contact";
  run: (filters: F, page: PageRequest, account: string) => SearchPage<Row>;
  attributes: (row: Row) => Record<string, unknown>;
}

function searchRoute<F, Row extends { id: number }>(app: FastifyInstance, d: RouteDependencies, route: SearchRoute<F, Row>): void {
  d.operations.serve<{ data: { attributes: F } }, SearchQuerystring, unknown>(app, {
    method: "POST",
    url: route.path,
    operation: route.operation,
    schema: {
      body: checkedBy(route.body, (body) => ({ issues: route.check(body) })),
      querystring: searchQuerystring(route.kind),
      response: { 200: route.result },
    },
    handle({ principal, body, query }) {
      const account = principal.account;
      const result = route.run(body.data.attributes, pageOf(query), account);
      const dates = d.accounts.purchaseDates(
        account,
        route.kind,
        result.rows.map((r) => r.id),
      );
      return answer({
        data: result.rows.map((row) => ({
          id: String(row.id),
          type: route.itemType,
          attributes: { ...route.attributes(row), managementStatus: managementStatus(dates.get(row.id)) },
        })),
        meta: { totalResults: result.totalResults, page: result.page },
        links: result.links,
      });
    },
  });
}

export async function searchRoutes(app: FastifyInstance, d: RouteDependencies): Promise<void> {
  searchRoute<CompanySearchFilters, CompanyRow>(app, d, {
    kind: "company",
    path: PATHS.searchCompanies,
    operation: "searchCompanies",
    body: CompanySearchBody,
    check: validateCompanySearchBody,
    result: CompanySearchResult,
    itemType: "Company",
    run: (filters, page, account) => d.searcher.companies(filters, page, account, PATHS.searchCompanies),
    attributes: companySearchAttributes,
  });
  searchRoute<ContactSearchFilters, ContactRow>(app, d, {
    kind: "contact",
    path: PATHS.searchContacts,
    operation: "searchContacts",
    body: ContactSearchBody,
    check: validateContactSearchBody,
    result: ContactSearchResult,
    itemType: "Contact",
    run: (filters, page, account) => d.searcher.contacts(filters, page, account, PATHS.searchContacts),
    attributes: contactSearchAttributes,
  });
}
