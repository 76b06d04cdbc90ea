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

/** Every non-location company filter on the company table named `alias` in the query. */
export function companyConditions(filters: CompanySearchFilters, alias: string, params: SqlParams, scope: FilterScope, style: TagStyle = "in"): string[] {
  const out: string[] = [];
  if (filters.companyName !== undefined && filters.companyName.trim())
    out.push(`${alias}.name LIKE ${params.contains(filters.companyName.trim())} ESCAPE '\\'`);
  const ids = csv(filters.companyId);
  if (ids.length) out.push(`${alias}.id IN ${params.list(idsOf(ids))}`);
  const sites = csv(filters.companyWebsite);
  if (sites.length) out.push(`${alias}.domain IN ${params.list(sites.map(plainDomain))}`);
  if (filters.companyDescription !== undefined) {
    const words = filters.companyDescription.split(/\s+/).filter(Boolean);
    if (words.length) {
      const like = words.map((w) => `t.description LIKE ${params.contains(w)} ESCAPE '\\'`).join(" AND ");
      out.push(`${alias}.id IN (SELECT t.id FROM company_texts t WHERE ${like})`);
    }
  }
  if (filters.companyTicker?.length) out.push(`${alias}.ticker IN ${params.list(filters.companyTicker.map((t) => t.trim().toUpperCase()))}`);
  const types = lower(csv(filters.companyType));
  if (types.length) {
    const known = types.filter((t) => t !== "none");
    const parts = [`${alias}.type IN ${params.list(known)}`];
    if (types.includes("none")) parts.push(`${alias}.type IS NULL`);
    out.push(parts.join(" OR "));
  }
  const rankings = lower(csv(filters.companyRanking));
  if (rankings.length) out.push(tag(alias, "ranking", rankings, params, style));
  if (filters.businessModel?.length)
    out.push(
      tag(
        alias,
        "bm",
        filters.businessModel.map((b) => b.toUpperCase()),
        params,
        style,
      ),
    );
  if (filters.certified !== undefined) out.push(`${alias}.certified = ${params.add(filters.certified)}`);
  if (filters.excludeDefunctCompanies === true) out.push(`${alias}.is_defunct = 0`);
  // true: only records under management for the calling account; false asks for nothing more
  // (every result shows its managementStatus anyway).
  if (filters.underManagement === true) {
    out.push(
      `${scope.managedIdExpr} IN (SELECT record_id FROM managed WHERE account = ${params.add(scope.account)} AND kind = '${scope.managedKind}' AND purchased_at > ${params.add(scope.managedSince)})`,
    );
  }

  // Industry and technology.
  const industries = industryIds(filters);
  if (industries.length) {
    out.push(
      filters.primaryIndustriesOnly === true ? `${alias}.primary_industry IN ${params.list(industries)}` : tag(alias, "industry", industries, params, style),
    );
  }
  if (filters.industryKeywords !== undefined && filters.industryKeywords.trim()) {
    const groups = filters.industryKeywords
      .split(/\s+OR\s+/)
      .map((g) =>
        g
          .split(/\s+AND\s+/)
          .map((t) => t.trim().toLowerCase())
          .filter(Boolean),
      )
      .filter((g) => g.length);
    if (groups.length)
      out.push(groups.map((g) => `(${g.map((t) => `${alias}.industry_text LIKE ${params.contains(t)} ESCAPE '\\'`).join(" AND ")})`).join(" OR "));
  }
  const sic = csv(filters.sicCodes);
  if (sic.length) out.push(tag(alias, "sic", sic, params, style));
  const naics = csv(filters.naicsCodes);
  if (naics.length) out.push(tag(alias, "naics", naics, params, style));
  const hashtags = csv(filters.hashTagString).map((h) => h.replace(/^#/, "").toLowerCase());
  if (hashtags.length) out.push(tag(alias, "hashtag", hashtags, params, style));
  const tech = csv(filters.techAttributeTagList).map(techSlugOf);
  if (tech.length) out.push(tag(alias, "tech", tech, params, style));
  for (const alternative of csv(filters.excludeTechAttributeTagList)) {
    const all = alternative
      .split(/\s+AND\s+/)
      .map((t) => t.trim())
      .filter(Boolean)
      .map(techSlugOf);
    if (all.length && style === "exists") {
      out.push(
        `(SELECT COUNT(*) FROM company_tags tg WHERE tg.company_id = ${alias}.id AND tg.kind = 'tech' AND tg.value IN ${params.list(all)}) < ${all.length}`,
      );
    } else if (all.length) {
      out.push(
        `${alias}.id NOT IN (SELECT company_id FROM company_tags WHERE kind = 'tech' AND value IN ${params.list(all)} GROUP BY company_id HAVING COUNT(DISTINCT value) = ${all.length})`,
      );
    }
  }

  // Size, growth and budgets.
  const revenueRanges = csv(filters.revenue);
  if (revenueRanges.length) out.push(`${alias}.revenue_range IN ${params.list(revenueRanges)}`);
  const num = (column: string, op: ">=" | "<=", value: string | number | undefined) => {
    if (value === undefined || String(value).trim() === "") return;
    out.push(`${alias}.${column} ${op} ${params.add(Number(value))}`);
  };
  /** A range on an indexed column: the index only when the range is narrow. */
  const indexedRange = (column: "revenue" | "employees", min: string | number | undefined, max: string | number | undefined) => {
    const lo = boundOf(min);
    const hi = boundOf(max);
    if (lo === undefined && hi === undefined) return;
    const col = (scope.selectivity?.range(column, lo, hi) ?? 0) > INDEX_WORTHWHILE_SHARE ? `+${alias}.${column}` : `${alias}.${column}`;
    if (lo !== undefined) out.push(`${col} >= ${params.add(lo)}`);
    if (hi !== undefined) out.push(`${col} <= ${params.add(hi)}`);
  };
  indexedRange("revenue", filters.revenueMin, filters.revenueMax);
  const employeeRanges = csv(filters.employeeCount);
  if (employeeRanges.length) out.push(`${alias}.employee_range IN ${params.list(employeeRanges)}`);
  indexedRange("employees", filters.employeeRangeMin, filters.employeeRangeMax);
  num("contacts_count", ">=", filters.serviceContactsMin);
  num("contacts_count", "<=", filters.serviceContactsMax);
  num("growth1", ">=", filters.oneYearEmployeeGrowthRateMin);
  num("growth1", "<=", filters.oneYearEmployeeGrowthRateMax);
  num("growth2", ">=", filters.twoYearEmployeeGrowthRateMin);
  num("growth2", "<=", filters.twoYearEmployeeGrowthRateMax);
  num("budget_marketing", ">=", filters.marketingDepartmentBudgetMin);
  num("budget_marketing", "<=", filters.marketingDepartmentBudgetMax);
  num("budget_finance", ">=", filters.financeDepartmentBudgetMin);
  num("budget_finance", "<=", filters.financeDepartmentBudgetMax);
  num("budget_it", ">=", filters.itDepartmentBudgetMin);
  num("budget_it", "<=", filters.itDepartmentBudgetMax);
  num("budget_hr", ">=", filters.hrDepartmentBudgetMin);
  num("budget_hr", "<=", filters.hrDepartmentBudgetMax);

  // Funding: amounts are on the total raised; dates and round types on the rounds.
  if (filters.fundingAmountMin !== undefined || filters.fundingAmountMax !== undefined) {
    out.push(`${alias}.total_funding > 0`);
    num("total_funding", ">=", filters.fundingAmountMin);
    num("total_funding", "<=", filters.fundingAmountMax);
  }
  const roundIds = (values: string[] | undefined) => byIdOrName(values ?? [], FUNDING_ROUND_TYPES);
  if (filters.recentFundingRoundTypes?.length) {
    out.push(`${alias}.recent_funding_type IN ${params.list(roundIds(filters.recentFundingRoundTypes))}`);
    if (filters.fundingStartDate) out.push(`${alias}.recent_funding_date >= ${params.add(filters.fundingStartDate)}`);
    if (filters.fundingEndDate) out.push(`${alias}.recent_funding_date <= ${params.add(filters.fundingEndDate)}`);
  } else if (filters.allFundingRoundTypes?.length || filters.fundingStartDate || filters.fundingEndDate) {
    const conds = [`r.company_id = ${alias}.id`];
    if (filters.allFundingRoundTypes?.length) conds.push(`r.type IN ${params.list(roundIds(filters.allFundingRoundTypes))}`);
    if (filters.fundingStartDate) conds.push(`r.date >= ${params.add(filters.fundingStartDate)}`);
    if (filters.fundingEndDate) conds.push(`r.date <= ${params.add(filters.fundingEndDate)}`);
    out.push(`EXISTS (SELECT 1 FROM funding_rounds r WHERE ${conds.join(" AND ")})`);
  }

  // Engagement history.
  if (filters.engagementStartDate || filters.engagementEndDate || filters.engagementType?.length) {
    const conds = [`e.company_id = ${alias}.id`];
    if (filters.engagementStartDate) conds.push(`e.date >= ${params.add(filters.engagementStartDate)}`);
    if (filters.engagementEndDate) conds.push(`e.date <= ${params.add(filters.engagementEndDate)}`);
    if (filters.engagementType?.length) conds.push(`e.type IN ${params.list(filters.engagementType)}`);
    out.push(`EXISTS (SELECT 1 FROM engagements e WHERE ${conds.join(" AND ")})`);
  }

  // Corporate structure.
  if (filters.parentId !== undefined && filters.parentId.trim()) out.push(`${alias}.parent_id IN ${params.list(idsOf(csv(filters.parentId)))}`);
  if (filters.ultimateParentId !== undefined && filters.ultimateParentId.trim())
    out.push(`${alias}.ultimate_parent_id IN ${params.list(idsOf(csv(filters.ultimateParentId)))}`);
  const subUnits = csv(filters.subUnitTypes).map((s) => s.toUpperCase());
  if (subUnits.length) out.push(`${alias}.sub_unit_type IN ${params.list(subUnits)}`);
  const included = csv(filters.companyStructureIncludedSubUnitTypes).map((s) => s.toUpperCase());
  if (included.length) out.push(`${alias}.parent_id = 0 OR ${alias}.sub_unit_type IN ${params.list(included)}`);
  return out;
}

/** All company filters, location on the company itself (company search). */
export function companyWhere(f: CompanySearchFilters, p: SqlParams, scope: FilterScope, zipPoint: ZipResolver, style: TagStyle = "in"): string {
  return and([...companyConditions(f, "c", p, scope, style), ...locationConditions(f, "c", p, true, zipPoint)]);
}
