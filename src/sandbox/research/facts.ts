// What research reads of the sandbox's own data: a company's firmographics, description and
// competitors, a contact's role, and a compact in-memory profile of every company and contact
// for the similarity searches (built on first use; the seeded data does not change).
import type Database from "better-sqlite3";
import { EMPLOYEE_RANGES, INDUSTRY_BY_ID, REVENUE_RANGES } from "../data/reference.js";
import { rowsOfIds } from "../store/rowsOfIds.js";
import type { CompanyInfo } from "../signals/generate.js";
import type { CompanyRow, ContactRow } from "../records.js";

/** A company's name and place (the signals' CompanyInfo) and what research says of it. */
export interface CompanyFacts extends CompanyInfo {
  /** The primary industry's name ("" when none). */
  industry: string;
  industries: string[];
  /** Thousands of U.S. dollars. */
  revenue: number;
  revenueRange: string;
  employees: number;
  employeeRange: string;
  foundedYear: number | null;
  ticker: string | null;
  description: string | null;
  competitorIds: number[];
  totalFunding: number;
}

export interface ContactFacts {
  id: number;
  companyId: number;
  companyName: string;
  firstName: string;
  lastName: string;
  jobTitle: string;
  managementLevel: string;
  department: string;
  jobFunction: string;
  city: string | null;
  country: string | null;
  accuracy: number;
}

/** One company as the lookalike search compares it. */
export interface CompanyProfile {
  id: number;
  name: string;
  industry: string;
  industries: readonly string[];
  revenue: number;
  revenueRange: string;
  employees: number;
  employeeRange: string;
  country: string;
}

/** The columns research reads of a company row (COMPANY_COLUMNS). */
type CompanySql = Pick<
  CompanyRow,
  | "id"
  | "name"
  | "website"
  | "domain"
  | "city"
  | "state"
  | "country"
  | "primary_industry"
  | "industries"
  | "revenue"
  | "revenue_range"
  | "employees"
  | "employee_range"
  | "founded_year"
  | "ticker"
  | "total_funding"
>;
/** The columns research reads of a contact row (CONTACT_COLUMNS). */
type ContactSql = Pick<
  ContactRow,
  | "id"
  | "company_id"
  | "company_name"
  | "first_name"
  | "last_name"
  | "job_title"
  | "management_level"
  | "department"
  | "job_function"
  | "city"
  | "country"
  | "accuracy"
>;

const COMPANY_COLUMNS =
  "id, name, website, domain, city, state, country, primary_industry, industries, revenue, revenue_range, employees, employee_range, founded_year, ticker, total_funding";
const CONTACT_COLUMNS = "id, company_id, company_name, first_name, last_name, job_title, management_level, department, job_function, city, country, accuracy";

const industryName = (id: string | null | undefined) => (id ? (INDUSTRY_BY_ID.get(id)?.name ?? id) : "");
const rangeName = (table: typeof EMPLOYEE_RANGES, id: string | null) => table.find((b) => b.id === id)?.name ?? "";
const list = (value: string | null) => (value ? value.split(",").filter(Boolean) : []);

function profileOf(row: CompanySql): CompanyProfile {
  return {
    id: row.id,
    name: row.name,
    industry: industryName(row.primary_industry),
    industries: list(row.industries),
    revenue: row.revenue,
    revenueRange: rangeName(REVENUE_RANGES, row.revenue_range),
    employees: row.employees,
    employeeRange: rangeName(EMPLOYEE_RANGES, row.employee_range),
    country: row.country ?? "",
  };
}

function contactOf(row: ContactSql): ContactFacts {
  return {
    id: row.id,
    companyId: row.company_id,
    companyName: row.company_name,
    firstName: row.first_name,
    lastName: row.last_name,
    jobTitle: row.job_title ?? "",
    managementLevel: row.management_level ?? "",
    department: row.department ?? "",
    jobFunction: row.job_function ?? "",
    city: row.city,
    country: row.country,
    accuracy: row.accuracy,
  };
}

export interface ResearchFacts {
  company(id: number): CompanyFacts | undefined;
  companies(ids: number[]): Map<number, CompanyFacts>;
  /** The company a name names: an exact match (any case) first, else the first whose name starts so, else contains it. */
  companyNamed(name: string): number | undefined;
  contact(id: number): ContactFacts | undefined;
  contactsOf(companyId: number): ContactFacts[];
  allCompanies(): readonly CompanyProfile[];
  allContacts(): readonly ContactFacts[];
}

export function createResearchFacts(db: Database.Database): ResearchFacts {
  const companyRow = db.prepare(`SELECT ${COMPANY_COLUMNS} FROM companies WHERE id = ?`);
  const companyRows = db.prepare(`SELECT ${COMPANY_COLUMNS} FROM companies WHERE id IN (SELECT value FROM json_each(?))`);
  const texts = db.prepare("SELECT description, details FROM company_texts WHERE id = ?");
  const exact = db.prepare("SELECT id FROM companies WHERE name = ? COLLATE NOCASE ORDER BY id LIMIT 1");
  const like = db.prepare("SELECT id FROM companies WHERE name LIKE ? ESCAPE '\\' ORDER BY length(name), id LIMIT 1");
  const contactRow = db.prepare(`SELECT ${CONTACT_COLUMNS} FROM contacts WHERE id = ?`);
  const contactsOf = db.prepare(`SELECT ${CONTACT_COLUMNS} FROM contacts WHERE company_id = ? ORDER BY id`);
  const allCompanies = db.prepare(`SELECT ${COMPANY_COLUMNS} FROM companies ORDER BY id`);
  const allContacts = db.prepare(`SELECT ${CONTACT_COLUMNS} FROM contacts ORDER BY id`);
  let companyProfiles: CompanyProfile[] | undefined;
  let contactProfiles: ContactFacts[] | undefined;

  const factsOf = (row: CompanySql): CompanyFacts => {
    const text = texts.get(row.id) as { description: string | null; details: string | null } | undefined;
    const details = text?.details ? (JSON.parse(text.details) as { competitors?: number[] }) : {};
    const profile = profileOf(row);
    return {
      ...profile,
      website: row.website,
      domain: row.domain,
      city: row.city,
      state: row.state,
      country: row.country,
      industries: profile.industries.map(industryName),
      foundedYear: row.founded_year,
      ticker: row.ticker,
      description: text?.description ?? null,
      competitorIds: details.competitors ?? [],
      totalFunding: row.total_funding,
    };
  };
  const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return {
    company(id) {
      const row = companyRow.get(id) as CompanySql | undefined;
      return row ? factsOf(row) : undefined;
    },
    companies(ids) {
      const rows = rowsOfIds<CompanySql>(companyRows, ids);
      return new Map([...rows].map(([id, row]) => [id, factsOf(row)]));
    },
    companyNamed(name) {
      const wanted = name.trim();
      const hit = (exact.get(wanted) ?? like.get(`${escapeLike(wanted)}%`) ?? like.get(`%${escapeLike(wanted)}%`)) as { id: number } | undefined;
      return hit?.id;
    },
    contact(id) {
      const row = contactRow.get(id) as ContactSql | undefined;
      return row ? contactOf(row) : undefined;
    },
    contactsOf: (companyId) => (contactsOf.all(companyId) as ContactSql[]).map(contactOf),
    allCompanies: () => (companyProfiles ??= (allCompanies.all() as CompanySql[]).map(profileOf)),
    allContacts: () => (contactProfiles ??= (allContacts.all() as ContactSql[]).map(contactOf)),
  };
}
