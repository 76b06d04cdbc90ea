// Lookup values (docs/service.md, "Lookup"), served from the same tables the seeded records use.
import { LOOKUP_FIELDS, MANAGEMENT_LEVELS, SUB_UNIT_TYPES, type LookupItem } from "../core/contract/index.js";
import { CITIES, CONTINENTS, COUNTRIES, METROS } from "./data/places.js";
import {
  COMPANY_TYPE_NAMES,
  DEPARTMENTS,
  EMPLOYEE_RANGES,
  FUNDING_ROUND_TYPES,
  HASHTAGS,
  INDUSTRIES,
  JOB_FUNCTIONS,
  REVENUE_RANGES,
  SUB_UNIT_TYPE_NAMES,
  TECH_PRODUCTS,
} from "./data/reference.js";

function items(type: string, rows: { id: string; name: string; extra?: Record<string, unknown> }[]): LookupItem[] {
  return rows.map((r) => ({ id: r.id, type, attributes: { name: r.name, ...(r.extra ?? {}) } }));
}

function states(): { id: string; name: string; extra: Record<string, unknown> }[] {
  const seen = new Map<string, { id: string; name: string; extra: Record<string, unknown> }>();
  for (const c of CITIES) {
    if (c.countryCode !== "US" && c.countryCode !== "CA") continue;
    if (!seen.has(c.state)) seen.set(c.state, { id: c.state, name: c.state, extra: { code: c.stateCode, country: c.countryCode } });
  }
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name));
}

const TABLES: Record<(typeof LOOKUP_FIELDS)[number], () => LookupItem[]> = {
  "funding-round-types": () => items("FundingRoundType", FUNDING_ROUND_TYPES),
  industries: () =>
    items(
      "Industry",
      INDUSTRIES.map((i) => ({ id: i.id, name: i.name, extra: { sicCode: i.sic, naicsCode: i.naics } })),
    ),
  "employee-count": () => items("EmployeeCount", EMPLOYEE_RANGES),
  "revenue-ranges": () => items("RevenueRange", REVENUE_RANGES),
  "metro-regions": () => items("MetroRegion", METROS),
  "company-types": () =>
    items(
      "CompanyType",
      Object.entries(COMPANY_TYPE_NAMES).map(([id, name]) => ({ id, name })),
    ),
  countries: () =>
    items(
      "Country",
      COUNTRIES.map((c) => ({ id: c.code, name: c.name, extra: { continent: c.continent } })),
    ),
  states: () => items("State", states()),
  continents: () => items("Continent", CONTINENTS),
  "sub-unit-types": () =>
    items(
      "SubUnitType",
      SUB_UNIT_TYPES.map((id) => ({ id, name: SUB_UNIT_TYPE_NAMES[id] })),
    ),
  "tech-products": () => items("TechProduct", TECH_PRODUCTS),
  hashtags: () => items("Hashtag", HASHTAGS),
  "management-levels": () =>
    items(
      "ManagementLevel",
      MANAGEMENT_LEVELS.map((l) => ({ id: l, name: l })),
    ),
  departments: () => items("Department", DEPARTMENTS),
  "job-functions": () =>
    items(
      "JobFunction",
      JOB_FUNCTIONS.map((f) => ({ id: f, name: f })),
    ),
};

export function lookupValues(fieldName: string): LookupItem[] | undefined {
  // Own keys only: "constructor" or "toString" is an unknown lookup, not a function of Object.
  if (!Object.hasOwn(TABLES, fieldName)) return undefined;
  return TABLES[fieldName as (typeof LOOKUP_FIELDS)[number]]();
}
