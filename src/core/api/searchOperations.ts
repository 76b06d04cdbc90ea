// Company and contact searches: one page, or every page as an async iterator. The body and the
// page query are checked with the contract before anything is sent.
import {
  CompanySearchResult,
  ContactSearchResult,
  LIMITS,
  companySearchBody,
  contactSearchBody,
  validateCompanySearchBody,
  validateContactSearchBody,
  validateSearchQuery,
  type CompanyItem,
  type CompanySearchFilters,
  type ContactItem,
  type ContactSearchFilters,
  type SearchKind,
  type ValidationIssue,
} from "../contract/index.js";
import { refuse, type ClientContext } from "./clientContext.js";
import { callOperation, operationLabel } from "./operationCall.js";
import { iteratePages } from "./paging.js";
import type { IterateOptions, IteratedPage, RequestPriority, SearchOptions, SearchPage, ServiceClient } from "./types.js";

export const ITERATE_PAGE_SIZE = LIMITS.maxPageSize;

interface SearchSetup {
  id: "searchCompanies" | "searchContacts";
  kind: SearchKind;
  body: unknown;
  issues: ValidationIssue[];
  schema: typeof CompanySearchResult | typeof ContactSearchResult;
}

function companySetup(filters: CompanySearchFilters): SearchSetup {
  const body = companySearchBody(filters);
  return { id: "searchCompanies", kind: "company", body, issues: validateCompanySearchBody(body), schema: CompanySearchResult };
}
function contactSetup(filters: ContactSearchFilters): SearchSetup {
  const body = contactSearchBody(filters);
  return { id: "searchContacts", kind: "contact", body, issues: validateContactSearchBody(body), schema: ContactSearchResult };
}

type SearchOperations = Pick<ServiceClient, "searchCompanies" | "searchContacts" | "iterateCompanies" | "iterateContacts">;

export function searchOperations(ctx: ClientContext): SearchOperations {
  function checkSearch(setup: SearchSetup, page: number | undefined, size: number | undefined, sort: string | undefined): void {
    const query: Record<string, string | undefined> = {
      "page[number]": page === undefined ? undefined : String(page),
      "page[size]": size === undefined ? undefined : String(size),
      sort,
    };
    const issues = [...setup.issues, ...validateSearchQuery(query, setup.kind)];
    if (issues.length > 0) refuse(issues, operationLabel(setup.id));
  }

  async function searchPage<T>(
    setup: SearchSetup,
    page: number | undefined,
    size: number | undefined,
    sort: string | undefined,
    signal: AbortSignal | undefined,
    priority: RequestPriority | undefined,
  ): Promise<SearchPage<T>> {
    const doc = await callOperation(ctx, setup.id, {
      query: { "page[number]": page, "page[size]": size, sort },
      body: setup.body,
      answer: setup.schema,
      signal,
      priority,
    });
    return toSearchPage<T>(doc as SearchDocLike<T>, page ?? 1, size ?? LIMITS.defaultPageSize);
  }

  async function search<T>(setup: SearchSetup, options: SearchOptions = {}): Promise<SearchPage<T>> {
    checkSearch(setup, options.page, options.size, options.sort);
    return searchPage<T>(setup, options.page, options.size, options.sort, options.signal, options.priority);
  }

  function iterate<T>(setup: SearchSetup, options: IterateOptions = {}): AsyncIterable<IteratedPage<T>> {
    const pageSize = options.pageSize ?? ITERATE_PAGE_SIZE;
    return {
      async *[Symbol.asyncIterator]() {
        // Checked when iteration starts, so an invalid search rejects the first next().
        checkSearch(setup, 1, pageSize, options.sort);
        yield* iteratePages<T>((n, size, signal) => searchPage<T>(setup, n, size, options.sort, signal, options.priority), {
          pageSize,
          window: ctx.concurrency,
          ...(options.maxResults !== undefined ? { maxResults: options.maxResults } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        });
      },
    };
  }

  return {
    searchCompanies: (filters, options) => search<CompanyItem>(companySetup(filters), options),
    searchContacts: (filters, options) => search<ContactItem>(contactSetup(filters), options),
    iterateCompanies: (filters, options) => iterate<CompanyItem>(companySetup(filters), options),
    iterateContacts: (filters, options) => iterate<ContactItem>(contactSetup(filters), options),
  };
}

export interface SearchDocLike<T> {
  data: T[];
  meta?: { totalResults: number; page: { number: number; total: number } };
  links?: { first?: string; last?: string; prev?: string; next?: string };
}

export function toSearchPage<T>(doc: SearchDocLike<T>, page: number, size: number): SearchPage<T> {
  const links: SearchPage<T>["links"] = {};
  for (const key of ["first", "last", "prev", "next"] as const) {
    const v = doc.links?.[key];
    if (typeof v === "string") links[key] = v;
  }
  if (doc.meta) {
    return { items: doc.data, totalResults: doc.meta.totalResults, pageNumber: doc.meta.page.number, totalPages: doc.meta.page.total, links };
  }
  // Without meta the totals are unknown: assume a next page exists while one is linked.
  const seen = (page - 1) * size + doc.data.length;
  return {
    items: doc.data,
    totalResults: links.next ? seen + size : seen,
    pageNumber: page,
    totalPages: links.next ? page + 1 : page,
    links,
  };
}
