// Contact search filters (docs/service.md, "Search"): person filters on alias `ct`, the company filters on the
// contact's company `c`, and location per locationSearchType (person, headquarters or both).
import type { ContactSearchFilters, RequiredFieldName } from "../../core/contract/index.js";
import { DEPARTMENTS, EXECUTIVE_LEVELS } from "../data/reference.js";
import { companyConditions, hasLocationFilter, locationConditions, type FilterScope, type TagStyle, type ZipResolver } from "./companyFilters.js";
import { and, csv, type SqlParams } from "./sql.js";

const REQUIRED_FIELD_COLUMNS: Record<RequiredFieldName, string> = {
  email: "email",
  phone: "phone",
  directPhone: "phone",
  mobilePhone: "mobile_phone",
  jobTitle: "job_title",
  middleName: "middle_name",
  city: "city",
  state: "state",
  country: "country",
};

/** Person ids from a comma-separated list; none valid matches nothing. */
function personIdsOf(values: string[]): number[] {
  const ids = values.map(Number).filter((n) => Number.isInteger(n) && n > 0);
  return ids.length ? ids : [0];
}

function personConditions(f: ContactSearchFilters, ct: string, p: SqlParams): string[] {
  const out: string[] = [];
  const like = (column: string, pattern: string) => `${ct}.${column} LIKE ${pattern} ESCAPE '\\'`;
  const personIds = csv(f.personId);
  if (personIds.length) out.push(`${ct}.id IN ${p.list(personIdsOf(personIds))}`);
  if (f.firstName?.trim()) out.push(like("first_name", p.startsWith(f.firstName.trim())));
  if (f.lastName?.trim()) out.push(like("last_name", p.startsWith(f.lastName.trim())));
  if (f.fullName?.trim()) {
    out.push(
      `(${ct}.first_name || ' ' || COALESCE(${ct}.middle_name || ' ', '') || ${ct}.last_name) LIKE ${p.contains(f.fullName.trim())} ESCAPE '\\' OR (${ct}.first_name || ' ' || ${ct}.last_name) LIKE ${p.contains(f.fullName.trim())} ESCAPE '\\'`,
    );
  }
  if (f.jobTitle?.trim()) out.push(like("job_title", p.contains(f.jobTitle.trim())));
  if (f.exactJobTitle?.trim()) out.push(`${ct}.job_title = ${p.add(f.exactJobTitle.trim())} COLLATE NOCASE`);
  for (const title of csv(f.excludeJobTitle)) out.push(`${ct}.job_title NOT LIKE ${p.contains(title)} ESCAPE '\\'`);
  const levels = csv(f.managementLevel);
  if (levels.length) out.push(`${ct}.management_level COLLATE NOCASE IN ${p.list(levels)}`);
  const departments = csv(f.department).map((d) => DEPARTMENTS.find((x) => x.id === d.toLowerCase() || x.name.toLowerCase() === d.toLowerCase())?.id ?? d);
  if (departments.length) out.push(`${ct}.department IN ${p.list(departments)}`);
  const functions = csv(f.jobFunction);
  if (functions.length) out.push(`${ct}.job_function COLLATE NOCASE IN ${p.list(functions)}`);
  if (f.contactAccuracyScoreMin !== undefined) out.push(`${ct}.accuracy >= ${p.add(f.contactAccuracyScoreMin)}`);
  if (f.contactAccuracyScoreMax !== undefined) out.push(`${ct}.accuracy <= ${p.add(f.contactAccuracyScoreMax)}`);
  if (f.lastUpdatedDateAfter) out.push(`${ct}.last_updated >= ${p.add(f.lastUpdatedDateAfter)}`);
  if (f.validDateAfter) out.push(`${ct}.valid_date >= ${p.add(f.validDateAfter)}`);
  for (const field of csv(f.requiredFields)) {
    // The validator admits only known names; own keys only, so no name reaches SQL as anything else.
    const column = Object.hasOwn(REQUIRED_FIELD_COLUMNS, field) ? REQUIRED_FIELD_COLUMNS[field as RequiredFieldName] : undefined;
    if (column) out.push(`${ct}.${column} IS NOT NULL`);
  }
  if (f.executivesOnly === true) out.push(`${ct}.management_level IN ${p.list(EXECUTIVE_LEVELS)}`);
  return out;
}

export function contactWhere(
  f: ContactSearchFilters,
  p: SqlParams,
  scope: FilterScope,
  zipPoint: ZipResolver,
  style: TagStyle = "in",
): { where: string; needsCompany: boolean } {
  const company = companyConditions(f, "c", p, scope, style);
  const clauses = [...personConditions(f, "ct", p), ...company];
  let needsCompany = company.length > 0;
  const type = f.locationSearchType ?? "PersonOrHQ";
  if (hasLocationFilter(f)) {
    const person = locationConditions(f, "ct", p, false, zipPoint);
    // Street and full address exist only for headquarters (a Person-only search ignores them).
    const hq = type === "Person" ? [] : locationConditions(f, "c", p, true, zipPoint);
    if (type === "Person") {
      clauses.push(...person);
    } else if (type === "HQ" || person.length === 0) {
      clauses.push(...hq);
      needsCompany = true;
    } else if (type === "PersonAndHQ") {
      clauses.push(...person, ...hq);
      needsCompany = true;
    } else {
      // PersonOrHQ and PersonThenHQ: the person's location, or the headquarters'.
      clauses.push(`(${and(person)}) OR (${and(hq)})`);
      needsCompany = true;
    }
  }
  return { where: and(clauses), needsCompany };
}
