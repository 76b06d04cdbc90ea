// Company search filters (docs/service.md, "Search") as SQL conditions on a companies alias. Contact search
// reuses them on the contact's company, with the location ones applied per locationSearchType.
import type { CompanySearchFilters } from "../../core/contract/index.js";
import { CITIES, COUNTRIES, METROS } from "../data/places.js";
import { FUNDING_ROUND_TYPES, INDUSTRIES, techSlugOf } from "../data/reference.js";
import { and, csv, type SqlParams } from "./sql.js";
import { plainDomain } from "../match/normalize.js";

const LOCATION_FILTERS = ["address", "street", "state", "zipCode", "country", "continent", "metroRegion", "excludedRegions"] as const;

/**
 * Share of companies (0..1) a condition matches, estimated from a sample. SQLite cannot know it
 * for a range given at run time; an index pays only for a small share (each match is a random
 * read), so broad ranges are written so that SQLite does not drive the query by their index.
 */
export interface Selectivity {
  range(column: "revenue" | "employees", min: number | undefined, max: number | undefined): number;
}

/** Above this share a full scan beats index lookups (measured on 1,000,000 companies). */
const INDEX_WORTHWHILE_SHARE = 0.12;

export interface FilterScope {
  account: string;
  /** The record kind whose management status `underManagement` asks about. */
  managedKind: "company" | "contact";
  /** SQL expression of the record id for the management check (c.id or ct.id). */
  managedIdExpr: string;
  /** Purchases after this (ISO) are under management: credits.ts's managementWindowStart on the sandbox's clock. */
  managedSince: string;
  selectivity?: Selectivity;
}

const lower = (values: string[]) => values.map((v) => v.toLowerCase());

function idsOf(values: string[]): number[] {
  const ids = values.map((v) => Number(v)).filter((n) => Number.isInteger(n) && n > 0);
  return ids.length ? ids : [0];
}

function byIdOrName(values: string[], table: { id: string; name: string }[]): string[] {
  return values.map((v) => {
    const k = v.toLowerCase();
    return table.find((t) => t.id.toLowerCase() === k || t.name.toLowerCase() === k)?.id ?? v;
  });
}

/**
 * How tag filters are written: "in" finds the tagged companies first (good for counting),
 * "exists" asks per company (good when walking a sort index for one page).
 */
export type TagStyle = "in" | "exists";

function tag(alias: string, kind: string, values: string[], p: SqlParams, style: TagStyle): string {
  if (style === "exists") {
    return `EXISTS (SELECT 1 FROM company_tags tg WHERE tg.company_id = ${alias}.id AND tg.kind = '${kind}' AND tg.value IN ${p.list(values)})`;
  }
  return `${alias}.id IN (SELECT company_id FROM company_tags WHERE kind = '${kind}' AND value IN ${p.list(values)})`;
}

/** State names as stored, from names or codes in any case (unknown values stay as given). */
export function stateNames(values: string[]): string[] {
  return values.flatMap((v) => {
    const k = v.toLowerCase();
    const names = [...new Set(CITIES.filter((c) => c.state.toLowerCase() === k || c.stateCode.toLowerCase() === k).map((c) => c.state))];
    return names.length ? names : [v];
  });
}

export type ZipResolver = (zip: string) => { lat: number; lon: number } | undefined;

/** Country codes the country filter asks for (undefined: no country filter). */
export function countryCodes(f: CompanySearchFilters): string[] | undefined {
  const countries = csv(f.country);
  if (!countries.length) return undefined;
  const codes = countries.map((c) => COUNTRIES.find((x) => x.name.toLowerCase() === c.toLowerCase() || x.code.toLowerCase() === c.toLowerCase())?.code ?? c);
  if (countries.some((c) => ["usa", "u.s.", "u.s.a.", "united states of america"].includes(c.toLowerCase()))) codes.push("US");
  return codes;
}

/** Country codes of the continents the continent filter asks for (undefined: no such filter). */
export function continentCodes(f: CompanySearchFilters): string[] | undefined {
  const continents = lower(csv(f.continent));
  if (!continents.length) return undefined;
  return COUNTRIES.filter((c) => continents.includes(c.continent.toLowerCase()) || continents.includes(c.continent.toLowerCase().replace(/ /g, "-"))).map(
    (c) => c.code,
  );
}

/** Industry ids the industry filter asks for (ids or names in any case; unknown values as given). */
export function industryIds(f: CompanySearchFilters): string[] {
  return byIdOrName(csv(f.industryCodes), INDUSTRIES);
}

/** A whole or fractional bound as the range filters read it (undefined: not given). */
export function boundOf(value: string | number | undefined): number | undefined {
  return value === undefined || String(value).trim() === "" ? undefined : Number(value);
}

export interface ZipCircle {
  lat: number;
  lon: number;
  latLo: number;
  latHi: number;
  lonLo: number;
  lonHi: number;
  radius: number;
}

/** The circles of a zip code radius search: one per known zip, as a bounding box and a distance. */
export function zipCircles(f: CompanySearchFilters, zipPoint: ZipResolver): ZipCircle[] {
  const radius = f.zipCodeRadiusMiles;
  if (radius === undefined) return [];
  return csv(f.zipCode).flatMap((z) => {
    const point = zipPoint(z.toUpperCase()) ?? zipPoint(z);
    if (!point) return [];
    const dLat = radius / 69.0;
    const dLon = radius / (69.17 * Math.max(0.01, Math.cos((point.lat * Math.PI) / 180)));
    return [{ lat: point.lat, lon: point.lon, latLo: point.lat - dLat, latHi: point.lat + dLat, lonLo: point.lon - dLon, lonHi: point.lon + dLon, radius }];
  });
}

/** Location conditions on an alias with city/state/zip/country/metro/lat/lon columns. */
export function locationConditions(f: CompanySearchFilters, alias: string, p: SqlParams, isCompany: boolean, zipPoint: ZipResolver): string[] {
  const out: string[] = [];
  if (isCompany && f.address !== undefined && f.address.trim()) {
    out.push(
      `(${alias}.street || ', ' || ${alias}.city || ', ' || ${alias}.state || ' ' || ${alias}.zip || ', ' || ${alias}.country) LIKE ${p.contains(f.address.trim())} ESCAPE '\\'`,
    );
  }
  if (isCompany && f.street !== undefined && f.street.trim()) out.push(`${alias}.street LIKE ${p.contains(f.street.trim())} ESCAPE '\\'`);
  const states = csv(f.state);
  if (states.length) out.push(`${alias}.state IN ${p.list(stateNames(states))}`);
  const zips = csv(f.zipCode);
  if (zips.length) {
    if (f.zipCodeRadiusMiles !== undefined) {
      const circles = zipCircles(f, zipPoint).map(
        // Bounding box first (uses the lat index), exact distance second.
        (z) =>
          `${alias}.lat BETWEEN ${p.add(z.latLo)} AND ${p.add(z.latHi)} AND ${alias}.lon BETWEEN ${p.add(z.lonLo)} AND ${p.add(z.lonHi)} AND haversine_miles(${p.add(z.lat)}, ${p.add(z.lon)}, ${alias}.lat, ${alias}.lon) <= ${p.add(z.radius)}`,
      );
      if (circles.length === 0) circles.push("0");
      out.push(circles.map((x) => `(${x})`).join(" OR "));
    } else {
      out.push(`${alias}.zip IN ${p.list([...zips, ...zips.map((z) => z.toUpperCase())])}`);
    }
  }
  const countries = countryCodes(f);
  // Broad or not, the covering index of common filters serves a country list well.
  if (countries) out.push(`${alias}.country_code IN ${p.list(countries)}`);
  const continents = continentCodes(f);
  if (continents) out.push(`${alias}.country_code IN ${p.list(continents)}`);
  const metros = csv(f.metroRegion);
  if (metros.length) out.push(`${alias}.metro IN ${p.list(byIdOrName(metros, METROS))}`);
  const excluded = csv(f.excludedRegions);
  if (excluded.length) {
    const metroIds = byIdOrName(excluded, METROS).filter((m) => METROS.some((x) => x.id === m));
    const states = excluded.filter((e) => !metroIds.includes(e) && !METROS.some((x) => x.name.toLowerCase() === e.toLowerCase()));
    if (metroIds.length) out.push(`(${alias}.metro IS NULL OR ${alias}.metro NOT IN ${p.list(metroIds)})`);
    if (states.length) out.push(`${alias}.state NOT IN ${p.list(stateNames(states))}`);
  }
  return out;
}

export function hasLocationFilter(f: CompanySearchFilters): boolean {
  return LOCATION_FILTERS.some((k) => f[k] !== undefined && String(f[k]).trim() !== "");
}

/** What a group of conditions is written from, and the list it adds them to. */
interface Conditions {
  f: CompanySearchFilters;
  alias: string;
  p: SqlParams;
  scope: FilterScope;
  style: TagStyle;
  out: string[];
}

/** Name, ids, website, description, ticker, type, ranking, business model, status, management. */
function identityConditions({ f, alias, p, scope, style, out }: Conditions): void {
  if (f.companyName !== undefined && f.companyName.trim()) out.push(`${alias}.name LIKE ${p.contains(f.companyName.trim())} ESCAPE '\\'`);
  const ids = csv(f.companyId);
  if (ids.length) out.push(`${alias}.id IN ${p.list(idsOf(ids))}`);
  const sites = csv(f.companyWebsite);
  if (sites.length) out.push(`${alias}.domain IN ${p.list(sites.map(plainDomain))}`);
  if (f.companyDescription !== undefined) {
    const words = f.companyDescription.split(/\s+/).filter(Boolean);
    if (words.length) {
      const like = words.map((w) => `t.description LIKE ${p.contains(w)} ESCAPE '\\'`).join(" AND ");
      out.push(`${alias}.id IN (SELECT t.id FROM company_texts t WHERE ${like})`);
    }
  }
  if (f.companyTicker?.length) out.push(`${alias}.ticker IN ${p.list(f.companyTicker.map((t) => t.trim().toUpperCase()))}`);
  const types = lower(csv(f.companyType));
  if (types.length) {
    const parts = [`${alias}.type IN ${p.list(types.filter((t) => t !== "none"))}`];
    if (types.includes("none")) parts.push(`${alias}.type IS NULL`);
    out.push(parts.join(" OR "));
  }
  const rankings = lower(csv(f.companyRanking));
  if (rankings.length) out.push(tag(alias, "ranking", rankings, p, style));
  if (f.businessModel?.length)
    out.push(
      tag(
        alias,
        "bm",
        f.businessModel.map((b) => b.toUpperCase()),
        p,
        style,
      ),
    );
  if (f.certified !== undefined) out.push(`${alias}.certified = ${p.add(f.certified)}`);
  if (f.excludeDefunctCompanies === true) out.push(`${alias}.is_defunct = 0`);
  // true: only records under management for the calling account; false asks for nothing more
  // (every result shows its managementStatus anyway).
  if (f.underManagement === true) {
    out.push(
      `${scope.managedIdExpr} IN (SELECT record_id FROM managed WHERE account = ${p.add(scope.account)} AND kind = '${scope.managedKind}' AND purchased_at > ${p.add(scope.managedSince)})`,
    );
  }
}

/** "a AND b OR c" keywords on the industry text. */
function keywordCondition(keywords: string, alias: string, p: SqlParams): string | undefined {
  const groups = keywords
    .split(/\s+OR\s+/)
    .map((g) =>
      g
        .split(/\s+AND\s+/)
        .map((t) => t.trim().toLowerCase())
        .filter(Boolean),
    )
    .filter((g) => g.length);
  if (!groups.length) return undefined;
  return groups.map((g) => `(${g.map((t) => `${alias}.industry_text LIKE ${p.contains(t)} ESCAPE '\\'`).join(" AND ")})`).join(" OR ");
}

/** Companies without every technology of one "a AND b" alternative. */
function excludedTechCondition(alternative: string, { alias, p, style }: Conditions): string | undefined {
  const all = alternative
    .split(/\s+AND\s+/)
    .map((t) => t.trim())
    .filter(Boolean)
    .map(techSlugOf);
  if (!all.length) return undefined;
  if (style === "exists") {
    return `(SELECT COUNT(*) FROM company_tags tg WHERE tg.company_id = ${alias}.id AND tg.kind = 'tech' AND tg.value IN ${p.list(all)}) < ${all.length}`;
  }
  return `${alias}.id NOT IN (SELECT company_id FROM company_tags WHERE kind = 'tech' AND value IN ${p.list(all)} GROUP BY company_id HAVING COUNT(DISTINCT value) = ${all.length})`;
}

/** Industry and technology. */
function industryConditions(c: Conditions): void {
  const { f, alias, p, style, out } = c;
  const industries = industryIds(f);
  if (industries.length) {
    out.push(f.primaryIndustriesOnly === true ? `${alias}.primary_industry IN ${p.list(industries)}` : tag(alias, "industry", industries, p, style));
  }
  const keywords = f.industryKeywords !== undefined && f.industryKeywords.trim() ? keywordCondition(f.industryKeywords, alias, p) : undefined;
  if (keywords) out.push(keywords);
  const tagLists: [string, string[]][] = [
    ["sic", csv(f.sicCodes)],
    ["naics", csv(f.naicsCodes)],
    ["hashtag", csv(f.hashTagString).map((h) => h.replace(/^#/, "").toLowerCase())],
    ["tech", csv(f.techAttributeTagList).map(techSlugOf)],
  ];
  for (const [kind, values] of tagLists) if (values.length) out.push(tag(alias, kind, values, p, style));
  for (const alternative of csv(f.excludeTechAttributeTagList)) {
    const condition = excludedTechCondition(alternative, c);
    if (condition) out.push(condition);
  }
}

/** Bounds on a column: [column, the filter of its minimum, the filter of its maximum]. */
const NUMBER_RANGES: [string, keyof CompanySearchFilters, keyof CompanySearchFilters][] = [
  ["contacts_count", "serviceContactsMin", "serviceContactsMax"],
  ["growth1", "oneYearEmployeeGrowthRateMin", "oneYearEmployeeGrowthRateMax"],
  ["growth2", "twoYearEmployeeGrowthRateMin", "twoYearEmployeeGrowthRateMax"],
  ["budget_marketing", "marketingDepartmentBudgetMin", "marketingDepartmentBudgetMax"],
  ["budget_finance", "financeDepartmentBudgetMin", "financeDepartmentBudgetMax"],
  ["budget_it", "itDepartmentBudgetMin", "itDepartmentBudgetMax"],
  ["budget_hr", "hrDepartmentBudgetMin", "hrDepartmentBudgetMax"],
];

function numberBound({ alias, p, out }: Conditions, column: string, op: ">=" | "<=", value: unknown): void {
  if (value === undefined || String(value).trim() === "") return;
  out.push(`${alias}.${column} ${op} ${p.add(Number(value))}`);
}

/** A range on an indexed column: the index only when the range is narrow. */
function indexedRange(
  { alias, p, scope, out }: Conditions,
  column: "revenue" | "employees",
  min: string | number | undefined,
  max: string | number | undefined,
) {
  const lo = boundOf(min);
  const hi = boundOf(max);
  if (lo === undefined && hi === undefined) return;
  const col = (scope.selectivity?.range(column, lo, hi) ?? 0) > INDEX_WORTHWHILE_SHARE ? `+${alias}.${column}` : `${alias}.${column}`;
  if (lo !== undefined) out.push(`${col} >= ${p.add(lo)}`);
  if (hi !== undefined) out.push(`${col} <= ${p.add(hi)}`);
}

/** Size, growth and budgets. */
function sizeConditions(c: Conditions): void {
  const { f, alias, p, out } = c;
  const revenueRanges = csv(f.revenue);
  if (revenueRanges.length) out.push(`${alias}.revenue_range IN ${p.list(revenueRanges)}`);
  indexedRange(c, "revenue", f.revenueMin, f.revenueMax);
  const employeeRanges = csv(f.employeeCount);
  if (employeeRanges.length) out.push(`${alias}.employee_range IN ${p.list(employeeRanges)}`);
  indexedRange(c, "employees", f.employeeRangeMin, f.employeeRangeMax);
  for (const [column, min, max] of NUMBER_RANGES) {
    numberBound(c, column, ">=", f[min]);
    numberBound(c, column, "<=", f[max]);
  }
}

/** Funding: amounts are on the total raised; dates and round types on the rounds. */
function fundingConditions(c: Conditions): void {
  const { f, alias, p, out } = c;
  if (f.fundingAmountMin !== undefined || f.fundingAmountMax !== undefined) {
    out.push(`${alias}.total_funding > 0`);
    numberBound(c, "total_funding", ">=", f.fundingAmountMin);
    numberBound(c, "total_funding", "<=", f.fundingAmountMax);
  }
  const roundIds = (values: string[] | undefined) => byIdOrName(values ?? [], FUNDING_ROUND_TYPES);
  if (f.recentFundingRoundTypes?.length) {
    out.push(`${alias}.recent_funding_type IN ${p.list(roundIds(f.recentFundingRoundTypes))}`);
    if (f.fundingStartDate) out.push(`${alias}.recent_funding_date >= ${p.add(f.fundingStartDate)}`);
    if (f.fundingEndDate) out.push(`${alias}.recent_funding_date <= ${p.add(f.fundingEndDate)}`);
  } else if (f.allFundingRoundTypes?.length || f.fundingStartDate || f.fundingEndDate) {
    const conds = [`r.company_id = ${alias}.id`];
    if (f.allFundingRoundTypes?.length) conds.push(`r.type IN ${p.list(roundIds(f.allFundingRoundTypes))}`);
    if (f.fundingStartDate) conds.push(`r.date >= ${p.add(f.fundingStartDate)}`);
    if (f.fundingEndDate) conds.push(`r.date <= ${p.add(f.fundingEndDate)}`);
    out.push(`EXISTS (SELECT 1 FROM funding_rounds r WHERE ${conds.join(" AND ")})`);
  }
}

/** Engagement history and corporate structure. */
function engagementAndStructureConditions({ f, alias, p, out }: Conditions): void {
  if (f.engagementStartDate || f.engagementEndDate || f.engagementType?.length) {
    const conds = [`e.company_id = ${alias}.id`];
    if (f.engagementStartDate) conds.push(`e.date >= ${p.add(f.engagementStartDate)}`);
    if (f.engagementEndDate) conds.push(`e.date <= ${p.add(f.engagementEndDate)}`);
    if (f.engagementType?.length) conds.push(`e.type IN ${p.list(f.engagementType)}`);
    out.push(`EXISTS (SELECT 1 FROM engagements e WHERE ${conds.join(" AND ")})`);
  }
  if (f.parentId !== undefined && f.parentId.trim()) out.push(`${alias}.parent_id IN ${p.list(idsOf(csv(f.parentId)))}`);
  if (f.ultimateParentId !== undefined && f.ultimateParentId.trim()) out.push(`${alias}.ultimate_parent_id IN ${p.list(idsOf(csv(f.ultimateParentId)))}`);
  const subUnits = csv(f.subUnitTypes).map((s) => s.toUpperCase());
  if (subUnits.length) out.push(`${alias}.sub_unit_type IN ${p.list(subUnits)}`);
  const included = csv(f.companyStructureIncludedSubUnitTypes).map((s) => s.toUpperCase());
  if (included.length) out.push(`${alias}.parent_id = 0 OR ${alias}.sub_unit_type IN ${p.list(included)}`);
}

/** Every non-location company filter on the company table named `alias` in the query. */
export function companyConditions(filters: CompanySearchFilters, alias: string, params: SqlParams, scope: FilterScope, style: TagStyle = "in"): string[] {
  const c: Conditions = { f: filters, alias, p: params, scope, style, out: [] };
  identityConditions(c);
  industryConditions(c);
  sizeConditions(c);
  fundingConditions(c);
  engagementAndStructureConditions(c);
  return c.out;
}

/** All company filters, location on the company itself (company search). */
export function companyWhere(f: CompanySearchFilters, p: SqlParams, scope: FilterScope, zipPoint: ZipResolver, style: TagStyle = "in"): string {
  return and([...companyConditions(f, "c", p, scope, style), ...locationConditions(f, "c", p, true, zipPoint)]);
}
