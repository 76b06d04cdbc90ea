// A drawn company written to the tables: its texts (description and the details document), its
// row in the table's column order, its tags, funding rounds and engagements. Writing draws from
// the random stream too (phones, rank, dates), in the same fixed order for the same seed.
import { ENGAGEMENT_TYPES } from "../../core/contract/index.js";
import { COMPANY_TYPE_NAMES, DEPARTMENTS, EMPLOYEE_RANGES, INDUSTRY_BY_ID, REVENUE_RANGES, bucketOf } from "./reference.js";
import type { Random } from "./random.js";
import type { SeededCompany } from "./companySeed.js";
import { daysBefore, phoneNumber, type SeedContext } from "./seedContext.js";

const PRODUCT_WORDS = ["Cloud", "Suite", "Platform", "Analytics", "Connect", "One", "Pro", "Hub", "Insights", "Pay"];

interface Texts {
  description: string;
  details: Record<string, unknown>;
}

function socialProfiles(r: Random, domainStem: string, employees: number): { type: string; url: string; followerCount?: string }[] {
  const social: { type: string; url: string; followerCount?: string }[] = [
    { type: "LINKED_IN", url: `https://www.linkedin.com/company/${domainStem}`, followerCount: String(Math.round(employees * r.int(5, 40))) },
  ];
  if (r.chance(0.7)) social.push({ type: "TWITTER", url: `https://twitter.com/${domainStem.slice(0, 15)}`, followerCount: String(r.int(10, 500000)) });
  if (r.chance(0.5)) social.push({ type: "FACEBOOK", url: `https://www.facebook.com/${domainStem}` });
  return social;
}

/** Employees by department: shares drawn in turn, the rest to the first department. */
function departmentEmployees(r: Random, employees: number): Record<string, number> {
  const depCounts: Record<string, number> = {};
  let left = employees;
  for (const d of DEPARTMENTS) {
    const n = Math.floor(left * r.next() * 0.4);
    depCounts[d.name] = n;
    left -= n;
  }
  depCounts[DEPARTMENTS[0]!.name] = (depCounts[DEPARTMENTS[0]!.name] ?? 0) + left;
  return depCounts;
}

function growthPoints(employees: number, growth1: number, growth2: number): { label: string; employeeCount: number }[] {
  return [
    { label: "2024-06", employeeCount: Math.max(1, Math.round(employees / (1 + growth2 / 100))) },
    { label: "2025-06", employeeCount: Math.max(1, Math.round(employees / (1 + growth1 / 100))) },
    { label: "2026-06", employeeCount: employees },
  ];
}

function drawTexts(ctx: SeedContext, c: SeededCompany): Texts {
  const { r } = ctx;
  const { name, base, domain, domainStem } = c.naming;
  const { employees, growth1, growth2, businessModels } = c.money;
  const cityState = `${c.place.city.city}, ${c.place.city.state}`;
  const typeName = c.s.type ? COMPANY_TYPE_NAMES[c.s.type]!.toLowerCase() : "";
  const products = r.sample(PRODUCT_WORDS, r.int(1, 3)).map((w) => `${base.split(" ")[0]} ${w}`);
  const description = `${name} is a ${typeName ? `${typeName} ` : ""}${c.primaryIndustry.name.toLowerCase()} organization headquartered in ${cityState}. It serves ${businessModels.join(" and ")} customers with ${products.join(", ")}.`;
  const social = socialProfiles(r, domainStem, employees);
  const departments = departmentEmployees(r, employees);
  const companies = ctx.size.companies;
  const details = {
    social,
    products,
    competitors: companies > 1 ? [r.int(1, companies), r.int(1, companies)].filter((x) => x !== c.id) : [],
    domainList: r.chance(0.2) ? [domain, `${domainStem}.io`] : [domain],
    departmentEmployees: departments,
    growthPoints: growthPoints(employees, growth1, growth2),
    tech: c.tags.tech,
    hashtags: c.tags.hashtags,
    businessModels,
  };
  return { description, details };
}

/** The company's row, in the table's column order. */
function companyRow(r: Random, c: SeededCompany): unknown[] {
  const { s, naming, place, money, industries } = c;
  const { city, zip, country } = place;
  const recent = c.rounds[c.rounds.length - 1];
  const totalFunding = c.rounds.reduce((sum, x) => sum + x.amount, 0);
  // prettier-ignore
  return [
    c.id, naming.name, `http://www.${naming.domain}`, naming.domain, c.ticker, s.type, s.parentId, s.ultimateId, s.subUnitType,
    money.businessModels.join(","), money.certified, money.status, money.defunct ? 1 : 0, place.street, city.city, city.state,
    city.stateCode, zip.zip, country.name, country.code, country.continent, city.metro ?? null, zip.lat, zip.lon,
    phoneNumber(city, r), r.chance(0.4) ? phoneNumber(city, r) : null, industries[0], industries.join(","),
    industries.map((i) => INDUSTRY_BY_ID.get(i)!.name.toLowerCase()).join(" | "), money.revenue,
    bucketOf(REVENUE_RANGES, money.revenue).id, money.employees, bucketOf(EMPLOYEE_RANGES, money.employees).id, money.growth1,
    money.growth2, money.budgets.marketing, money.budgets.finance, money.budgets.it, money.budgets.hr, totalFunding,
    recent?.amount ?? null, recent?.date ?? null, recent?.type ?? null, money.foundedYear,
    Math.max(1, Math.round((10_000_000 / Math.pow(money.employees, 0.9)) * (0.5 + r.next()))),
    1 + Math.floor((money.employees / 800) * r.next()), `https://logo.sandbox.example/${naming.domain}.png`,
    `${daysBefore(r.int(0, 365))}T${String(r.int(0, 23)).padStart(2, "0")}:00:00Z`,
  ];
}

function writeTags(ctx: SeedContext, c: SeededCompany): void {
  const { tag } = ctx.insert;
  const id = c.id;
  for (const i of c.industries) {
    tag.run(id, "industry", i);
    tag.run(id, "sic", INDUSTRY_BY_ID.get(i)!.sic);
    tag.run(id, "naics", INDUSTRY_BY_ID.get(i)!.naics);
  }
  for (const t of c.tags.tech) tag.run(id, "tech", t);
  for (const h of c.tags.hashtags) tag.run(id, "hashtag", h);
  for (const k of c.tags.rankings) tag.run(id, "ranking", k);
  for (const b of c.money.businessModels) tag.run(id, "bm", b);
}

/** Writes a drawn company and remembers what its contacts need of it. */
export function writeCompany(ctx: SeedContext, c: SeededCompany): void {
  const { r, insert } = ctx;
  const texts = drawTexts(ctx, c);
  insert.company.run(companyRow(r, c));
  insert.texts.run(c.id, texts.description, JSON.stringify(texts.details));
  writeTags(ctx, c);
  for (const round of c.rounds) insert.round.run(c.id, round.date, round.type, round.amount, round.investors.join(", "));
  if (r.chance(0.4)) {
    const n = r.int(1, 6);
    for (let k = 0; k < n; k++) insert.engagement.run(c.id, daysBefore(r.int(0, 1100)), r.pick(ENGAGEMENT_TYPES));
  }
  const { naming, place, money } = c;
  ctx.briefs[c.id - 1] = {
    name: naming.name,
    domain: naming.domain,
    city: place.cityIndex,
    zip: place.zip.zip,
    lat: place.zip.lat,
    lon: place.zip.lon,
    employees: money.employees,
  };
}
