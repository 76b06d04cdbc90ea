// Lookalikes and recommendations from the sandbox's own data, deterministic (no model):
//   - companies: a weighted similarity over industry, employee count, revenue and country, in 0..1,
//     after the `same…` filters; never the reference company itself;
//   - contacts: a similarity over department, management level, job function and title words;
//   - recommended contacts: how well a contact's level and department fit the use case, re-ranked
//     with the contact's accuracy score.
// Ties are broken by id, so the same question always gets the same ranking.
import type { UseCaseType } from "../../core/contract/index.js";
import type { CompanyProfile, ContactFacts } from "./facts.js";

export interface CompanyFilters {
  sameCountry?: boolean;
  sameIndustry?: boolean;
  sameRevenueRange?: boolean;
  sameEmployeeRange?: boolean;
}

export interface Scored<T> {
  item: T;
  score: number;
  rank: number;
}

const WEIGHTS = { industry: 0.4, employees: 0.25, revenue: 0.2, country: 0.15 } as const;
const round = (n: number) => Math.round(n * 10_000) / 10_000;

/** 1 for equal sizes, falling with the distance in orders of magnitude (0 at three or more). */
function sizeCloseness(a: number, b: number): number {
  const distance = Math.abs(Math.log10(Math.max(1, a)) - Math.log10(Math.max(1, b)));
  return Math.max(0, 1 - distance / 3);
}

export function companySimilarity(reference: CompanyProfile, other: CompanyProfile): number {
  const sharesIndustry = other.industries.some((i) => reference.industries.includes(i));
  const industry = reference.industry !== "" && reference.industry === other.industry ? 1 : sharesIndustry ? 0.5 : 0;
  const country = reference.country !== "" && reference.country === other.country ? 1 : 0;
  return round(
    WEIGHTS.industry * industry +
      WEIGHTS.employees * sizeCloseness(reference.employees, other.employees) +
      WEIGHTS.revenue * sizeCloseness(reference.revenue, other.revenue) +
      WEIGHTS.country * country,
  );
}

/** Whether `a` ranks before `b`: the higher score, then the lower id. */
const before = (a: { score: number; id: number }, b: { score: number; id: number }) => a.score > b.score || (a.score === b.score && a.id < b.id);

/** The best `size` items, best first: one pass keeping the leaders (a search reads up to every contact). */
function ranked<T extends { id: number }>(items: readonly T[], scoreOf: (item: T) => number, size: number): Scored<T>[] {
  const top: { item: T; score: number; id: number }[] = [];
  for (const item of items) {
    const entry = { item, score: scoreOf(item), id: item.id };
    if (top.length === size && !before(entry, top[size - 1]!)) continue;
    let at = top.length;
    while (at > 0 && before(entry, top[at - 1]!)) at -= 1;
    top.splice(at, 0, entry);
    if (top.length > size) top.pop();
  }
  return top.map(({ item, score }, i) => ({ item, score, rank: i + 1 }));
}

export function companyLookalikes(reference: CompanyProfile, all: readonly CompanyProfile[], filters: CompanyFilters, size: number): Scored<CompanyProfile>[] {
  const candidates = all.filter(
    (c) =>
      c.id !== reference.id &&
      (!filters.sameCountry || c.country === reference.country) &&
      (!filters.sameIndustry || c.industry === reference.industry) &&
      (!filters.sameRevenueRange || c.revenueRange === reference.revenueRange) &&
      (!filters.sameEmployeeRange || c.employeeRange === reference.employeeRange),
  );
  return ranked(candidates, (c) => companySimilarity(reference, c), size);
}

/** Management levels from the top; Board Member stands beside C-Level. */
const LEVEL_ORDER: Readonly<Record<string, number>> = { "C-Level": 0, "Board Member": 0, "VP-Level": 1, Director: 2, Manager: 3, "Non-Manager": 4 };

/** A title's words, kept per title (titles repeat across contacts). */
const titleWords = new Map<string, ReadonlySet<string>>();
function words(title: string): ReadonlySet<string> {
  let found = titleWords.get(title);
  if (!found) {
    found = new Set(
      title
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter((w) => w.length > 2),
    );
    if (titleWords.size < 50_000) titleWords.set(title, found);
  }
  return found;
}

function titleOverlap(a: string, b: string): number {
  const x = words(a);
  const y = words(b);
  if (x.size === 0 || y.size === 0) return 0;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared += 1;
  return shared / (x.size + y.size - shared);
}

export function contactSimilarity(reference: ContactFacts, other: ContactFacts): number {
  const a = LEVEL_ORDER[reference.managementLevel];
  const b = LEVEL_ORDER[other.managementLevel];
  const level = a === undefined || b === undefined ? 0 : Math.max(0, 1 - Math.abs(a - b) / 2);
  return round(
    0.4 * (reference.department !== "" && reference.department === other.department ? 1 : 0) +
      0.3 * level +
      0.15 * (reference.jobFunction !== "" && reference.jobFunction === other.jobFunction ? 1 : 0) +
      0.15 * titleOverlap(reference.jobTitle, other.jobTitle),
  );
}

export function contactLookalikes(reference: ContactFacts, candidates: readonly ContactFacts[], size: number): Scored<ContactFacts>[] {
  return ranked(
    candidates.filter((c) => c.id !== reference.id),
    (c) => contactSimilarity(reference, c),
    size,
  );
}

/** Who matters for each use case: weights by management level and by department (others 0.3). */
const USE_CASES: Readonly<Record<UseCaseType, { levels: Readonly<Record<string, number>>; departments: Readonly<Record<string, number>> }>> = {
  // New accounts: the managers and directors who evaluate, in the teams that buy.
  PROSPECTING: {
    levels: { Director: 1, Manager: 0.9, "VP-Level": 0.7, "C-Level": 0.4, "Non-Manager": 0.35, "Board Member": 0.1 },
    departments: { "Engineering & Technical": 1, "Information Technology": 1, Operations: 0.8, Marketing: 0.7, Sales: 0.6 },
  },
  // A deal under way: the people who sign and pay.
  DEAL_ACCELERATION: {
    levels: { "C-Level": 1, "VP-Level": 0.9, Director: 0.7, "Board Member": 0.5, Manager: 0.4, "Non-Manager": 0.1 },
    departments: { "C-Suite": 1, Finance: 0.9, Operations: 0.7, "Information Technology": 0.7, Legal: 0.6 },
  },
  // Existing customers: the people who use it every day and their managers.
  RENEWAL_AND_GROWTH: {
    levels: { Manager: 1, Director: 0.9, "Non-Manager": 0.7, "VP-Level": 0.5, "C-Level": 0.3, "Board Member": 0.05 },
    departments: { "Customer Success": 1, Operations: 0.9, "Information Technology": 0.8, "Engineering & Technical": 0.7, Sales: 0.6 },
  },
};

export interface Recommendation {
  contact: ContactFacts;
  score: number;
  reRankingScore: number;
  rank: number;
}

export function recommendedContacts(contacts: readonly ContactFacts[], useCase: UseCaseType, size: number): Recommendation[] {
  const weights = USE_CASES[useCase];
  return contacts
    .map((contact) => {
      const score = round(0.6 * (weights.levels[contact.managementLevel] ?? 0.2) + 0.4 * (weights.departments[contact.department] ?? 0.3));
      return { contact, score, reRankingScore: round(0.8 * score + 0.2 * (contact.accuracy / 100)) };
    })
    .sort((a, b) => b.reRankingScore - a.reRankingScore || a.contact.id - b.contact.id)
    .slice(0, size)
    .map((r, i) => ({ ...r, rank: i + 1 }));
}
