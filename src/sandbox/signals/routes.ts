// The signal operations of docs/signals.md under /data/v1, with the contract's validation, the
// core's scopes, rate limits and paging envelope, answering in the service's published shapes.
// A topic the catalog does not know finds no signals (the service documents no refusal).
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import {
  COMPANY_FILTERS,
  DEFAULT_SIGNAL_SORT,
  LIMITS,
  ERROR_CODES,
  SIGNAL_CREDIT_OPERATIONS,
  SIGNAL_LOOKUPS,
  SIGNAL_PATHS,
  SIGNAL_REQUESTS,
  validateSignalBody,
  validateSignalQuery,
  type CompanySearchFilters,
  type PagedSignalOperation,
  type SignalOperation,
  type ValidationIssue,
} from "../../core/contract/index.js";
import { managementWindowStart } from "../credits.js";
import { ApiError } from "../errors.js";
import type { RouteDependencies } from "../routeDependencies.js";
import { companyWhere } from "../search/companyFilters.js";
import { pageLinks } from "../search/runSearch.js";
import { SqlParams } from "../search/sql.js";
import { answer, type OperationAnswer, type OperationCall } from "../routes/operations.js";
import { checkedBy, stringQuery } from "../routes/validation.js";
import {
  INTENT_SORTS,
  NEWS_ORDER,
  NEWS_SORTS,
  SCOOP_SORTS,
  companiesOfInput,
  intentAttributes,
  intentMatcher,
  newsAttributes,
  newsMatcher,
  scoopAttributes,
  scoopMatcher,
  sorted,
  technologyAttributes,
} from "./answers.js";
import { filterLookupRows, signalLookupRows } from "./catalog.js";
import { hashtagRoutes } from "./hashtags.js";
import {
  createSignalData,
  pickedContacts,
  type SignalData,
  type CompanyInfo,
  type InstalledTech,
  type IntentRow,
  type NewsRow,
  type ScoopRow,
} from "./generate.js";

interface TechRow {
  companyId: number;
  t: InstalledTech;
}

type Attrs = Record<string, unknown>;
const PageQuery = Type.Object({ "page[number]": Type.Optional(Type.String()), "page[size]": Type.Optional(Type.String()), sort: Type.Optional(Type.String()) });
type PageQuery = Static<typeof PageQuery>;

interface Item {
  id: string;
  type: string;
  attributes: Attrs;
}

/** Rows a request selects, in order, and how one reads on the wire (given its company). */
interface Selection<R> {
  rows: R[];
  companyOf(row: R): number;
  present(row: R, company: CompanyInfo | undefined): Item;
}

const COMPANY_FILTER_NAMES = new Set(Object.keys(COMPANY_FILTERS));
const PERSON_FILTER_NAMES = ["firstName", "lastName", "jobTitle"] as const;

/** The order when no sort is sent: the service's default, news newest first. */
const defaultSort = (operation: PagedSignalOperation) => DEFAULT_SIGNAL_SORT[operation] ?? NEWS_ORDER;

/** What the signal routes are written with: the data, the time, a small answer cache, the credit charge, the route maker and the items. */
interface SignalTools {
  data: SignalData;
  now: () => number;
  day: () => number;
  remembered: <R>(key: string, make: () => R[]) => R[];
  allowedCompanies: (a: Attrs, account: string) => Set<number> | undefined;
  charged: (operation: SignalOperation, a: Attrs, account: string) => number[];
  route: <R>(operation: SignalOperation, select: (a: Attrs, sort: string, account: string) => Selection<R>) => void;
  items: ReturnType<typeof signalItems>;
}

function rememberer(): SignalTools["remembered"] {
  // The answer to the last few searches, so reading their pages one by one does not re-sort.
  const recent = new Map<string, unknown[]>();
  const remembered = <R>(key: string, make: () => R[]): R[] => {
    const hit = recent.get(key);
    if (hit) return hit as R[];
    const rows = make();
    if (recent.size >= 32) recent.delete(recent.keys().next().value as string);
    recent.set(key, rows);
    return rows;
  };

  return remembered;
}

function companyFilter(d: RouteDependencies): SignalTools["allowedCompanies"] {
  /** Company ids the company filters of a search allow (undefined: no company filter given). */
  const allowedCompanies = (a: Attrs, account: string): Set<number> | undefined => {
    const filters = Object.fromEntries(Object.entries(a).filter(([k]) => COMPANY_FILTER_NAMES.has(k))) as CompanySearchFilters;
    if (Object.keys(filters).length === 0) return undefined;
    const p = new SqlParams();
    const where = companyWhere(
      filters,
      p,
      { account, managedKind: "company", managedIdExpr: "c.id", managedSince: managementWindowStart(d.ctx.clock) },
      () => undefined,
    );
    return new Set((d.ctx.db.prepare(`SELECT c.id FROM companies c WHERE ${where}`).all(p.values) as { id: number }[]).map((r) => r.id));
  };

  return allowedCompanies;
}

function charger(d: RouteDependencies, data: SignalData): SignalTools["charged"] {
  /**
   * Intent, scoop and news enrich spend bulk-data credits: one per company new to that kind for
   * the account in 12 months (docs/signals.md). Credits that do not cover the new companies
   * refuse the whole request before anything is charged.
   */
  const charge = (operation: SignalOperation, account: string, companyIds: number[]): void => {
    const kind = SIGNAL_CREDIT_OPERATIONS[operation];
    if (!kind || companyIds.length === 0) return;
    const fresh = companyIds.filter((id) => d.ctx.credits.purchaseDate(account, kind, id) === undefined);
    if (fresh.length > d.ctx.credits.balance(account)) {
      throw new ApiError(
        400,
        ERROR_CODES.creditLimit,
        `The credit limit is reached: ${fresh.length} new ${fresh.length === 1 ? "company needs" : "companies need"} a credit each and ${d.ctx.credits.balance(account)} are left.`,
      );
    }
    d.ctx.credits.charge(account, kind, companyIds);
  };

  /** The companies an enrich input names (known ones only), charged for. */
  const charged = (operation: SignalOperation, a: Attrs, account: string): number[] => {
    const ids = [...new Set(companiesOfInput(a, data))];
    const known = ids.length === 0 ? [] : [...data.companies(ids).keys()];
    charge(operation, account, known);
    return ids;
  };

  return charged;
}

function signalRoute(app: FastifyInstance, d: RouteDependencies, data: SignalData): SignalTools["route"] {
  function route<R>(operation: SignalOperation, select: (a: Attrs, sort: string, account: string) => Selection<R>): void {
    const check = (body: unknown): ValidationIssue[] => validateSignalBody(operation, body);
    const schema: { body: TSchema; querystring?: TSchema } = { body: checkedBy(SIGNAL_REQUESTS[operation].schema, (body) => ({ issues: check(body) })) };
    const paged = operation === "technologiesEnrich" ? undefined : operation;
    if (paged) {
      schema.querystring = checkedBy(Type.Object(PageQuery.properties), (raw) => {
        const value = stringQuery(raw);
        return { issues: validateSignalQuery(value, paged), value };
      });
    }
    const path = SIGNAL_PATHS[operation];
    d.operations.serve<{ data: { attributes: Attrs } }, PageQuery | undefined, unknown>(app, { method: "POST", url: path, operation, schema, handle: respond });
    function respond({ principal, body, query }: OperationCall<{ data: { attributes: Attrs } }, PageQuery | undefined, unknown>): OperationAnswer {
      const q = query ?? {};
      const number = Number(q["page[number]"] ?? 1);
      const size = paged ? Number(q["page[size]"] ?? LIMITS.defaultPageSize) : LIMITS.maxPageSize * LIMITS.maxPageNumber;
      const sort = q.sort ?? (paged ? defaultSort(paged) : "");
      const selection = select(body.data.attributes, sort, principal.account);
      const pageRows = selection.rows.slice((number - 1) * size, number * size);
      const companies = data.companies([...new Set(pageRows.map((r) => selection.companyOf(r)))]);
      const items = pageRows.map((r) => selection.present(r, companies.get(selection.companyOf(r))));
      if (!paged) return answer({ data: items, meta: { totalResults: selection.rows.length } });
      const total = selection.rows.length;
      const totalPages = Math.ceil(total / size);
      return answer({
        data: items,
        meta: { totalResults: total, page: { number, total: totalPages } },
        links: pageLinks(path, { number, size, ...(q.sort !== undefined ? { sort: q.sort } : {}) }, totalPages),
      });
    }
  }

  return route;
}

function signalItems(data: SignalData, now: () => number) {
  const intentItem =
    (contacts: boolean, locations: boolean) =>
    (row: IntentRow, company: CompanyInfo | undefined): Item => ({
      id: `${row.companyId}-${row.topic.index}`,
      type: "Intent",
      attributes: intentAttributes(row, data, company, now(), { contacts, locations }),
    });
  const scoopItem = (row: ScoopRow, company: CompanyInfo | undefined): Item => ({
    id: row.id,
    type: "Scoop",
    attributes: scoopAttributes(row, data, company, now()),
  });
  const newsItem = (row: NewsRow, company: CompanyInfo | undefined): Item => ({
    id: `${row.companyId}-${row.n}`,
    type: "News",
    attributes: newsAttributes(row, company, now()),
  });
  return { intentItem, scoopItem, newsItem };
}

function intentAndScoopRoutes({ data, now, day, remembered, allowedCompanies, charged, route, items }: SignalTools): void {
  const { intentItem, scoopItem } = items;
  route<IntentRow>("intentSearch", (a, sort, account) => {
    const rows = remembered(`intent|${day()}|${sort}|${JSON.stringify(a)}`, () => {
      const allowed = allowedCompanies(a, account);
      const match = intentMatcher(a, now());
      return sorted(
        data.allIntents().filter((r) => (!allowed || allowed.has(r.companyId)) && match(r)),
        sort,
        INTENT_SORTS,
        (r) => r.topic.index,
      );
    });
    return { rows, companyOf: (r) => r.companyId, present: intentItem(a.findRecommendedContacts !== false, false) };
  });
  route<IntentRow>("intentEnrich", (a, sort, account) => {
    const match = intentMatcher(a, now());
    const rows = charged("intentEnrich", a, account).flatMap((id) => data.intentsOf(id).filter(match));
    return {
      rows: sorted(rows, sort, INTENT_SORTS, (r) => r.topic.index),
      companyOf: (r) => r.companyId,
      present: intentItem(a.findRecommendedContacts !== false, true),
    };
  });
  route<ScoopRow>("scoopSearch", (a, sort, account) => {
    const rows = remembered(`scoops|${day()}|${sort}|${JSON.stringify(a)}`, () => {
      const allowed = allowedCompanies(a, account);
      const match = scoopMatcher(a, now());
      const person = PERSON_FILTER_NAMES.filter((k) => typeof a[k] === "string").map((k) => [k, String(a[k]).toLowerCase()] as const);
      const byPerson = (r: ScoopRow) =>
        person.length === 0 ||
        pickedContacts(data.contactsOf(r.companyId), r.contactPicks).some((c) =>
          person.every(([k, v]) => (k === "firstName" ? c.first_name : k === "lastName" ? c.last_name : (c.job_title ?? "")).toLowerCase().includes(v)),
        );
      return sorted(
        data.allScoops().filter((r) => (!allowed || allowed.has(r.companyId)) && match(r) && byPerson(r)),
        sort,
        SCOOP_SORTS,
        (r) => Number(r.id),
      );
    });
    return { rows, companyOf: (r) => r.companyId, present: scoopItem };
  });
  route<ScoopRow>("scoopEnrich", (a, sort, account) => {
    const match = scoopMatcher(a, now());
    const rows = charged("scoopEnrich", a, account).flatMap((id) => data.scoopsOf(id).filter(match));
    return { rows: sorted(rows, sort, SCOOP_SORTS, (r) => Number(r.id)), companyOf: (r) => r.companyId, present: scoopItem };
  });
}

function newsAndTechnologyRoutes({ data, now, day, remembered, charged, route, items }: SignalTools): void {
  const { newsItem } = items;
  route<NewsRow>("newsSearch", (a, sort) => {
    const rows = remembered(`news|${day()}|${sort}|${JSON.stringify(a)}`, () => {
      const match = newsMatcher(a, now());
      const ids = typeof a.companyId === "string" ? new Set(a.companyId.split(",").map((s) => Number(s.trim()))) : undefined;
      const named = typeof a.companyName === "string" ? new Set(data.findCompanies({ name: a.companyName })) : undefined;
      return sorted(
        data.allNews().filter((r) => (!ids || ids.has(r.companyId)) && (!named || named.has(r.companyId)) && match(r)),
        sort,
        NEWS_SORTS,
        (r) => r.n,
      );
    });
    return { rows, companyOf: (r) => r.companyId, present: newsItem };
  });
  route<NewsRow>("newsEnrich", (a, sort, account) => {
    const match = newsMatcher(a, now());
    const rows = charged("newsEnrich", a, account).flatMap((id) => data.newsOf(id).filter(match));
    return { rows: sorted(rows, sort, NEWS_SORTS, (r) => r.n), companyOf: (r) => r.companyId, present: newsItem };
  });
  route<TechRow>("technologiesEnrich", (a) => {
    const rows = companiesOfInput(a, data).flatMap((companyId) => data.technologiesOf(companyId).map((t) => ({ companyId, t })));
    return {
      rows,
      companyOf: (r) => r.companyId,
      present: (r) => ({ id: `${r.companyId}-${r.t.tech.id}`, type: "Technology", attributes: technologyAttributes(r.t, now()) }),
    };
  });
}

export function signalRoutes(app: FastifyInstance, d: RouteDependencies): void {
  const data = createSignalData(d.ctx.db, d.ctx.options.seed);
  const now = () => d.ctx.clock.now();
  const tools: SignalTools = {
    data,
    now,
    day: () => Math.floor(now() / 86_400_000),
    remembered: rememberer(),
    allowedCompanies: companyFilter(d),
    charged: charger(d, data),
    route: signalRoute(app, d, data),
    items: signalItems(data, now),
  };
  intentAndScoopRoutes(tools);
  newsAndTechnologyRoutes(tools);
  hashtagRoutes(app, d);
}

/** Whether a lookup's name is a signal lookup's (served by the lookup operation, routes/lookupUsage.ts). */
export const isSignalLookup = (name: string): boolean => (SIGNAL_LOOKUPS as readonly string[]).includes(name);

/** A signal lookup's document, narrowed by its filters. */
export function signalLookupDocument(name: string, query: Record<string, string | undefined>) {
  const table = signalLookupRows(name)!;
  return { data: filterLookupRows(table.rows, query).map((r) => ({ id: r.id, type: table.type, attributes: { name: r.name, ...(r.extra ?? {}) } })) };
}
