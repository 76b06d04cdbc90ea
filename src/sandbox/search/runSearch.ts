// Runs a validated search: count, one page in sort order (ties broken by id in the same
// direction), and the paging envelope of part 2.2 / 4.1.
import type Database from "better-sqlite3";
import {
  DEFAULT_COMPANY_SORT,
  DEFAULT_CONTACT_SORT,
  LIMITS,
} from "../../core/contract/index.js";
import type { CompanyFilterValues, ContactFilterValues } from "./filterValues.js";
import type { CompanyRow, ContactRow } from "../records.js";
import { companyWhere, type ZipResolver } from "./companyFilters.js";
import { contactWhere } from "./contactFilters.js";
import { SqlParams } from "./sql.js";

export interface PageRequest {
  number: number;
  size: number;
  /** The sort as given (undefined: the default). */
  sort?: string;
}

export interface SearchPage<Row> {
  rows: Row[];
  totalResults: number;
  page: { number: number; total: number };
  links: { first: string; last: string; prev?: string; next?: string };
}

const COMPANY_SORT_COLUMNS: Record<string, string> = {
  name: "c.name COLLATE NOCASE",
  employeeCount: "c.employees",
  revenue: "c.revenue",
};
const CONTACT_SORT_COLUMNS: Record<string, string> = {
  contactAccuracyScore: "ct.accuracy",
  lastName: "ct.last_name COLLATE NOCASE",
  companyName: "ct.company_name COLLATE NOCASE",
  relevance: "ct.relevance",
};

function orderBy(sort: string, columns: Record<string, string>, idColumn: string): string {
  const desc = sort.startsWith("-");
  const column = columns[desc ? sort.slice(1) : sort]!;
  const dir = desc ? "DESC" : "ASC";
  return `${column} ${dir}, ${idColumn} ${dir}`;
}

export function pageLinks(path: string, page: PageRequest, totalPages: number): SearchPage<never>["links"] {
  const href = (n: number) => {
    const q = [`page[number]=${n}`, `page[size]=${page.size}`];
    if (page.sort !== undefined) q.push(`sort=${encodeURIComponent(page.sort)}`);
    return `${path}?${q.join("&")}`;
  };
  const reachable = Math.max(1, Math.min(totalPages, LIMITS.maxPageNumber));
  const links: SearchPage<never>["links"] = { first: href(1), last: href(reachable) };
  if (page.number > 1 && page.number - 1 <= reachable) links.prev = href(page.number - 1);
  if (page.number < reachable) links.next = href(page.number + 1);
  return links;
}

export interface Searcher {
  companies(filters: CompanyFilterValues, page: PageRequest, account: string, path: string): SearchPage<CompanyRow>;
  contacts(filters: ContactFilterValues, page: PageRequest, account: string, path: string): SearchPage<ContactRow>;
}

export function createSearcher(db: Database.Database): Searcher {
  const statements = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let st = statements.get(sql);
    if (!st) {
      st = db.prepare(sql);
      if (statements.size > 2000) statements.clear();
      statements.set(sql, st);
    }
    return st;
  };
  const zipLookup = db.prepare("SELECT lat, lon FROM zips WHERE zip = ?");
  const zipPoint: ZipResolver = (zip) => zipLookup.get(zip) as { lat: number; lon: number } | undefined;

  function run<Row>(from: string, whereSql: string, order: string, select: string, p: SqlParams, page: PageRequest, path: string): SearchPage<Row> {
    // No filters: no WHERE at all, so SQLite counts with its smallest index.
    const where = whereSql === "1" ? "" : `WHERE ${whereSql}`;
    const total = (prepare(`SELECT COUNT(*) AS n FROM ${from} ${where}`).get(p.values) as { n: number }).n;
    const totalPages = Math.ceil(total / page.size);
    const offset = (page.number - 1) * page.size;
    const rows =
      offset < total
        ? (prepare(`SELECT ${select} FROM ${from} ${where} ORDER BY ${order} LIMIT @limit OFFSET @offset`).all({
            ...p.values,
            limit: page.size,
            offset,
          }) as Row[])
        : [];
    return { rows, totalResults: total, page: { number: page.number, total: totalPages }, links: pageLinks(path, page, totalPages) };
  }

  return {
    companies(filters, page, account, path) {
      const p = new SqlParams();
      const where = companyWhere(filters, p, { account, managedKind: "company", managedIdExpr: "c.id" }, zipPoint);
      const order = orderBy(page.sort ?? DEFAULT_COMPANY_SORT, COMPANY_SORT_COLUMNS, "c.id");
      return run<CompanyRow>("companies c", where, order, "c.id, c.name, c.city, c.state, c.country, c.revenue, c.employees, c.website, c.logo", p, page, path);
    },
    contacts(filters, page, account, path) {
      const p = new SqlParams();
      const { where, needsCompany } = contactWhere(filters, p, { account, managedKind: "contact", managedIdExpr: "ct.id" }, zipPoint);
      const order = orderBy(page.sort ?? DEFAULT_CONTACT_SORT, CONTACT_SORT_COLUMNS, "ct.id");
      const from = needsCompany ? "contacts ct JOIN companies c ON c.id = ct.company_id" : "contacts ct";
      return run<ContactRow>(from, where, order, "ct.*", p, page, path);
    },
  };
}
