// Company and contact enrichment: match each input, charge new records to the account's credits,
// answer one item per input in input order with only the requested fields.
import type Database from "better-sqlite3";
import type { FastifyInstance } from "fastify";
import { CompanyEnrichBody, ContactEnrichBody, EnrichResultDocument, PATHS, type MatchCompanyInput, type MatchPersonInput } from "../../core/contract/index.js";
import { companyMatchRules, personMatchRules } from "../match/index.js";
import { plainDomain } from "../match/normalize.js";
import { companyAttributes, contactAttributes } from "../records.js";
import type { RecordKind } from "../credits.js";
import type { RouteDependencies } from "../routeDependencies.js";
import { answer } from "./operations.js";

type Match = { id: number } | { status: "NO_MATCH" | "INVALID_INPUT" | "NON_MATCH_BY_REQUIRED_FIELDS"; warnings?: string[] };

const digits = (phone: string) => phone.replace(/\D/g, "");
/**
 * Fewest digits of a phone number that can identify a record (a local number; a stored number
 * may add a country or area code in front). "n/a" or "5" cannot, and must not match anything.
 */
const MIN_PHONE_DIGITS = 7;
/** The digits of a phone input when it can identify a record, else undefined. */
const phoneDigits = (phone: string) => {
  const d = digits(phone);
  return d.length >= MIN_PHONE_DIGITS ? d : undefined;
};
/** A zip code with no digit ("n/a", "none") names no place. */
const isZipCode = (zip: string) => /\d/.test(zip);

/** Finds companies by criteria (name, website, ticker, phone, address parts: docs/service.md, "Enrichment"). */
/** A matcher's by-id lookup, prepared once. */
function idLookup(db: Database.Database, table: "companies" | "contacts"): (id: number) => Match {
  const statement = db.prepare(`SELECT id FROM ${table} WHERE id = ?`);
  return (id) => {
    const row = statement.get(id) as { id: number } | undefined;
    return row ? { id: row.id } : { status: "NO_MATCH" };
  };
}

/** WHERE conditions and their parameters, collected in order. */
function conditions() {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (condition: string, ...values: unknown[]) => {
    where.push(condition);
    params.push(...values);
  };
  return { where, params, add };
}

function companyMatcher(db: Database.Database) {
  const cache = new Map<string, Database.Statement>();
  const byId = idLookup(db, "companies");
  return (input: MatchCompanyInput): Match => {
    if (input.companyId !== undefined) return byId(input.companyId);
    const { where, params, add } = conditions();
    if (input.companyName?.trim()) add("name = ? COLLATE NOCASE", input.companyName.trim());
    if (input.companyWebsite?.trim()) add("domain = ?", plainDomain(input.companyWebsite));
    if (input.companyTicker?.trim()) add("ticker = ?", input.companyTicker.trim().toUpperCase());
    if (input.companyPhone?.trim()) {
      const phone = phoneDigits(input.companyPhone);
      if (!phone) return { status: "INVALID_INPUT" };
      add("(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(phone,' ',''),'(',''),')',''),'-',''),'+',''),'.','') LIKE ?)", `%${phone}`);
    }
    if (input.companyZipCode?.trim() && !isZipCode(input.companyZipCode)) return { status: "INVALID_INPUT" };
    // Address parts narrow a match but cannot identify a company on their own.
    if (where.length === 0) return { status: "INVALID_INPUT" };
    if (input.companyStreet?.trim()) add("street LIKE ?", `%${input.companyStreet.trim()}%`);
    if (input.companyCity?.trim()) add("city = ? COLLATE NOCASE", input.companyCity.trim());
    if (input.companyState?.trim()) add("(state = ? COLLATE NOCASE OR state_code = ? COLLATE NOCASE)", input.companyState.trim(), input.companyState.trim());
    if (input.companyZipCode?.trim()) add("zip = ? COLLATE NOCASE", input.companyZipCode.trim());
    if (input.companyCountry?.trim())
      add("(country = ? COLLATE NOCASE OR country_code = ? COLLATE NOCASE)", input.companyCountry.trim(), input.companyCountry.trim());
    // The best match: the largest company with these details (a parent before its sub-units).
    const sql = `SELECT id FROM companies WHERE ${where.join(" AND ")} ORDER BY parent_id = 0 DESC, revenue DESC, id LIMIT 1`;
    let st = cache.get(sql);
    if (!st) cache.set(sql, (st = db.prepare(sql)));
    const row = st.get(...params) as { id: number } | undefined;
    return row ? { id: row.id } : { status: "NO_MATCH" };
  };
}

function contactMatcher(db: Database.Database) {
  const byId = idLookup(db, "contacts");
  return (input: MatchPersonInput): Match => {
    if (input.personId !== undefined) return byId(input.personId);
    const { where, params, add } = conditions();
    const first = input.firstName?.trim();
    const last = input.lastName?.trim();
    const full = input.fullName?.trim();
    const hasName = Boolean((first && last) || full);
    const hasCompany = input.companyId !== undefined || Boolean(input.companyName?.trim());
    if (input.emailAddress?.trim()) add("email = ? COLLATE NOCASE", input.emailAddress.trim());
    if (input.phone?.trim()) {
      const phone = phoneDigits(input.phone);
      if (!phone) return { status: "INVALID_INPUT" };
      add(
        "(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(phone,' ',''),'(',''),')',''),'-',''),'+','') LIKE ? OR REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(mobile_phone,' ',''),'(',''),')',''),'-',''),'+','') LIKE ?)",
        `%${phone}`,
        `%${phone}`,
      );
    }
    // A name identifies a person only together with the company.
    if (where.length === 0 && !(hasName && hasCompany)) return { status: "INVALID_INPUT" };
    if (first) add("first_name = ? COLLATE NOCASE", first);
    if (last) add("last_name = ? COLLATE NOCASE", last);
    if (full)
      add(
        "(first_name || ' ' || last_name = ? COLLATE NOCASE OR first_name || ' ' || COALESCE(middle_name || ' ', '') || last_name = ? COLLATE NOCASE)",
        full,
        full,
      );
    if (input.companyId !== undefined) add("company_id = ?", input.companyId);
    if (input.companyName?.trim()) add("company_name = ? COLLATE NOCASE", input.companyName.trim());
    if (input.jobTitle?.trim()) add("job_title LIKE ?", `%${input.jobTitle.trim()}%`);
    const row = db.prepare(`SELECT id FROM contacts WHERE ${where.join(" AND ")} ORDER BY accuracy DESC, id LIMIT 1`).get(...params) as
      { id: number } | undefined;
    return row ? { id: row.id } : { status: "NO_MATCH" };
  };
}

interface EnrichItem {
  id: string;
  type: string;
  attributes?: Record<string, unknown>;
  meta: { matchStatus: string; input: Record<string, unknown>; warnings?: string[] };
}

/** Charges the matched ids and builds the items in input order. */
function enrichItems(
  s: RouteDependencies,
  account: string,
  kind: RecordKind,
  inputs: Record<string, unknown>[],
  matches: Match[],
  attributesOf: (ids: number[]) => Map<number, Record<string, unknown>>,
): EnrichItem[] {
  const ids = [...new Set(matches.flatMap((m) => ("id" in m ? [m.id] : [])))];
  const { refused } = s.ctx.credits.charge(account, kind, ids);
  const refusedSet = new Set(refused);
  const attributes = attributesOf(ids.filter((id) => !refusedSet.has(id)));
  const type = kind === "company" ? "Company" : "Contact";
  return inputs.map((input, i) => {
    const m = matches[i]!;
    if (!("id" in m)) return { id: "0", type: "NoMatch", meta: { matchStatus: m.status, input, ...(m.warnings ? { warnings: m.warnings } : {}) } };
    if (refusedSet.has(m.id)) return { id: "0", type: "NoMatch", meta: { matchStatus: "LIMIT_EXCEEDED", input } };
    return { id: String(m.id), type, attributes: attributes.get(m.id) ?? {}, meta: { matchStatus: "FULL_MATCH", input } };
  });
}

/** The enrichment's matchers (rules, then the route's own): how an audience job matches a row's criteria too. */
export function recordMatchers(db: Database.Database): { company: (input: MatchCompanyInput) => Match; contact: (input: MatchPersonInput) => Match } {
  return { company: companyMatchRules(db, companyMatcher(db)), contact: personMatchRules(db, contactMatcher(db)) };
}

export async function enrichRoutes(app: FastifyInstance, s: RouteDependencies): Promise<void> {
  const matchCompany = companyMatchRules(s.ctx.db, companyMatcher(s.ctx.db));
  const matchContact = personMatchRules(s.ctx.db, contactMatcher(s.ctx.db));

  s.operations.serve<CompanyEnrichBody, unknown, unknown>(app, {
    method: "POST",
    url: PATHS.enrichCompanies,
    operation: "enrichCompanies",
    schema: { body: CompanyEnrichBody, response: { 200: EnrichResultDocument } },
    handle({ principal, body }) {
      const { matchCompanyInput, outputFields } = body.data.attributes;
      const matches = matchCompanyInput.map(matchCompany);
      const data = enrichItems(s, principal.account, "company", matchCompanyInput, matches, (ids) => {
        const out = new Map<number, Record<string, unknown>>();
        for (const [id, row] of s.records.companyRows(ids)) out.set(id, companyAttributes(row, outputFields, s.records));
        return out;
      });
      return answer({ data });
    },
  });

  s.operations.serve<ContactEnrichBody, unknown, unknown>(app, {
    method: "POST",
    url: PATHS.enrichContacts,
    operation: "enrichContacts",
    schema: { body: ContactEnrichBody, response: { 200: EnrichResultDocument } },
    handle({ principal, body }) {
      const { matchPersonInput, outputFields, requiredFields } = body.data.attributes;
      let matches = matchPersonInput.map(matchContact);
      if (requiredFields?.length) {
        // A contact lacking a required field is not a match (and costs nothing).
        const found = matches.flatMap((m) => ("id" in m ? [m.id] : []));
        const rows = s.records.contactRows(found);
        matches = matches.map((m) => {
          if (!("id" in m)) return m;
          const attrs = contactAttributes(rows.get(m.id)!, requiredFields);
          const nested = (attrs.company ?? {}) as Record<string, unknown>;
          const complete = requiredFields.every((f) => f in attrs || (f === "companyId" && "id" in nested) || (f === "companyName" && "name" in nested));
          return complete ? m : { status: "NON_MATCH_BY_REQUIRED_FIELDS" };
        });
      }
      const data = enrichItems(s, principal.account, "contact", matchPersonInput, matches, (ids) => {
        const out = new Map<number, Record<string, unknown>>();
        for (const [id, row] of s.records.contactRows(ids)) out.set(id, contactAttributes(row, outputFields));
        return out;
      });
      return answer({ data });
    },
  });
}
