// Runs a validated search: count, one page in sort order (ties broken by id in the same
// direction), and the paging envelope (docs/service.md, "Search").
import type Database from "better-sqlite3";
import { DEFAULT_COMPANY_SORT, DEFAULT_CONTACT_SORT, LIMITS } from "../../core/contract/index.js";
import type { CompanySearchFilters, ContactSearchFilters } from "../../core/contract/index.js";
import { sandboxClock, type Clock } from "../context.js";
import { managementWindowStart } from "../credits.js";
import type { CompanyRow, ContactRow } from "../records.js";
import { openColumnIndex } from "../store/columnsFile.js";
import { rowsOfIds } from "../store/rowsOfIds.js";
import { columnarSearch, type ColumnarSearch } from "./columnar.js";
import { companyWhere, type Selectivity, type TagStyle, type ZipResolver } from "./companyFilters.js";
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

/** Sort column and the index that walks it in order (ties by rowid, as the ORDER BY says). */
const COMPANY_SORTS: Record<string, { column: string; index: string }> = {
  name: { column: "c.name COLLATE NOCASE", index: "companies_name" },
  employeeCount: { column: "c.employees", index: "companies_employees" },
  revenue: { column: "c.revenue", index: "companies_revenue" },
};
const CONTACT_SORTS: Record<string, { column: string; index: string }> = {
  contactAccuracyScore: { column: "ct.accuracy", index: "contacts_accuracy" },
  lastName: { column: "ct.last_name COLLATE NOCASE", index: "contacts_last_name" },
  companyName: { column: "ct.company_name COLLATE NOCASE", index: "contacts_company_name" },
  relevance: { column: "ct.relevance", index: "contacts_relevance" },
};

function sortOf(sort: string, sorts: Record<string, { column: string; index: string }>, idColumn: string): { order: string; index: string } {
  const desc = sort.startsWith("-");
  const s = sorts[desc ? sort.slice(1) : sort]!;
  const dir = desc ? "DESC" : "ASC";
  return { order: `${s.column} ${dir}, ${idColumn} ${dir}`, index: s.index };
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

const MAX_CACHED_COUNTS = 5000;
/** Default budget of the page cache: about 64 MB of rows (measured as their JSON size). */
export const DEFAULT_PAGE_CACHE_BYTES = 64 * 1024 * 1024;
const SAMPLE_SIZE = 2000;

/** Shares estimated from evenly spaced companies (a few ms at start-up, even on 1,000,000). */
function sampleSelectivity(db: Database.Database): Selectivity {
  const max = (db.prepare("SELECT MAX(id) AS n FROM companies").get() as { n: number | null }).n ?? 0;
  const ids = Array.from({ length: Math.min(SAMPLE_SIZE, max) }, (_, i) => 1 + Math.floor((i * max) / Math.min(SAMPLE_SIZE, max)));
  const rows = db.prepare("SELECT revenue, employees FROM companies WHERE id IN (SELECT value FROM json_each(?))").all(JSON.stringify(ids)) as {
    revenue: number;
    employees: number;
  }[];
  const share = (matches: number) => (rows.length ? matches / rows.length : 0);
  return {
    range: (column, min, max) => share(rows.filter((r) => (min === undefined || r[column] >= min) && (max === undefined || r[column] <= max)).length),
  };
}

export interface PageCacheStats {
  pages: number;
  /** Approximate size of the cached rows (their JSON length). */
  bytes: number;
  limitBytes: number;
}

export interface Searcher {
  pageCache(): PageCacheStats;
  companies(filters: CompanySearchFilters, page: PageRequest, account: string, path: string): SearchPage<CompanyRow>;
  contacts(filters: ContactSearchFilters, page: PageRequest, account: string, path: string): SearchPage<ContactRow>;
}

export interface SearcherOptions {
  /** Answer the common company filters from in-memory columns (default true; false: SQL only). */
  columns?: boolean;
  /** The sandbox's time, for the underManagement filter's window (default the system clock). */
  clock?: Pick<Clock, "now">;
}

/** Sort fields of company search and the in-memory order that walks them. */
const COLUMN_ORDERS: Record<string, "name" | "employees" | "revenue"> = { name: "name", employeeCount: "employees", revenue: "revenue" };

/** Prepared statements by SQL text (at most about 2000 kept). */
function statementCache(db: Database.Database): (sql: string) => Database.Statement {
  const statements = new Map<string, Database.Statement>();
  return (sql) => {
    let st = statements.get(sql);
    if (!st) {
      st = db.prepare(sql);
      if (statements.size > 2000) statements.clear();
      statements.set(sql, st);
    }
    return st;
  };
}

function remember<V>(cache: Map<string, V>, max: number, key: string, value: V): void {
  if (cache.size >= max) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
}

/**
 * Pages of seeded records, like counts, never change while the sandbox runs: a repeated search
 * (a client paging, a refreshed table, a preview) reads them once. Bounded by bytes, not pages:
 * pages of 100 wide contact rows weigh far more than 10 companies.
 */
class PageCache {
  private readonly pages = new Map<string, { rows: unknown[]; bytes: number }>();
  private bytes = 0;
  constructor(private readonly limitBytes: number) {}

  get(key: string): unknown[] | undefined {
    return this.pages.get(key)?.rows;
  }

  set(key: string, rows: unknown[]): void {
    const bytes = JSON.stringify(rows).length + key.length;
    if (bytes > this.limitBytes) return;
    while (this.bytes + bytes > this.limitBytes && this.pages.size > 0) {
      const oldest = this.pages.keys().next().value as string;
      this.bytes -= this.pages.get(oldest)!.bytes;
      this.pages.delete(oldest);
    }
    this.pages.set(key, { rows, bytes });
    this.bytes += bytes;
  }

  stats(): PageCacheStats {
    return { pages: this.pages.size, bytes: this.bytes, limitBytes: this.limitBytes };
  }
}

/** What every search of one searcher shares. */
interface Caches {
  prepare: (sql: string) => Database.Statement;
  /** Counts by query (seeded records never change while the sandbox runs). */
  counts: Map<string, number>;
  pages: PageCache;
}

interface Query {
  /** FROM clause with the table aliased; `indexed` is put after the alias being walked. */
  from: (indexed: string) => string;
  /** WHERE clause for a tag style (see TagStyle). */
  where: (p: SqlParams, style: TagStyle) => string;
  order: string;
  sortIndex: string;
  select: string;
  /** Records in the table being walked. */
  tableRows: number;
}

function envelope<Row>(rows: Row[], total: number, page: PageRequest, path: string): SearchPage<Row> {
  const totalPages = Math.ceil(total / page.size);
  return { rows, totalResults: total, page: { number: page.number, total: totalPages }, links: pageLinks(path, page, totalPages) };
}

/** The query's count, computed once per filter set unless it asks about management status (which changes). */
function sqlCount(caches: Caches, q: Query): { total: number; countWhere: string; cacheable: boolean } {
  const countParams = new SqlParams();
  const countWhere = q.where(countParams, "in");
  // No filters: no WHERE at all, so SQLite counts with its smallest index.
  const countSql = `SELECT COUNT(*) AS n FROM ${q.from("")} ${countWhere === "1" ? "" : `WHERE ${countWhere}`}`;
  const cacheable = !countSql.includes("FROM managed");
  const key = cacheable ? `${countSql}\n${JSON.stringify(countParams.values)}` : "";
  let total = cacheable ? caches.counts.get(key) : undefined;
  if (total === undefined) {
    total = (caches.prepare(countSql).get(countParams.values) as { n: number }).n;
    if (cacheable) remember(caches.counts, MAX_CACHED_COUNTS, key, total);
  }
  return { total, countWhere, cacheable };
}

function runSql<Row>(caches: Caches, q: Query, page: PageRequest, path: string): SearchPage<Row> {
  const { total, countWhere, cacheable } = sqlCount(caches, q);
  const offset = (page.number - 1) * page.size;
  if (offset >= total) return envelope<Row>([], total, page, path);
  // Walking the sort index reads about (offset + size) / share-of-matches records; finding all
  // matches first and sorting them reads `total`. Take the cheaper path (SQLite cannot know
  // the share of matches, we do: the count).
  const walk = countWhere !== "1" && ((offset + page.size) * q.tableRows) / total < total;
  const p = new SqlParams();
  const where = q.where(p, walk ? "exists" : "in");
  const from = q.from(walk ? ` INDEXED BY ${q.sortIndex}` : "");
  const pageSql = `SELECT ${q.select} FROM ${from} ${where === "1" ? "" : `WHERE ${where}`} ORDER BY ${q.order} LIMIT @limit OFFSET @offset`;
  const params = { ...p.values, limit: page.size, offset };
  const pageKey = cacheable ? `${pageSql}\n${JSON.stringify(params)}` : "";
  let rows = (cacheable ? caches.pages.get(pageKey) : undefined) as Row[] | undefined;
  if (!rows) {
    rows = caches.prepare(pageSql).all(params) as Row[];
    if (cacheable) caches.pages.set(pageKey, rows);
  }
  return envelope(rows, total, page, path);
}

function runColumnar(caches: Caches, rowsById: Database.Statement, search: ColumnarSearch, page: PageRequest, path: string): SearchPage<CompanyRow> {
  const key = `columns\n${search.key}`;
  let total = caches.counts.get(key);
  if (total === undefined) {
    total = search.count();
    remember(caches.counts, MAX_CACHED_COUNTS, key, total);
  }
  const offset = (page.number - 1) * page.size;
  if (offset >= total) return envelope<CompanyRow>([], total, page, path);
  const sort = page.sort ?? DEFAULT_COMPANY_SORT;
  const descending = sort.startsWith("-");
  const pageKey = `${key}\n${sort}\n${offset}\n${page.size}`;
  let rows = caches.pages.get(pageKey) as CompanyRow[] | undefined;
  if (!rows) {
    const ids = search.page({ column: COLUMN_ORDERS[descending ? sort.slice(1) : sort]!, descending }, offset, page.size);
    const byId = rowsOfIds<CompanyRow>(rowsById, ids);
    rows = ids.map((id) => byId.get(id)!);
    caches.pages.set(pageKey, rows);
  }
  return envelope(rows, total, page, path);
}

const COMPANY_SELECT = "c.id, c.name, c.city, c.state, c.country, c.revenue, c.employees, c.website, c.logo";

/** What the company and contact searches need of the database beyond the caches. */
interface SearchData {
  zipPoint: ZipResolver;
  selectivity: Selectivity;
  companyRows: number;
  contactRows: number;
  clock: Pick<Clock, "now">;
}

function searchData(db: Database.Database, clock: Pick<Clock, "now">): SearchData {
  const zipLookup = db.prepare("SELECT lat, lon FROM zips WHERE zip = ?");
  const zipPoint: ZipResolver = (zip) => zipLookup.get(zip) as { lat: number; lon: number } | undefined;
  const selectivity = sampleSelectivity(db);
  const countRows = (table: string) => (db.prepare(`SELECT MAX(id) AS n FROM ${table}`).get() as { n: number | null }).n ?? 0;
  return { zipPoint, selectivity, companyRows: countRows("companies"), contactRows: countRows("contacts"), clock };
}

function companyQuery(data: SearchData, filters: CompanySearchFilters, sort: string, account: string): Query {
  const scope = {
    account,
    managedKind: "company" as const,
    managedIdExpr: "c.id",
    managedSince: managementWindowStart(data.clock),
    selectivity: data.selectivity,
  };
  const { order, index } = sortOf(sort, COMPANY_SORTS, "c.id");
  return {
    from: (indexed) => `companies c${indexed}`,
    where: (p, style) => companyWhere(filters, p, scope, data.zipPoint, style),
    order,
    sortIndex: index,
    select: COMPANY_SELECT,
    tableRows: data.companyRows,
  };
}

function contactQuery(data: SearchData, filters: ContactSearchFilters, sort: string, account: string): Query {
  const scope = {
    account,
    managedKind: "contact" as const,
    managedIdExpr: "ct.id",
    managedSince: managementWindowStart(data.clock),
    selectivity: data.selectivity,
  };
  const { order, index } = sortOf(sort, CONTACT_SORTS, "ct.id");
  // Whether the company is needed depends only on the filters, not on the tag style.
  const needsCompany = contactWhere(filters, new SqlParams(), scope, data.zipPoint).needsCompany;
  return {
    // CROSS JOIN keeps contacts the outer loop, so a forced sort index is walked once.
    from: (indexed) =>
      needsCompany ? `contacts ct${indexed} ${indexed ? "CROSS JOIN" : "JOIN"} companies c ON c.id = ct.company_id` : `contacts ct${indexed}`,
    where: (p, style) => contactWhere(filters, p, scope, data.zipPoint, style).where,
    order,
    sortIndex: index,
    select: "ct.*",
    tableRows: data.contactRows,
  };
}

export function createSearcher(db: Database.Database, pageCacheBytes = DEFAULT_PAGE_CACHE_BYTES, options: SearcherOptions = {}): Searcher {
  const caches: Caches = { prepare: statementCache(db), counts: new Map(), pages: new PageCache(pageCacheBytes) };
  // Kept in a file beside a database file (built once if missing); built afresh for an in-memory one.
  const columns = options.columns === false ? undefined : openColumnIndex(db);
  const rowsById = db.prepare(`SELECT ${COMPANY_SELECT} FROM companies c WHERE c.id IN (SELECT value FROM json_each(?))`);
  const data = searchData(db, options.clock ?? sandboxClock);
  return {
    pageCache: () => caches.pages.stats(),
    companies(filters, page, account, path) {
      const fast = columns && columnarSearch(columns, filters, data.zipPoint);
      if (fast) return runColumnar(caches, rowsById, fast, page, path);
      return runSql<CompanyRow>(caches, companyQuery(data, filters, page.sort ?? DEFAULT_COMPANY_SORT, account), page, path);
    },
    contacts(filters, page, account, path) {
      return runSql<ContactRow>(caches, contactQuery(data, filters, page.sort ?? DEFAULT_CONTACT_SORT, account), page, path);
    },
  };
}
