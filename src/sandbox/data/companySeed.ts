// One seeded company: drawn in steps (structure, industries, name, place, size and money, ticker,
// funding, tags, texts) and written as its row, texts, tags, rounds and engagements. The steps
// draw from the random stream in a fixed order: the same seed gives the same companies.
import { SUB_UNIT_TYPES } from "../../core/contract/index.js";
import { CITIES, COUNTRY_BY_CODE, type City, type Country, type ZipPoint } from "./places.js";
import type { Random } from "./random.js";
import {
  COMMERCIAL_INDUSTRIES,
  COMPANY_STATUS_DEFUNCT,
  HASHTAGS,
  INDUSTRIES_FOR_TYPE,
  INDUSTRY_BY_ID,
  NAME_FIRST_WORDS,
  NAME_INDUSTRY_WORDS,
  NAME_SECOND_WORDS,
  NAME_SUFFIXES,
  TECH_PRODUCTS,
  VENTURE_LADDER,
  type Industry,
} from "./reference.js";
import { daysBefore, weightedCity, type SeedContext } from "./seedContext.js";

const COMPANY_TYPES_WEIGHTED = ["private", "public", "npo", "education", "government", "other", null] as const;
const COMPANY_TYPE_WEIGHTS = [70, 6, 7, 5, 4, 5, 3];
// prettier-ignore
const INVESTORS = [
  "Sequoia Capital", "Accel", "Andreessen Horowitz", "Benchmark", "Index Ventures", "Lightspeed Venture Partners",
  "General Catalyst", "Insight Partners", "Tiger Global", "Bessemer Venture Partners", "Kleiner Perkins",
  "Greylock Partners", "First Round Capital", "Y Combinator", "SoftBank Vision Fund", "Blackstone", "KKR",
];
const STREET_NAMES = ["Main", "Market", "Oak", "Park", "Lake", "Hill", "Broad", "Church", "Mill", "Pine", "Maple", "Elm"];
const STREET_KINDS = ["Street", "Avenue", "Boulevard", "Road", "Way", "Drive"];
const CERTIFIED_SHARE = 0.65;

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, "")
    .replace(/[^a-z0-9]+/g, "")
    .slice(0, 40);
}

/** Corporate structure: some companies are sub-units of an earlier one. */
export interface Structure {
  isSub: boolean;
  parentId: number;
  ultimateId: number;
  subUnitType: string | null;
  type: string | null;
}

function drawStructure(ctx: SeedContext, id: number): Structure {
  const { r } = ctx;
  const isSub = id > 40 && r.chance(0.12);
  const parentId = isSub ? r.int(1, id - 1) : 0;
  const ultimateId = isSub ? ctx.ultimateOf[parentId] || parentId : 0;
  ctx.ultimateOf[id] = ultimateId;
  const subUnitType = isSub ? r.pick(SUB_UNIT_TYPES.slice(1)) : r.chance(0.02) ? "UNSPECIFIED" : null;
  const type: string | null = isSub && r.chance(0.8) ? (ctx.typeOf[parentId] ?? null) : r.weighted(COMPANY_TYPES_WEIGHTED, COMPANY_TYPE_WEIGHTS);
  ctx.typeOf[id] = type;
  return { isSub, parentId, ultimateId, subUnitType, type };
}

/** Industries consistent with the type: the primary one first. */
function drawIndustries(r: Random, type: string | null): string[] {
  const pool = (type && INDUSTRIES_FOR_TYPE[type]) || COMMERCIAL_INDUSTRIES;
  const primary = r.pick(pool);
  const others = r.chance(0.3)
    ? r.sample(
        pool.filter((p) => p !== primary),
        r.int(0, Math.min(2, pool.length - 1)),
      )
    : [];
  return [primary, ...others];
}

export interface Naming {
  /** The first two words of the generated name (products are named after the first). */
  base: string;
  name: string;
  domainStem: string;
  domain: string;
}

/** Name and web presence; a special company keeps its name, domains stay unique. */
function drawName(ctx: SeedContext, id: number, type: string | null, primary: string): Naming {
  const { r } = ctx;
  const wordPool = NAME_INDUSTRY_WORDS[primary] ?? NAME_INDUSTRY_WORDS.default!;
  const base = `${r.pick(NAME_FIRST_WORDS)} ${r.pick(NAME_SECOND_WORDS)}`;
  const generated = `${base} ${r.pick(wordPool)}${type === "private" || type === "public" ? ` ${r.pick(NAME_SUFFIXES)}` : ""}`.trim();
  const name = ctx.special.get(id) ?? generated;
  let domainStem = slug(name.replace(/\b(Inc\.|LLC|Corp\.|Co\.|Ltd\.)$/, ""));
  if (ctx.domains.has(domainStem)) domainStem = `${domainStem}${id}`;
  ctx.domains.add(domainStem);
  const tld = type === "education" ? "edu" : type === "government" ? "gov" : type === "npo" ? "org" : "com";
  return { base, name, domainStem, domain: `${domainStem}.${tld}` };
}

export interface Place {
  cityIndex: number;
  city: City;
  zip: ZipPoint;
  country: Country;
  street: string;
}

/** Location: a sub-unit often shares its parent's city. */
function drawPlace(ctx: SeedContext, s: Structure): Place {
  const { r } = ctx;
  const cityIndex = s.isSub && r.chance(0.4) ? ctx.briefs[s.parentId - 1]!.city : weightedCity(ctx);
  const city = CITIES[cityIndex]!;
  const zip = r.pick(ctx.cityZipList[cityIndex]!);
  const country = COUNTRY_BY_CODE.get(city.countryCode)!;
  const street = `${r.int(1, 9800)} ${r.pick(STREET_NAMES)} ${r.pick(STREET_KINDS)}`;
  return { cityIndex, city, zip, country, street };
}

export interface Money {
  employees: number;
  revenue: number;
  growth1: number;
  growth2: number;
  foundedYear: number;
  defunct: boolean;
  status: string;
  certified: number;
  businessModels: string[];
  budgets: { marketing: number; finance: number; it: number; hr: number };
}

function drawBudgets(r: Random, revenue: number): Money["budgets"] {
  return {
    marketing: Math.round(revenue * (0.04 + r.next() * 0.08)),
    finance: Math.round(revenue * (0.01 + r.next() * 0.02)),
    it: Math.round(revenue * (0.03 + r.next() * 0.05)),
    hr: Math.round(revenue * (0.01 + r.next() * 0.02)),
  };
}

/** Size and money, by type. */
function drawMoney(r: Random, type: string | null, isSub: boolean): Money {
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
  const budgets = drawBudgets(r, revenue);
  return { employees, revenue, growth1, growth2, foundedYear, defunct, status, certified, businessModels, budgets };
}

/** A ticker for a public company, unique among those drawn (null when none was free). */
function drawTicker(ctx: SeedContext, type: string | null, name: string): string | null {
  if (type !== "public") return null;
  const { r, tickers } = ctx;
  const letters = name.replace(/[^A-Za-z]/g, "").toUpperCase();
  let candidate = letters.slice(0, r.int(3, 4));
  for (let k = 0; tickers.has(candidate) && k < 20; k++)
    candidate = letters.slice(0, 2) + String.fromCharCode(65 + r.int(0, 25)) + String.fromCharCode(65 + r.int(0, 25));
  if (tickers.has(candidate)) return null;
  tickers.add(candidate);
  return candidate;
}

export interface FundingRound {
  date: string;
  type: string;
  amount: number;
  investors: string[];
}

/** A private company's venture rounds, oldest first, and now and then a late round beside them. */
function ventureRounds(r: Random, foundedYear: number): FundingRound[] {
  const rounds: FundingRound[] = [];
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
  return rounds;
}

/** Funding history by type, in date order. */
function drawFunding(r: Random, type: string | null, foundedYear: number): FundingRound[] {
  let rounds: FundingRound[] = [];
  if (type === "private" && foundedYear >= 1995 && r.chance(0.35)) {
    rounds = ventureRounds(r, foundedYear);
  } else if (type === "public" && r.chance(0.3)) {
    rounds.push({ date: daysBefore(r.int(200, 9000)), type: "ipo", amount: r.int(50_000, 2_000_000), investors: [] });
  } else if ((type === "npo" || type === "education") && r.chance(0.3)) {
    rounds.push({ date: daysBefore(r.int(10, 2000)), type: "grant", amount: r.int(50, 5000), investors: [] });
  }
  return rounds.sort((a, b) => a.date.localeCompare(b.date));
}

export interface Tags {
  tech: string[];
  hashtags: string[];
  rankings: string[];
}

function drawTags(r: Random, type: string | null, m: Money): Tags {
  const tech = r.sample(TECH_PRODUCTS, r.int(1, 7)).map((t) => t.id);
  const hashtags = r.sample(HASHTAGS, r.int(0, 3)).map((h) => h.id);
  const rankings: string[] = [];
  if (type === "public" && m.revenue >= 5_000_000) rankings.push("fortune-500");
  if (type === "public" && m.revenue >= 1_000_000) rankings.push("fortune-1000");
  if (m.revenue >= 10_000_000) rankings.push("global-2000");
  if (type === "private" && m.growth1 >= 30 && m.employees < 1000) rankings.push("inc-5000");
  return { tech, hashtags, rankings };
}

/** Everything drawn for one company before it is written. */
export interface SeededCompany {
  id: number;
  s: Structure;
  industries: string[];
  primaryIndustry: Industry;
  naming: Naming;
  place: Place;
  money: Money;
  ticker: string | null;
  rounds: FundingRound[];
  tags: Tags;
}

export function drawCompany(ctx: SeedContext, id: number): SeededCompany {
  const { r } = ctx;
  const s = drawStructure(ctx, id);
  const industries = drawIndustries(r, s.type);
  const primaryIndustry = INDUSTRY_BY_ID.get(industries[0]!)!;
  const naming = drawName(ctx, id, s.type, industries[0]!);
  const place = drawPlace(ctx, s);
  const money = drawMoney(r, s.type, s.isSub);
  const ticker = drawTicker(ctx, s.type, naming.name);
  const rounds = drawFunding(r, s.type, money.foundedYear);
  const tags = drawTags(r, s.type, money);
  return { id, s, industries, primaryIndustry, naming, place, money, ticker, rounds, tags };
}
