// The sandbox's SQLite schema. Seeded records live in companies/contacts (+ tag, funding and
// engagement tables for list filters); accounts, management and usage are what clients change.
import type Database from "better-sqlite3";

export const SCHEMA_VERSION = "8";

export const CREATE_TABLES = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS companies (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  website TEXT, domain TEXT, ticker TEXT, type TEXT,
  parent_id INTEGER NOT NULL DEFAULT 0, ultimate_parent_id INTEGER NOT NULL DEFAULT 0, sub_unit_type TEXT,
  business_model TEXT, certified INTEGER NOT NULL, status TEXT NOT NULL, is_defunct INTEGER NOT NULL,
  street TEXT, city TEXT, state TEXT, state_code TEXT, zip TEXT, country TEXT, country_code TEXT,
  continent TEXT, metro TEXT, lat REAL, lon REAL, phone TEXT, fax TEXT,
  primary_industry TEXT, industries TEXT, industry_text TEXT,
  revenue INTEGER NOT NULL, revenue_range TEXT, employees INTEGER NOT NULL, employee_range TEXT,
  growth1 REAL, growth2 REAL, contacts_count INTEGER NOT NULL DEFAULT 0,
  budget_marketing INTEGER, budget_finance INTEGER, budget_it INTEGER, budget_hr INTEGER,
  total_funding INTEGER NOT NULL DEFAULT 0, recent_funding_amount INTEGER, recent_funding_date TEXT,
  recent_funding_type TEXT, founded_year INTEGER, site_rank INTEGER, location_count INTEGER,
  logo TEXT, last_updated TEXT
);
-- The long texts live apart, so searches scan and count narrow rows.
CREATE TABLE IF NOT EXISTS company_texts (id INTEGER PRIMARY KEY, description TEXT, details TEXT);
-- Keyed by company first (is this company tagged so?) with an index by tag (which companies?).
CREATE TABLE IF NOT EXISTS company_tags (company_id INTEGER NOT NULL, kind TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (company_id, kind, value)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS funding_rounds (company_id INTEGER NOT NULL, date TEXT NOT NULL, type TEXT NOT NULL, amount INTEGER NOT NULL, investors TEXT);
CREATE TABLE IF NOT EXISTS engagements (company_id INTEGER NOT NULL, date TEXT NOT NULL, type TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS zips (zip TEXT PRIMARY KEY, lat REAL NOT NULL, lon REAL NOT NULL);
CREATE TABLE IF NOT EXISTS contacts (
  id INTEGER PRIMARY KEY,
  company_id INTEGER NOT NULL, company_name TEXT NOT NULL,
  first_name TEXT NOT NULL, middle_name TEXT, last_name TEXT NOT NULL, job_title TEXT,
  management_level TEXT, department TEXT, job_function TEXT,
  email TEXT, phone TEXT, mobile_phone TEXT, direct_dnc INTEGER NOT NULL, mobile_dnc INTEGER NOT NULL,
  accuracy INTEGER NOT NULL, last_updated TEXT, valid_date TEXT,
  city TEXT, state TEXT, state_code TEXT, zip TEXT, country TEXT, country_code TEXT, metro TEXT,
  lat REAL, lon REAL, relevance INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS accounts (id TEXT PRIMARY KEY, credits INTEGER NOT NULL, initial_credits INTEGER NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS managed (
  account TEXT NOT NULL, kind TEXT NOT NULL, record_id INTEGER NOT NULL, purchased_at TEXT NOT NULL,
  PRIMARY KEY (account, kind, record_id)
);
-- One row per charged record; free re-enrichments of one call share a row (ids: their ids,
-- comma-separated; record_id 0), so repeated enrichment does not grow the file per record.
-- n: the entries a row stands for, for paging.
CREATE TABLE IF NOT EXISTS ledger (seq INTEGER PRIMARY KEY, account TEXT NOT NULL, kind TEXT NOT NULL, record_id INTEGER NOT NULL, charged INTEGER NOT NULL, at TEXT NOT NULL, ids TEXT, n INTEGER NOT NULL DEFAULT 1);
CREATE INDEX IF NOT EXISTS ledger_account ON ledger (account, seq);
CREATE TABLE IF NOT EXISTS usage (account TEXT NOT NULL, day TEXT NOT NULL, requests INTEGER NOT NULL, PRIMARY KEY (account, day));
`;

/** Indexes on seeded data, built after the bulk insert (much faster than during it). */
export const CREATE_DATA_INDEXES = `
CREATE INDEX IF NOT EXISTS companies_revenue ON companies (revenue);
-- The columns most searches filter on, so a count over a broad filter reads this narrow index
-- instead of the table.
CREATE INDEX IF NOT EXISTS companies_common_filters ON companies (country_code, state, employees, revenue, certified, is_defunct, type);
CREATE INDEX IF NOT EXISTS companies_employees ON companies (employees);
CREATE INDEX IF NOT EXISTS companies_name ON companies (name COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS companies_parent ON companies (parent_id);
CREATE INDEX IF NOT EXISTS companies_ultimate ON companies (ultimate_parent_id);
CREATE INDEX IF NOT EXISTS companies_state ON companies (state);
CREATE INDEX IF NOT EXISTS companies_country ON companies (country_code);
CREATE INDEX IF NOT EXISTS companies_metro ON companies (metro);
CREATE INDEX IF NOT EXISTS companies_zip ON companies (zip);
CREATE INDEX IF NOT EXISTS companies_lat_lon ON companies (lat, lon);
CREATE INDEX IF NOT EXISTS companies_domain ON companies (domain);
CREATE INDEX IF NOT EXISTS companies_ticker ON companies (ticker);
CREATE INDEX IF NOT EXISTS companies_primary_industry ON companies (primary_industry);
CREATE INDEX IF NOT EXISTS companies_recent_funding ON companies (recent_funding_type);
CREATE INDEX IF NOT EXISTS company_tags_lookup ON company_tags (kind, value, company_id);
CREATE INDEX IF NOT EXISTS funding_rounds_company ON funding_rounds (company_id, date);
CREATE INDEX IF NOT EXISTS funding_rounds_date ON funding_rounds (date);
CREATE INDEX IF NOT EXISTS engagements_company ON engagements (company_id, date);
CREATE INDEX IF NOT EXISTS contacts_company ON contacts (company_id);
CREATE INDEX IF NOT EXISTS contacts_relevance ON contacts (relevance);
CREATE INDEX IF NOT EXISTS contacts_accuracy ON contacts (accuracy);
CREATE INDEX IF NOT EXISTS contacts_last_name ON contacts (last_name COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS contacts_company_name ON contacts (company_name COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS contacts_email ON contacts (email);
`;

export function createTables(db: Database.Database): void {
  db.exec(CREATE_TABLES);
}

/** Earth distance in miles between two points (registered as an SQL function). */
export function haversineMiles(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 3958.8 * 2 * Math.asin(Math.min(1, Math.sqrt(a)));
}
