// Enriched records as production's published answer schemas shape them, from the core's
// (the specification's) shapes: industry, SIC and NAICS codes and competitors are objects
// ({id, name} and {id, name, website, ...}), employee growth rates are text, the recent funding
// date is a date-time; a contact's accuracy score is text and its job function one object
// {name, department}. The client's production edge reads them back
// (src/core/api/production/recordShapes.ts).
import { INDUSTRY_BY_ID } from "../data/reference.js";
import type { EntityKind } from "./entitlements.js";

type Attributes = Record<string, unknown>;

const codes = (values: unknown, nameOf: (code: string) => string | undefined) =>
  Array.isArray(values) ? values.map((code) => ({ id: String(code), name: nameOf(String(code)) ?? String(code) })) : values;

const industryName = (id: string) => INDUSTRY_BY_ID.get(id)?.name;
const byCode = (key: "sic" | "naics") => (code: string) => [...INDUSTRY_BY_ID.values()].find((i) => i[key] === code)?.name;

const asText = (value: unknown) => (typeof value === "number" ? String(value) : value);
const asDateTime = (value: unknown) => (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);

function companyToWire(attributes: Attributes): Attributes {
  const out: Attributes = { ...attributes };
  if ("industryCodes" in out) out.industryCodes = codes(out.industryCodes, industryName);
  if ("sicCodes" in out) out.sicCodes = codes(out.sicCodes, byCode("sic"));
  if ("naicsCodes" in out) out.naicsCodes = codes(out.naicsCodes, byCode("naics"));
  if (Array.isArray(out.competitors)) out.competitors = out.competitors.map((name) => ({ name }));
  if ("recentFundingDate" in out) out.recentFundingDate = asDateTime(out.recentFundingDate);
  const growth = out.employeeGrowth as Attributes | undefined;
  if (growth && typeof growth === "object") {
    out.employeeGrowth = { ...growth, oneYearGrowthRate: asText(growth.oneYearGrowthRate), twoYearGrowthRate: asText(growth.twoYearGrowthRate) };
  }
  return out;
}

function contactToWire(attributes: Attributes): Attributes {
  const out: Attributes = { ...attributes };
  if ("contactAccuracyScore" in out) out.contactAccuracyScore = asText(out.contactAccuracyScore);
  if (Array.isArray(out.jobFunction)) {
    const [name] = out.jobFunction as unknown[];
    if (name === undefined) delete out.jobFunction;
    else out.jobFunction = { name: String(name) };
  }
  return out;
}

/** An enriched record's attributes in production's shapes. */
export function enrichedToWire(kind: EntityKind, attributes: unknown): unknown {
  if (!attributes || typeof attributes !== "object" || Array.isArray(attributes)) return attributes;
  return kind === "company" ? companyToWire(attributes as Attributes) : contactToWire(attributes as Attributes);
}
