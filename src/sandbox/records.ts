// Seeded rows as API attributes: enrichment output (only requested fields, empty ones omitted)
// and the shorter search items.
import type Database from "better-sqlite3";
import type { RecordStore } from "./context.js";
import { rowsOfIds } from "./store/rowsOfIds.js";
import { METROS } from "./data/places.js";
import { COMPANY_TYPE_NAMES, EMPLOYEE_RANGES, FUNDING_ROUND_TYPES, INDUSTRY_BY_ID, REVENUE_RANGES } from "./data/reference.js";

export interface CompanyRow {
  id: number;
  name: string;
  website: string | null;
  domain: string | null;
  description: string | null;
  ticker: string | null;
  type: string | null;
  parent_id: number;
  ultimate_parent_id: number;
  sub_unit_type: string | null;
  business_model: string | null;
  certified: number;
  status: string;
  is_defunct: number;
  street: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
  continent: string | null;
  metro: string | null;
  phone: string | null;
  fax: string | null;
  primary_industry: string | null;
  industries: string | null;
  revenue: number;
  revenue_range: string | null;
  employees: number;
  employee_range: string | null;
  growth1: number | null;
  growth2: number | null;
  contacts_count: number;
  budget_marketing: number | null;
  budget_finance: number | null;
  budget_it: number | null;
  budget_hr: number | null;
  total_funding: number;
  recent_funding_amount: number | null;
  recent_funding_date: string | null;
  founded_year: number | null;
  site_rank: number | null;
  location_count: number | null;
  logo: string | null;
  last_updated: string | null;
  details: string | null;
}

export interface ContactRow {
  id: number;
  company_id: number;
  company_name: string;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  job_title: string | null;
  management_level: string | null;
  department: string | null;
  job_function: string | null;
  email: string | null;
  phone: string | null;
  mobile_phone: string | null;
  direct_dnc: number;
  mobile_dnc: number;
  accuracy: number;
  last_updated: string | null;
  valid_date: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
}

interface CompanyDetails {
  social?: unknown[];
  products?: string[];
  competitors?: number[];
  domainList?: string[];
  departmentEmployees?: Record<string, number>;
  growthPoints?: unknown[];
  tech?: string[];
  hashtags?: string[];
  businessModels?: string[];
}

const METRO_NAME = new Map(METROS.map((m) => [m.id, m.name]));
const FUNDING_NAME = new Map(FUNDING_ROUND_TYPES.map((f) => [f.id, f.name]));
const list = (text: string | null) => (text ? text.split(",").filter(Boolean) : []);

/** True when a value counts as "without value" (omitted from output). */
function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0);
}

export interface Lookups {
  companyNames(ids: number[]): Map<number, string>;
  fundingRounds(id: number): { date: string; type: string; amount: number; investors: string }[];
}

/** Fields that are one column of the row, as stored. */
const COLUMN_FIELDS: Record<string, keyof CompanyRow> = {
  id: "id",
  name: "name",
  ticker: "ticker",
  website: "website",
  revenue: "revenue",
  numberOfContactsInService: "contacts_count",
  country: "country",
  continent: "continent",
  companyStatus: "status",
  siteRank: "site_rank",
  parentId: "parent_id",
  locationCount: "location_count",
  city: "city",
  state: "state",
  street: "street",
  zipCode: "zip",
  phone: "phone",
  fax: "fax",
  description: "description",
  employeeCount: "employees",
  logo: "logo",
  recentFundingAmount: "recent_funding_amount",
  recentFundingDate: "recent_funding_date",
  ultimateParentId: "ultimate_parent_id",
  lastUpdatedDate: "last_updated",
};

/** Fields that are one entry of the details document, as stored. */
const DETAIL_FIELDS: Record<string, keyof CompanyDetails> = {
  socialMediaUrls: "social",
  hashtags: "hashtags",
  products: "products",
  domainList: "domainList",
  employeeCountByDepartment: "departmentEmployees",
};

type FieldReader = (row: CompanyRow, details: CompanyDetails, lookups: Lookups) => unknown;

const industryNames = (ids: string[]) => ids.map((i) => INDUSTRY_BY_ID.get(i)?.name ?? i);
const nameOf = (id: number, lookups: Lookups) => (id ? lookups.companyNames([id]).get(id) : undefined);

/** Fields read through the reference data (names of codes and ranges) or other records. */
const DERIVED_FIELDS: Record<string, FieldReader> = {
  certified: (row) => row.certified === 1,
  isDefunct: (row) => row.is_defunct === 1,
  employeeRange: (row) => EMPLOYEE_RANGES.find((b) => b.id === row.employee_range)?.name,
  revenueRange: (row) => REVENUE_RANGES.find((b) => b.id === row.revenue_range)?.name,
  employeeGrowth: (row, details) => ({ oneYearGrowthRate: row.growth1, twoYearGrowthRate: row.growth2, employeeGrowthDataPoints: details.growthPoints ?? [] }),
  parentName: (row, _details, lookups) => nameOf(row.parent_id, lookups),
  ultimateParentName: (row, _details, lookups) => nameOf(row.ultimate_parent_id, lookups),
  foundedYear: (row) => (row.founded_year === null ? undefined : String(row.founded_year)),
  industries: (row) => industryNames(list(row.industries)),
  primaryIndustry: (row) => (row.primary_industry ? industryNames([row.primary_industry]) : []),
  industryCodes: (row) => list(row.industries),
  sicCodes: (row) =>
    list(row.industries)
      .map((i) => INDUSTRY_BY_ID.get(i)?.sic)
      .filter(Boolean),
  naicsCodes: (row) =>
    list(row.industries)
      .map((i) => INDUSTRY_BY_ID.get(i)?.naics)
      .filter(Boolean),
  type: (row) => (row.type ? COMPANY_TYPE_NAMES[row.type] : undefined),
  businessModel: (row) => list(row.business_model),
  companyFunding: (row, _details, lookups) =>
    lookups.fundingRounds(row.id).map((f) => ({
      date: f.date,
      type: FUNDING_NAME.get(f.type) ?? f.type,
      amount: f.amount,
      investors: f.investors ? f.investors.split(", ") : [],
    })),
  totalFundingAmount: (row) => row.total_funding || undefined,
  metroArea: (row) => (row.metro ? METRO_NAME.get(row.metro) : undefined),
  competitors: (_row, details, lookups) => {
    const ids = details.competitors ?? [];
    const names = lookups.companyNames(ids);
    return ids.map((id) => names.get(id)).filter(Boolean);
  },
  departmentBudgets: (row) => ({ marketing: row.budget_marketing, finance: row.budget_finance, it: row.budget_it, hr: row.budget_hr }),
};

function companyField(row: CompanyRow, field: string, details: CompanyDetails, lookups: Lookups): unknown {
  if (Object.hasOwn(COLUMN_FIELDS, field)) return row[COLUMN_FIELDS[field]!];
  if (Object.hasOwn(DETAIL_FIELDS, field)) return details[DETAIL_FIELDS[field]!];
  if (Object.hasOwn(DERIVED_FIELDS, field)) return DERIVED_FIELDS[field]!(row, details, lookups);
  return undefined;
}

export function companyAttributes(row: CompanyRow, fields: string[], lookups: Lookups): Record<string, unknown> {
  const details = JSON.parse(row.details ?? "{}") as CompanyDetails;
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = companyField(row, field, details, lookups);
    if (!isEmpty(value)) out[field] = value;
  }
  return out;
}

export function contactAttributes(row: ContactRow, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const company: Record<string, unknown> = {};
  for (const field of fields) {
    let value: unknown;
    switch (field) {
      case "id":
        value = row.id;
        break;
      case "firstName":
        value = row.first_name;
        break;
      case "middleName":
        value = row.middle_name;
        break;
      case "lastName":
        value = row.last_name;
        break;
      case "jobTitle":
        value = row.job_title;
        break;
      case "email":
        value = row.email;
        break;
      case "phone":
        value = row.phone;
        break;
      case "mobilePhone":
        value = row.mobile_phone;
        break;
      case "directPhoneDoNotCall":
        value = row.direct_dnc === 1;
        break;
      case "mobilePhoneDoNotCall":
        value = row.mobile_dnc === 1;
        break;
      case "managementLevel":
        value = row.management_level ? [row.management_level] : [];
        break;
      case "jobFunction":
        value = row.job_function ? [row.job_function] : [];
        break;
      case "city":
        value = row.city;
        break;
      case "state":
        value = row.state;
        break;
      case "country":
        value = row.country;
        break;
      case "contactAccuracyScore":
        value = row.accuracy;
        break;
      case "lastUpdatedDate":
        value = row.last_updated;
        break;
      case "validDate":
        value = row.valid_date;
        break;
      case "companyId":
        company.id = row.company_id;
        continue;
      case "companyName":
        company.name = row.company_name;
        continue;
      default:
        continue;
    }
    if (!isEmpty(value)) out[field] = value;
  }
  if (Object.keys(company).length > 0) out.company = company;
  return out;
}

/** Company attributes of a search result item (docs/service.md, "Records"); numbers as strings, as the service sends them. */
export function companySearchAttributes(
  row: Pick<CompanyRow, "name" | "city" | "state" | "country" | "revenue" | "employees" | "website" | "logo">,
): Record<string, unknown> {
  const out: Record<string, unknown> = { name: row.name };
  if (row.city) out.city = row.city;
  if (row.state) out.state = row.state;
  if (row.country) out.country = row.country;
  out.revenue = String(row.revenue);
  out.employeeCount = String(row.employees);
  if (row.website) out.website = row.website;
  if (row.logo) out.logo = row.logo;
  return out;
}

export function contactSearchAttributes(row: ContactRow): Record<string, unknown> {
  const out: Record<string, unknown> = {
    company: { id: row.company_id, name: row.company_name },
    contactAccuracyScore: row.accuracy,
    directPhoneDoNotCall: row.direct_dnc === 1,
    mobilePhoneDoNotCall: row.mobile_dnc === 1,
    firstName: row.first_name,
  };
  if (row.middle_name) out.middleName = row.middle_name;
  out.lastName = row.last_name;
  if (row.job_title) out.jobTitle = row.job_title;
  if (row.last_updated) out.lastUpdatedDate = row.last_updated;
  if (row.valid_date) out.validDate = row.valid_date;
  return out;
}

export interface SandboxRecordStore extends RecordStore, Lookups {
  companyRows(ids: number[]): Map<number, CompanyRow>;
  contactRows(ids: number[]): Map<number, ContactRow>;
}

export function createRecordStore(db: Database.Database): SandboxRecordStore {
  const companiesById = db.prepare(
    "SELECT c.*, t.description, t.details FROM companies c LEFT JOIN company_texts t ON t.id = c.id WHERE c.id IN (SELECT value FROM json_each(?))",
  );
  const contactsById = db.prepare("SELECT * FROM contacts WHERE id IN (SELECT value FROM json_each(?))");
  const namesById = db.prepare("SELECT id, name FROM companies WHERE id IN (SELECT value FROM json_each(?))");
  const roundsOf = db.prepare("SELECT date, type, amount, investors FROM funding_rounds WHERE company_id = ? ORDER BY date");
  const countCompanies = db.prepare("SELECT COUNT(*) AS n FROM companies");
  const countContacts = db.prepare("SELECT COUNT(*) AS n FROM contacts");
  let companyTotal: number | undefined;
  let contactTotal: number | undefined;

  const store: SandboxRecordStore = {
    companyRows: (ids) => rowsOfIds<CompanyRow>(companiesById, ids),
    contactRows: (ids) => rowsOfIds<ContactRow>(contactsById, ids),
    companyNames: (ids) => new Map([...rowsOfIds<{ id: number; name: string }>(namesById, ids)].map(([id, row]) => [id, row.name])),
    fundingRounds: (id) => roundsOf.all(id) as { date: string; type: string; amount: number; investors: string }[],
    companyAttributes(ids, fields) {
      const out = new Map<number, Record<string, unknown>>();
      for (const [id, row] of store.companyRows(ids)) out.set(id, companyAttributes(row, fields, store));
      return out;
    },
    contactAttributes(ids, fields) {
      const out = new Map<number, Record<string, unknown>>();
      for (const [id, row] of store.contactRows(ids)) out.set(id, contactAttributes(row, fields));
      return out;
    },
    companyCount: () => (companyTotal ??= (countCompanies.get() as { n: number }).n),
    contactCount: () => (contactTotal ??= (countContacts.get() as { n: number }).n),
  };
  return store;
}
