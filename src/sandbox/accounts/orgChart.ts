// Org charts from the seeded contacts (issue 42): a company's people by department (the
// departments lookup's), each in a tier by seniority (C-level and board 1, VP 2, director 3,
// manager 4, the rest 5) and a sub-tier within it (1 the head of the tier: the most senior level
// of the tier, then the highest relevance; 2 the others). Whether an email or a direct phone is
// known is whether contact enrichment gives one. A pure function of the contacts' rows.
import type { OrgChartPerson, OrgChartSortKey } from "../../core/contract/index.js";
import { DEPARTMENTS } from "../data/reference.js";
import type { ContactRow } from "../records.js";

/** A contact as the org chart needs it: the contacts table's columns (records.ts) and its relevance. */
export type OrgChartContact = Pick<
  ContactRow,
  | "id"
  | "company_id"
  | "company_name"
  | "first_name"
  | "middle_name"
  | "last_name"
  | "job_title"
  | "management_level"
  | "department"
  | "job_function"
  | "email"
  | "phone"
  | "accuracy"
  | "last_updated"
> & { relevance: number };

/** A person placed in the chart. */
export interface OrgChartEntry {
  contact: OrgChartContact;
  /** The department's id (the departments lookup's). */
  departmentId: string;
  tier: number;
  subTier: number;
}

/** Tier by management level; in a tier, the level listed first ranks first. */
const TIERS: readonly (readonly string[])[] = [["C-Level", "Board Member"], ["VP-Level"], ["Director"], ["Manager"], ["Non-Manager"]];
const LOWEST_TIER = TIERS.length;
const DEPARTMENT_NAME = new Map(DEPARTMENTS.map((d) => [d.id, d.name]));
/** The last department (C-Suite) takes people the seed gave none. */
const FALLBACK_DEPARTMENT = DEPARTMENTS[DEPARTMENTS.length - 1]!.id;

function tierOf(level: string | null): { tier: number; rank: number } {
  const tier = TIERS.findIndex((levels) => levels.includes(level ?? ""));
  return tier < 0 ? { tier: LOWEST_TIER, rank: 1 } : { tier: tier + 1, rank: TIERS[tier]!.indexOf(level!) };
}

/** Most senior first: tier, then the level's rank in it, then relevance, then id. */
function bySeniority(a: OrgChartEntry, b: OrgChartEntry): number {
  const [ta, tb] = [tierOf(a.contact.management_level), tierOf(b.contact.management_level)];
  return ta.tier - tb.tier || ta.rank - tb.rank || b.contact.relevance - a.contact.relevance || a.contact.id - b.contact.id;
}

/** One company's people placed by department, tier and sub-tier, in the chart's own order (department, then seniority). */
export function placePeople(contacts: readonly OrgChartContact[]): OrgChartEntry[] {
  const entries = contacts.map((contact) => ({
    contact,
    departmentId: contact.department && DEPARTMENT_NAME.has(contact.department) ? contact.department : FALLBACK_DEPARTMENT,
    tier: tierOf(contact.management_level).tier,
    subTier: 2,
  }));
  const order = DEPARTMENTS.map((d) => d.id);
  entries.sort((a, b) => order.indexOf(a.departmentId) - order.indexOf(b.departmentId) || bySeniority(a, b));
  const heads = new Set<string>();
  for (const entry of entries) {
    const key = `${entry.departmentId}:${entry.tier}`;
    if (!heads.has(key)) {
      heads.add(key);
      entry.subTier = 1;
    }
  }
  return entries;
}

/** The department ids that `names` (ids or names, any case) mean; the ones that mean none are `unknown`. */
export function departmentIds(names: readonly string[]): { ids: Set<string>; unknown: string[] } {
  const ids = new Set<string>();
  const unknown: string[] = [];
  for (const name of names) {
    const wanted = name.trim().toLowerCase();
    const found = DEPARTMENTS.find((d) => d.id === wanted || d.name.toLowerCase() === wanted);
    if (found) ids.add(found.id);
    else unknown.push(name.trim());
  }
  return { ids, unknown };
}

export interface OrgChartFilter {
  /** None: every department. */
  departments?: ReadonlySet<string>;
  accuracyMin?: number;
  accuracyMax?: number;
}

/** The entries the filter keeps, sorted by the keys asked (ties, and no keys: the chart's own order). */
export function selectPeople(entries: readonly OrgChartEntry[], filter: OrgChartFilter, sort: readonly OrgChartSortKey[]): OrgChartEntry[] {
  const kept = entries.filter(
    (e) =>
      (!filter.departments || filter.departments.has(e.departmentId)) &&
      e.contact.accuracy >= (filter.accuracyMin ?? 0) &&
      e.contact.accuracy <= (filter.accuracyMax ?? Number.MAX_SAFE_INTEGER),
  );
  const place = new Map(entries.map((e, i) => [e, i]));
  const compare = (a: OrgChartEntry, b: OrgChartEntry): number => {
    for (const key of sort) {
      const order =
        key.field === "lastName"
          ? a.contact.last_name.localeCompare(b.contact.last_name, "en", { sensitivity: "base" })
          : a.contact.accuracy - b.contact.accuracy;
      if (order !== 0) return key.descending ? -order : order;
    }
    return place.get(a)! - place.get(b)!;
  };
  return kept.sort(compare);
}

/** "2026-05-04T09:00:00Z" as the service writes the day and time ("5/4/2026 9:00 AM"). */
export function serviceDateTime(iso: string): string {
  const d = new Date(iso);
  const hours = d.getUTCHours();
  const minutes = String(d.getUTCMinutes()).padStart(2, "0");
  const clock = `${hours % 12 === 0 ? 12 : hours % 12}:${minutes} ${hours < 12 ? "AM" : "PM"}`;
  return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()} ${clock}`;
}

/** A person as the service answers it (OrgChartEnrichResponseResource): no email or phone, only whether one is known. */
export function orgChartPerson(entry: OrgChartEntry): OrgChartPerson {
  const c = entry.contact;
  return {
    id: String(c.id),
    type: "OrgChart",
    attributes: {
      firstName: c.first_name,
      ...(c.middle_name ? { middleName: c.middle_name } : {}),
      lastName: c.last_name,
      ...(c.job_title ? { title: c.job_title } : {}),
      department: DEPARTMENT_NAME.get(entry.departmentId)!,
      ...(c.job_function ? { jobFunction: c.job_function } : {}),
      orgChartTier: entry.tier,
      orgChartSubTier: entry.subTier,
      hasEmail: c.email !== null,
      hasDirectPhone: c.phone !== null,
      contactAccuracyScore: c.accuracy,
      ...(c.last_updated ? { lastUpdatedDate: serviceDateTime(c.last_updated) } : {}),
      companyId: String(c.company_id),
      companyName: c.company_name,
    },
  };
}
