// What the seeding steps share: the random stream, the sizes, the statements that write the
// tables, and what earlier companies leave for later ones (parents, names, domains, tickers).
import type Database from "better-sqlite3";
import { CITIES, cityZips, type City, type ZipPoint } from "./places.js";
import { Random } from "./random.js";
import { SPECIAL_COMPANIES } from "./specialRecords.js";

export interface SeedSize {
  seed: number;
  companies: number;
  contacts: number;
}

/** Seeded dates are relative to this day, so a seed gives the same data on any day. */
const REFERENCE_DATE = "2026-06-30";
const REFERENCE_MS = Date.parse(`${REFERENCE_DATE}T00:00:00Z`);
const DAY_MS = 86_400_000;

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
export function daysBefore(days: number): string {
  return isoDay(REFERENCE_MS - days * DAY_MS);
}
export function phoneNumber(city: City, r: Random): string {
  return `${city.phonePrefix} 555-${String(r.int(100, 9999)).padStart(4, "0")}`;
}

/** What a contact needs of its company. */
export interface CompanyBrief {
  name: string;
  domain: string;
  city: number;
  zip: string;
  lat: number;
  lon: number;
  employees: number;
}

export interface SeedStatements {
  company: Database.Statement;
  texts: Database.Statement;
  tag: Database.Statement;
  round: Database.Statement;
  engagement: Database.Statement;
  zip: Database.Statement;
  contact: Database.Statement;
  contactCount: Database.Statement;
}

function prepareStatements(db: Database.Database): SeedStatements {
  return {
    company: db.prepare(
      `INSERT INTO companies (id, name, website, domain, ticker, type, parent_id, ultimate_parent_id,
      sub_unit_type, business_model, certified, status, is_defunct, street, city, state, state_code, zip, country,
      country_code, continent, metro, lat, lon, phone, fax, primary_industry, industries, industry_text, revenue,
      revenue_range, employees, employee_range, growth1, growth2, budget_marketing, budget_finance, budget_it,
      budget_hr, total_funding, recent_funding_amount, recent_funding_date, recent_funding_type, founded_year,
      site_rank, location_count, logo, last_updated)
     VALUES (${new Array(48).fill("?").join(",")})`,
    ),
    texts: db.prepare("INSERT INTO company_texts (id, description, details) VALUES (?, ?, ?)"),
    tag: db.prepare("INSERT OR IGNORE INTO company_tags (company_id, kind, value) VALUES (?, ?, ?)"),
    round: db.prepare("INSERT INTO funding_rounds (company_id, date, type, amount, investors) VALUES (?, ?, ?, ?, ?)"),
    engagement: db.prepare("INSERT INTO engagements (company_id, date, type) VALUES (?, ?, ?)"),
    zip: db.prepare("INSERT OR IGNORE INTO zips (zip, lat, lon) VALUES (?, ?, ?)"),
    contact: db.prepare(
      `INSERT INTO contacts (id, company_id, company_name, first_name, middle_name, last_name, job_title,
      management_level, department, job_function, email, phone, mobile_phone, direct_dnc, mobile_dnc, accuracy,
      last_updated, valid_date, city, state, state_code, zip, country, country_code, metro, lat, lon, relevance)
     VALUES (${new Array(28).fill("?").join(",")})`,
    ),
    contactCount: db.prepare("UPDATE companies SET contacts_count = ? WHERE id = ?"),
  };
}

export interface SeedContext {
  r: Random;
  size: SeedSize;
  insert: SeedStatements;
  cityWeights: number[];
  cityZipList: ZipPoint[][];
  /** Names of the companies tests rely on, by id. */
  special: Map<number, string>;
  /** Companies seeded so far, by id - 1. */
  briefs: CompanyBrief[];
  /** Each company's ultimate parent (0: none) and type, by id. */
  ultimateOf: Int32Array;
  typeOf: (string | null)[];
  domains: Set<string>;
  tickers: Set<string>;
}

export function seedContext(db: Database.Database, size: SeedSize): SeedContext {
  return {
    r: new Random(size.seed),
    size,
    insert: prepareStatements(db),
    cityWeights: CITIES.map((c) => c.weight),
    cityZipList: CITIES.map(cityZips),
    special: new Map(SPECIAL_COMPANIES.map((s) => [s.id, s.name])),
    briefs: new Array(size.companies),
    ultimateOf: new Int32Array(size.companies + 1),
    typeOf: new Array(size.companies + 1),
    domains: new Set<string>(),
    tickers: new Set<string>(),
  };
}

/** A city drawn by weight, as an index into CITIES. */
export function weightedCity(ctx: SeedContext): number {
  return CITIES.indexOf(ctx.r.weighted(CITIES, ctx.cityWeights));
}
