// Deterministic seeding: the same seed and sizes always give the same companies and contacts.
// Everything is inserted in one transaction with prepared statements; indexes come afterwards.
import type Database from "better-sqlite3";
import { MANAGEMENT_LEVELS, SUB_UNIT_TYPES, ENGAGEMENT_TYPES } from "../../core/contract/index.js";
import { CREATE_DATA_INDEXES } from "../store/schema.js";
import { CITIES, COUNTRY_BY_CODE, cityZips, type City } from "./places.js";
import { Random } from "./random.js";
import {
  COMMERCIAL_INDUSTRIES,
  COMPANY_STATUS_DEFUNCT,
  COMPANY_TYPE_NAMES,
  DEPARTMENTS,
  EMPLOYEE_RANGES,
  FIRST_NAMES,
  HASHTAGS,
  INDUSTRIES_FOR_TYPE,
  INDUSTRY_BY_ID,
  LAST_NAMES,
  NAME_FIRST_WORDS,
  NAME_INDUSTRY_WORDS,
  NAME_SECOND_WORDS,
  NAME_SUFFIXES,
  REVENUE_RANGES,
  TECH_PRODUCTS,
  VENTURE_LADDER,
  bucketOf,
} from "./reference.js";
import { SPECIAL_COMPANIES, SPECIAL_CONTACTS } from "./specialRecords.js";

export interface SeedSize {
  seed: number;
  companies: number;
  contacts: number;
}

/** Seeded dates are relative to this day, so a seed gives the same data on any day. */
const REFERENCE_DATE = "2026-06-30";
const REFERENCE_MS = Date.parse(`${REFERENCE_DATE}T00:00:00Z`);
const DAY_MS = 86_400_000;

const COMPANY_TYPES_WEIGHTED = ["private", "public", "npo", "education", "government", "other", null] as const;
const COMPANY_TYPE_WEIGHTS = [70, 6, 7, 5, 4, 5, 3];
// prettier-ignore
const INVESTORS = [
  "Sequoia Capital", "Accel", "Andreessen Horowitz", "Benchmark", "Index Ventures", "Lightspeed Venture Partners",
  "General Catalyst", "Insight Partners", "Tiger Global", "Bessemer Venture Partners", "Kleiner Perkins",
  "Greylock Partners", "First Round Capital", "Y Combinator", "SoftBank Vision Fund", "Blackstone", "KKR",
];
const PRODUCT_WORDS = ["Cloud", "Suite", "Platform", "Analytics", "Connect", "One", "Pro", "Hub", "Insights", "Pay"];
const CERTIFIED_SHARE = 0.65;

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
function daysBefore(days: number): string {
  return isoDay(REFERENCE_MS - days * DAY_MS);
}
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, "")
    .replace(/[^a-z0-9]+/g, "")
    .slice(0, 40);
}
function phoneNumber(city: City, r: Random): string {
  return `${city.phonePrefix} 555-${String(r.int(100, 9999)).padStart(4, "0")}`;
}

interface CompanyBrief {
  name: string;
  domain: string;
  city: number;
  zip: string;
  lat: number;
  lon: number;
  employees: number;
}

/** Seeds an empty database. Returns how long it took, in ms. */
export function seedDatabase(db: Database.Database, size: SeedSize): number {
  const started = Date.now();
  const r = new Random(size.seed);
  const cityWeights = CITIES.map((c) => c.weight);
  const cityZipList = CITIES.map(cityZips);
  const special = new Map(SPECIAL_COMPANIES.map((s) => [s.id, s.name]));

  const insertCompany = db.prepare(
    `INSERT INTO companies (id, name, website, domain, ticker, type, parent_id, ultimate_parent_id,
      sub_unit_type, business_model, certified, status, is_defunct, street, city, state, state_code, zip, country,
      country_code, continent, metro, lat, lon, phone, fax, primary_industry, industries, industry_text, revenue,
      revenue_range, employees, employee_range, growth1, growth2, budget_marketing, budget_finance, budget_it,
      budget_hr, total_funding, recent_funding_amount, recent_funding_date, recent_funding_type, founded_year,
      site_rank, location_count, logo, last_updated)
     VALUES (${new Array(48).fill("?").join(",")})`,
  );
  const insertTexts = db.prepare("INSERT INTO company_texts (id, description, details) VALUES (?, ?, ?)");
  const insertTag = db.prepare("INSERT OR IGNORE INTO company_tags (company_id, kind, value) VALUES (?, ?, ?)");
  const insertRound = db.prepare("INSERT INTO funding_rounds (company_id, date, type, amount, investors) VALUES (?, ?, ?, ?, ?)");
  const insertEngagement = db.prepare("INSERT INTO engagements (company_id, date, type) VALUES (?, ?, ?)");
  const insertZip = db.prepare("INSERT OR IGNORE INTO zips (zip, lat, lon) VALUES (?, ?, ?)");
  const insertContact = db.prepare(
    `INSERT INTO contacts (id, company_id, company_name, first_name, middle_name, last_name, job_title,
      management_level, department, job_function, email, phone, mobile_phone, direct_dnc, mobile_dnc, accuracy,
      last_updated, valid_date, city, state, state_code, zip, country, country_code, metro, lat, lon, relevance)
     VALUES (${new Array(28).fill("?").join(",")})`,
  );
  const setContactCount = db.prepare("UPDATE companies SET contacts_count = ? WHERE id = ?");

  const briefs: CompanyBrief[] = new Array(size.companies);
  const ultimateOf = new Int32Array(size.companies + 1);
  const typeOf: (string | null)[] = new Array(size.companies + 1);
  const domains = new Set<string>();
  const tickers = new Set<string>();

  const seedAll = db.transaction(() => {
    for (const zips of cityZipList) for (const z of zips) insertZip.run(z.zip, z.lat, z.lon);

    for (let id = 1; id <= size.companies; id++) {
      // Corporate structure: some companies are sub-units of an earlier one.
      const isSub = id > 40 && r.chance(0.12);
      const parentId = isSub ? r.int(1, id - 1) : 0;
      const ultimateId = isSub ? ultimateOf[parentId] || parentId : 0;
      ultimateOf[id] = ultimateId;
      const subUnitType = isSub ? r.pick(SUB_UNIT_TYPES.slice(1)) : r.chance(0.02) ? "UNSPECIFIED" : null;
      const type: string | null = isSub && r.chance(0.8) ? (typeOf[parentId] ?? null) : r.weighted(COMPANY_TYPES_WEIGHTED, COMPANY_TYPE_WEIGHTS);
      typeOf[id] = type;

      // Industries consistent with the type.
      const pool = (type && INDUSTRIES_FOR_TYPE[type]) || COMMERCIAL_INDUSTRIES;
      const primary = r.pick(pool);
      const industries = [
        primary,
        ...(r.chance(0.3)
          ? r.sample(
              pool.filter((p) => p !== primary),
              r.int(0, Math.min(2, pool.length - 1)),
            )
          : []),
      ];
      const primaryIndustry = INDUSTRY_BY_ID.get(primary)!;

      // Name and web presence.
      const wordPool = NAME_INDUSTRY_WORDS[primary] ?? NAME_INDUSTRY_WORDS.default!;
      const base = `${r.pick(NAME_FIRST_WORDS)} ${r.pick(NAME_SECOND_WORDS)}`;
      const generated = `${base} ${r.pick(wordPool)}${type === "private" || type === "public" ? ` ${r.pick(NAME_SUFFIXES)}` : ""}`.trim();
      const name = special.get(id) ?? generated;
      let domainStem = slug(name.replace(/\b(Inc\.|LLC|Corp\.|Co\.|Ltd\.)$/, ""));
      if (domains.has(domainStem)) domainStem = `${domainStem}${id}`;
      domains.add(domainStem);
      const tld = type === "education" ? "edu" : type === "government" ? "gov" : type === "npo" ? "org" : "com";
      const domain = `${domainStem}.${tld}`;
      const website = `http://www.${domain}`;

      // Location.
      const cityIndex = isSub && r.chance(0.4) ? briefs[parentId - 1]!.city : CITIES.indexOf(r.weighted(CITIES, cityWeights));
      const city = CITIES[cityIndex]!;
      const zip = r.pick(cityZipList[cityIndex]!);
      const country = COUNTRY_BY_CODE.get(city.countryCode)!;
      const street = `${r.int(1, 9800)} ${r.pick(["Main", "Market", "Oak", "Park", "Lake", "Hill", "Broad", "Church", "Mill", "Pine", "Maple", "Elm"])} ${r.pick(["Street", "Avenue", "Boulevard", "Road", "Way", "Drive"])}`;

      // Size and money.
      const median = type === "public" ? 3000 : type === "education" ? 400 : type === "government" ? 300 : isSub ? 60 : 35;
      const employees = Math.max(1, Math.min(400_000, Math.round(r.logNormal(median, 1.5))));
      const perEmployee = type === "npo" || type === "government" || type === "education" ? r.int(40, 120) : r.int(90, 420);
      const revenue = Math.max(10, Math.round(employees * perEmployee));
      const growth1 = Math.round((r.next() - 0.35) * 500) / 10;
      const growth2 = Math.round((growth1 * 1.8 + (r.next() - 0.5) * 20) * 10) / 10;
      const foundedYear = Math.max(1850, Math.min(2026, Math.round(2026 - Math.abs(r.logNormal(18, 1.0)))));
      const defunct = r.chance(0.03);
      const status = defunct ? r.pick(COMPANY_STATUS_DEFUNCT) : foundedYear >= 2025 ? "NEW" : "ALIVE";
      const certified = !defunct && r.chance(CERTIFIED_SHARE) ? 1 : 0;
      const businessModels = type === "government" ? ["B2G"] : r.weighted([["B2B"], ["B2C"], ["B2B", "B2C"], ["B2B", "B2G"]], [55, 25, 12, 8]);
      const budgets = {
        marketing: Math.round(revenue * (0.04 + r.next() * 0.08)),
        finance: Math.round(revenue * (0.01 + r.next() * 0.02)),
        it: Math.round(revenue * (0.03 + r.next() * 0.05)),
        hr: Math.round(revenue * (0.01 + r.next() * 0.02)),
      };

      // Ticker for public companies.
      let ticker: string | null = null;
      if (type === "public") {
        const letters = name.replace(/[^A-Za-z]/g, "").toUpperCase();
        let candidate = letters.slice(0, r.int(3, 4));
        for (let k = 0; tickers.has(candidate) && k < 20; k++)
          candidate = letters.slice(0, 2) + String.fromCharCode(65 + r.int(0, 25)) + String.fromCharCode(65 + r.int(0, 25));
        if (!tickers.has(candidate)) {
          tickers.add(candidate);
          ticker = candidate;
        }
      }

      // Funding history.
      const rounds: { date: string; type: string; amount: number; investors: string[] }[] = [];
      if (type === "private" && foundedYear >= 1995 && r.chance(0.35)) {
        const count = r.int(1, 5);
        let step = r.chance(0.3) ? -1 : 0;
        let day = Math.max(0, (2026 - foundedYear) * 365 - r.int(30, 400));
        for (let k = 0; k < count && day > 0; k++, step++) {
          const roundType = step < 0 ? "angel" : (VENTURE_LADDER[Math.min(step, VENTURE_LADDER.length - 1)] ?? "seed");
          const scale = [300, 1500, 8000, 25000, 60000, 120000, 200000][step + 1] ?? 100000;
          rounds.push({ date: daysBefore(day), type: roundType, amount: Math.round(scale * (0.5 + r.next())), investors: r.sample(INVESTORS, r.int(1, 3)) });
          day -= r.int(200, 900);
        }
        if (r.chance(0.1))
          rounds.push({
            date: daysBefore(r.int(10, 300)),
            type: r.pick(["venture-debt", "convertible-note", "private-equity"]),
            amount: r.int(2000, 90000),
            investors: r.sample(INVESTORS, 1),
          });
      } else if (type === "public" && r.chance(0.3)) {
        rounds.push({ date: daysBefore(r.int(200, 9000)), type: "ipo", amount: r.int(50_000, 2_000_000), investors: [] });
      } else if ((type === "npo" || type === "education") && r.chance(0.3)) {
        rounds.push({ date: daysBefore(r.int(10, 2000)), type: "grant", amount: r.int(50, 5000), investors: [] });
      }
      rounds.sort((a, b) => a.date.localeCompare(b.date));
      const totalFunding = rounds.reduce((s, x) => s + x.amount, 0);
      const recent = rounds[rounds.length - 1];

      // Tags.
      const tech = r.sample(TECH_PRODUCTS, r.int(1, 7)).map((t) => t.id);
      const hashtags = r.sample(HASHTAGS, r.int(0, 3)).map((h) => h.id);
      const rankings: string[] = [];
      if (type === "public" && revenue >= 5_000_000) rankings.push("fortune-500");
      if (type === "public" && revenue >= 1_000_000) rankings.push("fortune-1000");
      if (revenue >= 10_000_000) rankings.push("global-2000");
      if (type === "private" && growth1 >= 30 && employees < 1000) rankings.push("inc-5000");

      const cityState = `${city.city}, ${city.state}`;
      const typeName = type ? COMPANY_TYPE_NAMES[type]!.toLowerCase() : "";
      const products = r.sample(PRODUCT_WORDS, r.int(1, 3)).map((w) => `${base.split(" ")[0]} ${w}`);
      const description = `${name} is a ${typeName ? `${typeName} ` : ""}${primaryIndustry.name.toLowerCase()} organization headquartered in ${cityState}. It serves ${businessModels.join(" and ")} customers with ${products.join(", ")}.`;
      const social: { type: string; url: string; followerCount?: string }[] = [
        { type: "LINKED_IN", url: `https://www.linkedin.com/company/${domainStem}`, followerCount: String(Math.round(employees * r.int(5, 40))) },
      ];
      if (r.chance(0.7)) social.push({ type: "TWITTER", url: `https://twitter.com/${domainStem.slice(0, 15)}`, followerCount: String(r.int(10, 500000)) });
      if (r.chance(0.5)) social.push({ type: "FACEBOOK", url: `https://www.facebook.com/${domainStem}` });
      const depCounts: Record<string, number> = {};
      let left = employees;
      for (const d of DEPARTMENTS) {
        const n = Math.floor(left * r.next() * 0.4);
        depCounts[d.name] = n;
        left -= n;
      }
      depCounts[DEPARTMENTS[0]!.name] = (depCounts[DEPARTMENTS[0]!.name] ?? 0) + left;
      const details = {
        social,
        products,
        competitors: size.companies > 1 ? [r.int(1, size.companies), r.int(1, size.companies)].filter((c) => c !== id) : [],
        domainList: r.chance(0.2) ? [domain, `${domainStem}.io`] : [domain],
        departmentEmployees: depCounts,
        growthPoints: [
          { label: "2024-06", employeeCount: Math.max(1, Math.round(employees / (1 + growth2 / 100))) },
          { label: "2025-06", employeeCount: Math.max(1, Math.round(employees / (1 + growth1 / 100))) },
          { label: "2026-06", employeeCount: employees },
        ],
        tech,
        hashtags,
        businessModels,
      };

      // One row in the table's column order.
      // prettier-ignore
      insertCompany.run(
        id, name, website, domain, ticker, type, parentId, ultimateId, subUnitType, businessModels.join(","),
        certified, status, defunct ? 1 : 0, street, city.city, city.state, city.stateCode, zip.zip, country.name,
        country.code, country.continent, city.metro ?? null, zip.lat, zip.lon, phoneNumber(city, r),
        r.chance(0.4) ? phoneNumber(city, r) : null, primary, industries.join(","),
        industries.map((i) => INDUSTRY_BY_ID.get(i)!.name.toLowerCase()).join(" | "), revenue,
        bucketOf(REVENUE_RANGES, revenue).id, employees, bucketOf(EMPLOYEE_RANGES, employees).id, growth1, growth2,
        budgets.marketing, budgets.finance, budgets.it, budgets.hr, totalFunding, recent?.amount ?? null,
        recent?.date ?? null, recent?.type ?? null, foundedYear,
        Math.max(1, Math.round((10_000_000 / Math.pow(employees, 0.9)) * (0.5 + r.next()))),
        1 + Math.floor((employees / 800) * r.next()), `https://logo.sandbox.example/${domain}.png`,
        `${daysBefore(r.int(0, 365))}T${String(r.int(0, 23)).padStart(2, "0")}:00:00Z`,
      );
      insertTexts.run(id, description, JSON.stringify(details));
      for (const i of industries) {
        insertTag.run(id, "industry", i);
        insertTag.run(id, "sic", INDUSTRY_BY_ID.get(i)!.sic);
        insertTag.run(id, "naics", INDUSTRY_BY_ID.get(i)!.naics);
      }
      for (const t of tech) insertTag.run(id, "tech", t);
      for (const h of hashtags) insertTag.run(id, "hashtag", h);
      for (const k of rankings) insertTag.run(id, "ranking", k);
      for (const b of businessModels) insertTag.run(id, "bm", b);
      for (const round of rounds) insertRound.run(id, round.date, round.type, round.amount, round.investors.join(", "));
      if (r.chance(0.4)) {
        const n = r.int(1, 6);
        for (let k = 0; k < n; k++) insertEngagement.run(id, daysBefore(r.int(0, 1100)), r.pick(ENGAGEMENT_TYPES));
      }
      briefs[id - 1] = { name, domain, city: cityIndex, zip: zip.zip, lat: zip.lat, lon: zip.lon, employees };
    }

    // Contacts, weighted toward larger companies.
    const counts = new Map<number, number>();
    const specialContacts = new Map(SPECIAL_CONTACTS.filter((s) => s.companyId <= size.companies).map((s) => [s.id, s]));
    const levelWeights = [5, 8, 15, 25, 45, 2];
    for (let id = 1; id <= size.contacts && size.companies > 0; id++) {
      const specialContact = specialContacts.get(id);
      let companyId = r.int(1, size.companies);
      for (let k = 0; k < 3; k++) {
        const emp = briefs[companyId - 1]!.employees;
        if (r.next() < 0.15 + Math.log10(emp + 1) / 4) break;
        companyId = r.int(1, size.companies);
      }
      if (specialContact) companyId = specialContact.companyId;
      const company = briefs[companyId - 1]!;
      counts.set(companyId, (counts.get(companyId) ?? 0) + 1);
      const first = specialContact?.firstName ?? r.pick(FIRST_NAMES);
      const last = specialContact?.lastName ?? r.pick(LAST_NAMES);
      const middle = r.chance(0.25) ? `${String.fromCharCode(65 + r.int(0, 25))}.` : null;
      const level = r.weighted(MANAGEMENT_LEVELS, levelWeights);
      const dept = level === "C-Level" && r.chance(0.25) ? DEPARTMENTS[DEPARTMENTS.length - 1]! : r.pick(DEPARTMENTS);
      const fn = r.pick(dept.functions);
      const title = dept.titles[level];
      const local = `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, "");
      const hq = r.chance(0.85);
      const cityIndex = hq ? company.city : CITIES.indexOf(r.weighted(CITIES, cityWeights));
      const city = CITIES[cityIndex]!;
      const zip = hq ? { zip: company.zip, lat: company.lat, lon: company.lon } : r.pick(cityZipList[cityIndex]!);
      const country = COUNTRY_BY_CODE.get(city.countryCode)!;
      const accuracy = r.int(70, 99);
      const updatedDays = r.int(0, 730);
      const levelBonus = { "C-Level": 30, "VP-Level": 24, Director: 18, Manager: 10, "Non-Manager": 0, "Board Member": 20 }[level];
      // One row in the table's column order.
      // prettier-ignore
      insertContact.run(
        id, companyId, company.name, first, middle, last, title, level, dept.id, fn,
        r.chance(0.9) ? `${local || "contact"}@${company.domain}` : null, phoneNumber(city, r),
        r.chance(0.6) ? phoneNumber(city, r) : null, r.chance(0.1) ? 1 : 0, r.chance(0.15) ? 1 : 0, accuracy,
        `${daysBefore(updatedDays)}T${String(r.int(0, 23)).padStart(2, "0")}:00:00Z`,
        `${daysBefore(Math.max(0, updatedDays - r.int(0, 120)))}T00:00:00Z`, city.city, city.state, city.stateCode,
        zip.zip, country.name, country.code, city.metro ?? null, zip.lat, zip.lon, accuracy + levelBonus + r.int(0, 20),
      );
    }
    for (const [companyId, n] of counts) setContactCount.run(n, companyId);
  });
  seedAll();
  db.exec(CREATE_DATA_INDEXES);
  db.exec("ANALYZE");
  return Date.now() - started;
}
