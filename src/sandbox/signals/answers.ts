// Each signal operation over the generated data: which rows a request selects, in what order,
// and how a row reads on the wire. Strings are built from the seeded names, never from input.
import { AUDIENCE_STRENGTHS, companyIdsOf, type Technology } from "../../core/contract/index.js";
import { DEPARTMENTS } from "../data/reference.js";
import { NEWS_CATEGORIES, SCOOP_DEPARTMENTS, SCOOP_TOPICS, SCOOP_TYPES, namedEntry, type Named } from "./catalog.js";
import { pickedContacts, type CompanyInfo, type IntentRow, type NewsRow, type ScoopRow, type SignalData } from "./generate.js";

const DAY_MS = 86_400_000;
/** The date `age` days before `now`, as YYYY-MM-DD. */
export const dayString = (now: number, age: number) => new Date(now - age * DAY_MS).toISOString().slice(0, 10);
/** The same day as the service writes its signal dates: a date-time at midnight UTC. */
const dateTime = (now: number, age: number) => `${dayString(now, age)}T00:00:00Z`;
/** How many days before `now` a YYYY-MM-DD date lies (negative: in the future). */
const ageOf = (now: number, date: string) => Math.round((Date.parse(dayString(now, 0)) - Date.parse(date)) / DAY_MS);

type Attrs = Record<string, unknown>;
const csvOf = (value: unknown) =>
  typeof value === "string"
    ? value
        .split(",")
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean)
    : [];

/** Whether an intent row passes the signal filters (topics, dates, score, strength). */
export function intentMatcher(a: Attrs, now: number): (row: IntentRow) => boolean {
  const topics = new Set((Array.isArray(a.topics) ? a.topics : []).map((t) => String(t).trim().toLowerCase()));
  const newest = typeof a.signalEndDate === "string" ? ageOf(now, a.signalEndDate) : -Infinity;
  const oldest = typeof a.signalStartDate === "string" ? ageOf(now, a.signalStartDate) : Infinity;
  const lo = typeof a.signalScoreMin === "number" ? a.signalScoreMin : 0;
  const hi = typeof a.signalScoreMax === "number" ? a.signalScoreMax : 100;
  // A is the strongest. The service's example asks Min "C", Max "A"; either order names the
  // letters between the two.
  const ends = [AUDIENCE_STRENGTHS.indexOf((a.audienceStrengthMin as "A") ?? "E"), AUDIENCE_STRENGTHS.indexOf((a.audienceStrengthMax as "A") ?? "A")].map(
    (i) => (i < 0 ? 0 : i),
  );
  const sLo = Math.min(...ends);
  const sHi = Math.max(...ends);
  return (row) => {
    const s = AUDIENCE_STRENGTHS.indexOf(row.strength as "A");
    return topics.has(row.topic.name.toLowerCase()) && row.age >= newest && row.age <= oldest && row.score >= lo && row.score <= hi && s >= sLo && s <= sHi;
  };
}

/** The keys a comma-separated list of ids, keys or names stands for (unknown values match nothing). */
const keysOf = (table: readonly Named[], value: unknown) => new Set(csvOf(value).map((v) => namedEntry(table, v)?.key ?? `?${v}`));

export function scoopMatcher(a: Attrs, now: number): (row: ScoopRow) => boolean {
  const types = keysOf(SCOOP_TYPES, a.scoopType);
  const topics = keysOf(SCOOP_TOPICS, a.scoopTopic);
  const departments = keysOf(SCOOP_DEPARTMENTS, a.department);
  const ids = csvOf(a.scoopId);
  const newest = typeof a.publishedEndDate === "string" ? ageOf(now, a.publishedEndDate) : -Infinity;
  const oldest = typeof a.publishedStartDate === "string" ? ageOf(now, a.publishedStartDate) : Infinity;
  const words = typeof a.description === "string" ? a.description.toLowerCase().split(/\s+/).filter(Boolean) : [];
  return (row) =>
    (types.size === 0 || row.types.some((t) => types.has(t))) &&
    (topics.size === 0 || row.topics.some((t) => topics.has(t))) &&
    (departments.size === 0 || departments.has(row.department)) &&
    (ids.length === 0 || ids.includes(row.id)) &&
    (a.updatedSinceCreation !== true || row.updatedAfter > 0) &&
    row.age >= newest &&
    row.age <= oldest &&
    (words.length === 0 || words.every((w) => scoopText(row, "").description.toLowerCase().includes(w)));
}

/** News categories and article addresses are lists of strings (the service's NewsRequestAttributes). */
const listOf = (value: unknown) => (Array.isArray(value) ? value.map((v) => String(v).trim().toLowerCase()) : csvOf(value));

export function newsMatcher(a: Attrs, now: number): (row: NewsRow) => boolean {
  const categories = new Set(listOf(a.categories).map((c) => namedEntry(NEWS_CATEGORIES, c)?.key ?? `?${c}`));
  const newest = typeof a.pageDateMax === "string" ? ageOf(now, a.pageDateMax) : -Infinity;
  const oldest = typeof a.pageDateMin === "string" ? ageOf(now, a.pageDateMin) : Infinity;
  const urls = listOf(a.url);
  return (row) =>
    (categories.size === 0 || row.categories.some((c) => categories.has(c))) &&
    row.age >= newest &&
    row.age <= oldest &&
    (urls.length === 0 || urls.includes(newsUrl(row).toLowerCase()));
}

const nameOf = (table: readonly Named[], key: string) => table.find((t) => t.key === key)?.name ?? key;
/** A vocabulary value on the wire: {id, type} for scoop types, {id, topic} for scoop topics. */
const wireNamed = (table: readonly Named[], field: "type" | "topic") => (key: string) => {
  const entry = table.find((t) => t.key === key);
  return { id: entry?.id ?? key, [field]: entry?.name ?? key };
};

// ---------- ordering ----------

type Sorter<R> = Record<string, (row: R) => number | string>;
/** Intent search's sorts and intent enrich's lower-case ones (the service publishes both). */
const INTENT_KEYS: Sorter<IntentRow> = {
  signalScore: (r) => r.score,
  signalDate: (r) => -r.age,
  topic: (r) => r.topic.name,
  audienceStrength: (r) => r.strength,
  category: (r) => r.topic.category,
  companyName: (r) => r.companyId,
};
export const INTENT_SORTS: Sorter<IntentRow> = {
  ...INTENT_KEYS,
  audiencestrength: INTENT_KEYS.audienceStrength!,
  category: INTENT_KEYS.category!,
  companybname: INTENT_KEYS.companyName!,
  issuedate: INTENT_KEYS.signalDate!,
  signaldate: INTENT_KEYS.signalDate!,
  signalscore: INTENT_KEYS.signalScore!,
  signalstrength: INTENT_KEYS.audienceStrength!,
  surgescore: (r) => r.spikes,
  topic: INTENT_KEYS.topic!,
};
export const SCOOP_SORTS: Sorter<ScoopRow> = {
  originalPublishedDate: (r) => -(r.age + r.updatedAfter),
  scoopId: (r) => r.id,
  description: (r) => scoopText(r, "").description,
  link: (r) => r.id,
  linkText: (r) => scoopText(r, "").linkText,
};
/** News takes no sort: newest first. */
export const NEWS_ORDER = "-pageDate";
export const NEWS_SORTS: Sorter<NewsRow> = { pageDate: (r) => -r.age };

/** Rows in the sort's order; ties by company id then position, so pages never overlap. */
export function sorted<R extends { companyId: number }>(rows: R[], sort: string, sorts: Sorter<R>, tie: (r: R) => number): R[] {
  const desc = sort.startsWith("-");
  const key = sorts[desc ? sort.slice(1) : sort]!;
  const dir = desc ? -1 : 1;
  return rows.slice().sort((x, y) => {
    const a = key(x);
    const b = key(y);
    if (a !== b) return (a < b ? -1 : 1) * dir;
    return x.companyId - y.companyId || tie(x) - tie(y);
  });
}

// ---------- the wire ----------

/** A contact's job function as the service writes it: {name, department}. */
function jobFunctions(name: string | null): { name: string; department: string }[] {
  if (!name) return [];
  return [{ name, department: DEPARTMENTS.find((d) => d.functions.includes(name))?.name ?? "Other" }];
}

export function intentAttributes(
  row: IntentRow,
  data: SignalData,
  company: CompanyInfo | undefined,
  now: number,
  options: { contacts: boolean; locations: boolean },
): Attrs {
  const out: Attrs = {
    category: row.topic.category,
    topic: row.topic.name,
    signalScore: row.score,
    audienceStrength: row.strength,
    signalDate: dateTime(now, row.age),
    spikesInDateRange: row.spikes,
    company: {
      id: String(row.companyId),
      name: company?.name ?? "",
      ...(company?.website ? { website: company.website } : {}),
      hasOtherTopicConsumption: row.hasOtherTopicConsumption,
    },
  };
  if (options.contacts) {
    out.recommendedContacts = pickedContacts(data.contactsOf(row.companyId), row.contactPicks).map((c) => ({
      id: String(c.id),
      firstName: c.first_name,
      lastName: c.last_name,
      ...(c.job_title ? { jobTitle: c.job_title } : {}),
      companyName: c.company_name,
      jobFunctions: jobFunctions(c.job_function),
    }));
  }
  if (options.locations && company) out.topSignalLocations = [{ city: company.city ?? "", state: company.state ?? "", country: company.country ?? "" }];
  return out;
}

const HEADLINES: Record<string, (name: string) => string> = {
  funding: (n) => `${n} raises a new funding round`,
  hire: (n) => `${n} appoints a new leader`,
  "left-company": (n) => `A senior leader leaves ${n}`,
  promotion: (n) => `${n} promotes from within`,
  "new-location": (n) => `${n} opens a new office`,
  "facility-expansion": (n) => `${n} expands a facility`,
  partnership: (n) => `${n} announces a partnership`,
  earnings: (n) => `${n} reports quarterly earnings`,
  acquisition: (n) => `${n} agrees an acquisition`,
  "product-launch": (n) => `${n} launches a product`,
  layoffs: (n) => `${n} reduces its workforce`,
  award: (n) => `${n} wins an industry award`,
  project: (n) => `${n} plans a new project`,
};

export function scoopText(row: ScoopRow, companyName: string): { linkText: string; description: string } {
  const type = row.types[0] ?? "project";
  const topic = nameOf(SCOOP_TOPICS, row.topics[0] ?? "");
  const department = nameOf(SCOOP_DEPARTMENTS, row.department);
  const headline = (HEADLINES[type] ?? HEADLINES.project!)(companyName || "The company");
  return { linkText: headline, description: `${headline}. The ${department} department is involved; the work concerns ${topic}.` };
}

export function scoopAttributes(row: ScoopRow, data: SignalData, company: CompanyInfo | undefined, now: number): Attrs {
  const { linkText, description } = scoopText(row, company?.name ?? "");
  const published = dateTime(now, row.age);
  return {
    id: row.id,
    publishedDate: published,
    originalPublishedDate: row.updatedAfter > 0 ? dateTime(now, row.age + row.updatedAfter) : published,
    linkText,
    link: `https://scoops.sandbox.example/${row.id}`,
    description,
    topics: row.topics.map(wireNamed(SCOOP_TOPICS, "topic")),
    types: row.types.map(wireNamed(SCOOP_TYPES, "type")),
    ...(row.updatedAfter > 0 ? { updateText: `Updated ${row.updatedAfter} days after first publication.` } : {}),
    company: { id: String(row.companyId), name: company?.name ?? "" },
    contacts: pickedContacts(data.contactsOf(row.companyId), row.contactPicks).map((c) => ({
      id: c.id,
      firstName: c.first_name,
      lastName: c.last_name,
      ...(c.job_title ? { jobTitle: c.job_title } : {}),
      jobFunction: jobFunctions(c.job_function),
    })),
  };
}

/** A category code in words ("GENERAL_NEWS" -> "general news"). */
const inWords = (code: string) => code.toLowerCase().replace(/_/g, " ");
const NEWS_TITLES = [
  (n: string, c: string) => `${n} in the news: ${inWords(c)}`,
  (n: string, c: string) => `What ${inWords(c)} means for ${n}`,
  (n: string, c: string) => `${n}: ${inWords(c)} update`,
];

function newsUrl(row: NewsRow): string {
  return `https://www.${row.domain}/news/${row.companyId}-${row.n}`;
}

export function newsAttributes(row: NewsRow, company: CompanyInfo | undefined, now: number): Attrs {
  const name = company?.name ?? "The company";
  const title = NEWS_TITLES[row.template % NEWS_TITLES.length]!(name, row.categories[0] ?? "News");
  return {
    domain: row.domain,
    title,
    url: newsUrl(row),
    imageUrl: `https://images.sandbox.example/news/${row.companyId}-${row.n}.jpg`,
    pageDate: dateTime(now, row.age),
    categories: row.categories,
    description: `${title}. Reported by ${row.domain}.`,
    company: [{ id: row.companyId, name: company?.name ?? "" }],
  };
}

/** A technology as the contract's one technology schema describes it. */
export function technologyAttributes(t: ReturnType<SignalData["technologiesOf"]>[number], now: number): Technology {
  return {
    categoryParent: t.tech.categoryParent,
    category: t.tech.category,
    vendor: t.tech.vendor,
    product: t.tech.product,
    attribute: t.tech.tag,
    website: `https://www.${t.tech.website}`,
    logo: `https://logo.sandbox.example/${t.tech.website}.png`,
    domain: t.tech.website,
    createdDate: dayString(now, t.createdAge),
    modifiedDate: dayString(now, t.modifiedAge),
    description: `${t.tech.product} (${t.tech.category}) by ${t.tech.vendor}.`,
  };
}

/** The companies an enrich input names: ids, or a website or a name matched like company enrich. */
export function companiesOfInput(a: Attrs, data: SignalData): number[] {
  if (a.companyId !== undefined) return companyIdsOf(a.companyId);
  if (typeof a.companyWebsite === "string") return data.findCompanies({ website: a.companyWebsite }).slice(0, 1);
  if (typeof a.companyName === "string") return data.findCompanies({ name: a.companyName }).slice(0, 1);
  return [];
}
