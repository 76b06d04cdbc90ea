// The sandbox's matching rules for enrichment inputs given as a website, a company name (with
// country, state or city), an email address, or a person's name with a company:
// - a website matches the company with that domain, whatever the spelling of the URL;
// - a company name matches without case, punctuation and legal suffixes (Inc, LLC, GmbH, S.A.);
// - when several companies fit, the given country, state and city narrow them; if more than
//   one is left the answer is NO_MATCH with an "ambiguous" warning: the service never guesses
//   between two companies, and a miss costs nothing;
// - an email address matches exactly, without case; a name matches a person only together with
//   the company (by id, or by name under the company rules above).
// Inputs with other criteria (ticker, phone, street, zip) or an id keep the route's own matcher.
import type Database from "better-sqlite3";
import type { MatchCompanyInput, MatchPersonInput } from "../../core/contract/index.js";
import { domainOf, nameCore, personNameKey, sameText } from "./normalize.js";

export type RuleMatch = { id: number } | { status: "NO_MATCH" | "INVALID_INPUT"; warnings?: string[] };

interface CompanyEntry {
  id: number;
  country: string | null;
  countryCode: string | null;
  state: string | null;
  stateCode: string | null;
  city: string | null;
}

/** Seeded companies by domain and by name core, read once on first use (seeded data does not change). */
function companyIndex(db: Database.Database) {
  let built: { byDomain: Map<string, CompanyEntry[]>; byName: Map<string, CompanyEntry[]> } | undefined;
  return () => {
    if (built) return built;
    const byDomain = new Map<string, CompanyEntry[]>();
    const byName = new Map<string, CompanyEntry[]>();
    const add = (map: Map<string, CompanyEntry[]>, key: string, entry: CompanyEntry) => {
      const list = map.get(key);
      if (list) list.push(entry);
      else map.set(key, [entry]);
    };
    const rows = db
      .prepare("SELECT id, name, domain, country, country_code AS countryCode, state, state_code AS stateCode, city FROM companies ORDER BY id")
      .all() as Array<CompanyEntry & { name: string; domain: string | null }>;
    for (const { name, domain, ...entry } of rows) {
      if (domain) add(byDomain, domain, entry);
      add(byName, nameCore(name), entry);
    }
    built = { byDomain, byName };
    return built;
  };
}

const present = (text: string | undefined): string | undefined => (text?.trim() ? text.trim() : undefined);

/** Narrows candidates by the places given; a place the caller gave must fit. */
function narrow(candidates: readonly CompanyEntry[], input: MatchCompanyInput): CompanyEntry[] {
  const country = present(input.companyCountry);
  const state = present(input.companyState);
  const city = present(input.companyCity);
  return candidates.filter(
    (c) =>
      (country === undefined || sameText(c.country, country) || sameText(c.countryCode, country)) &&
      (state === undefined || sameText(c.state, state) || sameText(c.stateCode, state)) &&
      (city === undefined || sameText(c.city, city)),
  );
}

function decide(candidates: ReadonlyArray<{ id: number }>, noun: string, hint: string): RuleMatch {
  const [first] = candidates;
  if (!first) return { status: "NO_MATCH" };
  if (candidates.length === 1) return { id: first.id };
  return { status: "NO_MATCH", warnings: [`AMBIGUOUS_INPUT: ${candidates.length} ${noun} fit this input; ${hint}`] };
}

/** Company ids fitting a name (and places), for the person rules too. */
function companiesNamed(index: ReturnType<typeof companyIndex>, input: MatchCompanyInput): CompanyEntry[] {
  const core = nameCore(input.companyName ?? "");
  return core === "" ? [] : narrow(index().byName.get(core) ?? [], input);
}

const OTHER_COMPANY_CRITERIA = ["companyId", "companyTicker", "companyPhone", "companyStreet", "companyZipCode"] as const;

export function companyMatchRules<M>(db: Database.Database, fallback: (input: MatchCompanyInput) => M): (input: MatchCompanyInput) => M | RuleMatch {
  const index = companyIndex(db);
  return (input) => {
    const website = present(input.companyWebsite);
    const name = present(input.companyName);
    if (OTHER_COMPANY_CRITERIA.some((field) => input[field] !== undefined) || (website === undefined && name === undefined)) return fallback(input);
    if (website !== undefined) {
      const domain = domainOf(website);
      if (domain === undefined) return { status: "INVALID_INPUT" };
      return decide(narrow(index().byDomain.get(domain) ?? [], input), "companies", "give a country or city");
    }
    if (nameCore(name as string) === "") return { status: "INVALID_INPUT" };
    return decide(companiesNamed(index, input), "companies", "give a country or city");
  };
}

interface PersonEntry {
  id: number;
  companyId: number;
}

export function personMatchRules<M>(db: Database.Database, fallback: (input: MatchPersonInput) => M): (input: MatchPersonInput) => M | RuleMatch {
  const index = companyIndex(db);
  const byEmail = db.prepare("SELECT id FROM contacts WHERE email = ? COLLATE NOCASE ORDER BY id");
  const atCompanies = db.prepare(
    "SELECT id, company_id AS companyId, first_name AS firstName, middle_name AS middleName, last_name AS lastName FROM contacts WHERE company_id IN (SELECT value FROM json_each(?)) ORDER BY id",
  );
  return (input) => {
    if (input.personId !== undefined || present(input.phone) !== undefined || present(input.jobTitle) !== undefined) return fallback(input);
    const email = present(input.emailAddress);
    if (email !== undefined) {
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return { status: "INVALID_INPUT" };
      const ids = (byEmail.all(email) as Array<{ id: number }>).map((row) => ({ id: row.id, companyId: 0 }));
      return decide(ids, "people", "give a name and the company");
    }
    const wanted = personNameKey(present(input.fullName) ?? [input.firstName, input.lastName].filter(Boolean).join(" "));
    const companyName = present(input.companyName);
    if (wanted === "" || (input.companyId === undefined && companyName === undefined)) return fallback(input);
    const companyIds = input.companyId !== undefined ? [input.companyId] : companiesNamed(index, { companyName }).map((c) => c.id);
    if (companyIds.length === 0) return { status: "NO_MATCH" };
    const rows = atCompanies.all(JSON.stringify(companyIds)) as Array<PersonEntry & { firstName: string; middleName: string | null; lastName: string }>;
    const found = rows.filter(
      (row) =>
        personNameKey(`${row.firstName} ${row.lastName}`) === wanted || personNameKey(`${row.firstName} ${row.middleName ?? ""} ${row.lastName}`) === wanted,
    );
    return decide(found, "people", "give the email address");
  };
}
