// Seeded companies that exercise the matching rules: names that differ only by legal suffix or
// country, one name shared by two cities of one country, and websites stored with "www.",
// schemes and paths. They replace the generated companies with these ids (their contacts move
// with them: company name and email domain), so every data size keeps its record counts.
import type Database from "better-sqlite3";
import { CITIES, COUNTRY_BY_CODE } from "../data/places.js";

/** Part of the stored database's signature: a change here re-seeds a kept database. */
export const MATCH_SEED_VERSION = "match1";

export interface MatchCompany {
  id: number;
  name: string;
  /** As stored: the rules must find it from any spelling. */
  website: string;
  domain: string;
  city: string;
}

export const MATCH_COMPANIES: readonly MatchCompany[] = [
  { id: 21, name: "Northwind Traders, Inc.", website: "https://www.northwindtraders.com/about-us", domain: "northwindtraders.com", city: "Seattle" },
  { id: 22, name: "Northwind Traders GmbH", website: "http://www.northwindtraders.de/", domain: "northwindtraders.de", city: "Berlin" },
  { id: 23, name: "Northwind Traders Ltd", website: "https://northwindtraders.co.uk/en/home", domain: "northwindtraders.co.uk", city: "London" },
  { id: 24, name: "Fabrikam S.A.", website: "http://www.fabrikam.fr/accueil", domain: "fabrikam.fr", city: "Paris" },
  { id: 25, name: "Fabrikam SA", website: "https://www.fabrikam-lyon.fr", domain: "fabrikam-lyon.fr", city: "Lyon" },
  { id: 26, name: "Contoso, LLC", website: "https://www.contoso.com/en-us/home", domain: "contoso.com", city: "Chicago" },
  { id: 27, name: "Tailspin Toys Corporation", website: "http://WWW.TailspinToys.com./", domain: "tailspintoys.com", city: "Toronto" },
];

export const MATCH_COMPANY_IDS = {
  northwindUs: 21,
  northwindDe: 22,
  northwindUk: 23,
  fabrikamParis: 24,
  fabrikamLyon: 25,
  contoso: 26,
  tailspin: 27,
} as const;

/** Applies the match companies to a freshly seeded database (ids beyond its size are skipped). */
export function seedMatchCompanies(db: Database.Database): void {
  const updateCompany = db.prepare(
    `UPDATE companies SET name = ?, website = ?, domain = ?, city = ?, state = ?, state_code = ?, zip = ?, country = ?,
      country_code = ?, continent = ?, metro = ?, lat = ?, lon = ? WHERE id = ?`,
  );
  const updateContacts = db.prepare(
    "UPDATE contacts SET company_name = ?, email = CASE WHEN email IS NULL THEN NULL ELSE substr(email, 1, instr(email, '@')) || ? END WHERE company_id = ?",
  );
  db.transaction(() => {
    for (const company of MATCH_COMPANIES) {
      const city = CITIES.find((c) => c.city === company.city);
      const country = city ? COUNTRY_BY_CODE.get(city.countryCode) : undefined;
      if (!city || !country) throw new Error(`Seed: no city ${company.city}`);
      const changed = updateCompany.run(
        company.name,
        company.website,
        company.domain,
        city.city,
        city.state,
        city.stateCode,
        city.zip,
        country.name,
        country.code,
        country.continent,
        city.metro ?? null,
        city.lat,
        city.lon,
        company.id,
      ).changes;
      if (changed > 0) updateContacts.run(company.name, company.domain, company.id);
    }
  })();
}
