// Each signal operation over the generated data: which rows a request selects, in what order,
// and how a row reads on the wire. Strings are built from the seeded names, never from input.
import { AUDIENCE_STRENGTHS, ERROR_CODES, companyIdsOf, type ValidationIssue } from "../../core/contract/index.js";
import { TOPIC_BY_NAME, SCOOP_TYPES, SCOOP_TOPICS, SCOOP_DEPARTMENTS, NEWS_CATEGORIES, slug } from "./catalog.js";
import { pickedContacts, type CompanyInfo, type IntentRow, type NewsRow, type ScoopRow, type SignalData } from "./generate.js";

const DAY_MS = 86_400_000;
/** The date `age` days before `now`, as YYYY-MM-DD. */
export const dayString = (now: number, age: number) => new Date(now - age * DAY_MS).toISOString().slice(0, 10);
/** How many days before `now` a YYYY-MM-DD date lies (negative: in the future). */
const ageOf = (now: number, date: string) => Math.round((Date.parse(dayString(now, 0)) - Date.parse(date)) / DAY_MS);

type Attrs = Record<string, unknown>;
const csvOf = (value: unknown) => (typeof value === "string" ? value.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean) : []);

/** Topics as lookup names; unknown ones are a 400 so a misspelt topic does not look like "no intent". */
export function topicIssues(topics: unknown): ValidationIssue[] {
  if (!Array.isArray(topics)) return [];
  return topics.flatMap((t, i) =>
    typeof t === "string" && !TOPIC_BY_NAME.has(t.trim().toLowerCase())
      ? [{ pointer: `/data/attributes/topics/${i}`, label: "Topics", rule: "oneOf", code: ERROR_CODES.invalidValue, message: `"${t}" is not an intent topic: the lookup intent-topics lists them.` }]
      : [],
  );
}

/** Whether an intent row passes the signal filters (topics, dates, score, strength). */
export function intentMatcher(a: Attrs, now: number): (row: IntentRow) => boolean {
  const topics = new Set((Array.isArray(a.topics) ? a.topics : []).map((t) => String(t).trim().toLowerCase()));
  const newest = typeof a.signalEndDate === "string" ? ageOf(now, a.signalEndDate) : -Infinity;
  const oldest = typeof a.signalStartDate === "string" ? ageOf(now, a.signalStartDate) : Infinity;
  const lo = typeof a.signalScoreMin === "number" ? a.signalScoreMin : 0;
  const hi = typeof a.signalScoreMax === "number" ? a.signalScoreMax : 100;
  // A is the strongest: the range "A".."C" is the first three letters.
  const sLo = AUDIENCE_STRENGTHS.indexOf((a.audienceStrengthMin as "A") ?? "A");
  const sHi = AUDIENCE_STRENGTHS.indexOf((a.audienceStrengthMax as "E") ?? "E");
  return (row) => {
    const s = AUDIENCE_STRENGTHS.indexOf(row.strength as "A");
    return topics.has(row.topic.name.toLowerCase()) && row.age >= newest && row.age <= oldest && row.score >= lo && row.score <= hi && s >= sLo && s <= sHi;
  };
}

export function scoopMatcher(a: Attrs, now: number): (row: ScoopRow) => boolean {
  const types = csvOf(a.scoopType);
  const topics = csvOf(a.scoopTopic);
  const departments = csvOf(a.department);
  const ids = csvOf(a.scoopId);
  const newest = typeof a.publishedEndDate === "string" ? ageOf(now, a.publishedEndDate) : -Infinity;
  const oldest = typeof a.publishedStartDate === "string" ? ageOf(now, a.publishedStartDate) : Infinity;
  const words = typeof a.description === "string" ? a.description.toLowerCase().split(/\s+/).filter(Boolean) : [];
  return (row) =>
    (types.length === 0 || row.types.some((t) => types.includes(t) || types.includes(nameOf(SCOOP_TYPES, t).toLowerCase()))) &&
    (topics.length === 0 || row.topics.some((t) => topics.includes(t))) &&
    (departments.length === 0 || departments.includes(row.department)) &&
    (ids.length === 0 || ids.includes(row.id)) &&
    (a.updatedSinceCreation !== true || row.updatedAfter > 0) &&
    row.age >= newest &&
    row.age <= oldest &&
    (words.length === 0 || words.every((w) => scoopText(row, "").description.toLowerCase().includes(w)));
}

export function newsMatcher(a: Attrs, now: number): (row: NewsRow) => boolean {
  const categories = csvOf(a.categories);
  const newest = typeof a.pageDateMax === "string" ? ageOf(now, a.pageDateMax) : -Infinity;
  const oldest = typeof a.pageDateMin === "string" ? ageOf(now, a.pageDateMin) : Infinity;
  const url = typeof a.url === "string" ? a.url.trim().toLowerCase() : undefined;
  return (row) =>
    (categories.length === 0 || row.categories.some((c) => categories.includes(c.toLowerCase()) || categories.includes(idOf(NEWS_CATEGORIES, c)))) &&
    row.age >= newest &&
    row.age <= oldest &&
    (url === undefined || newsUrl(row).toLowerCase() === url);
}

const nameOf = (table: { id: string; name: string }[], id: string) => table.find((t) => t.id === id)?.name ?? id;
const idOf = (table: { id: string; name: string }[], name: string) => table.find((t) => t.name === name)?.id ?? name;

// ---------- ordering ----------

type Sorter<R> = Record<string, (row: R) => number | string>;
export const INTENT_SORTS: Sorter<IntentRow> = { signalScore: (r) => r.score, signalDate: (r) => -r.age, topic: (r) => r.topic.name, audienceStrength: (r) => r.strength };
export const SCOOP_SORTS: Sorter<ScoopRow> = { publishedDate: (r) => -r.age };
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

export function intentAttributes(row: IntentRow, data: SignalData, company: CompanyInfo | undefined, now: number, options: { contacts: boolean; locations: boolean }): Attrs {
  const out: Attrs = {
    category: row.topic.category,
    topic: row.topic.name,
    signalScore: row.score,
    audienceStrength: row.strength,
    signalDate: dayString(now, row.age),
    spikesInDateRange: row.spikes,
    company: { id: row.companyId, name: company?.name ?? "", ...(company?.website ? { website: company.website } : {}), hasOtherTopicConsumption: row.hasOtherTopicConsumption },
  };
  if (options.contacts) {
    out.recommendedContacts = pickedContacts(data.contactsOf(row.companyId), row.contactPicks).map((c) => ({
      id: c.id,
      firstName: c.first_name,
      lastName: c.last_name,
      ...(c.job_title ? { jobTitle: c.job_title } : {}),
      companyName: c.company_name,
      jobFunctions: c.job_function ? [c.job_function] : [],
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

function scoopText(row: ScoopRow, companyName: string): { linkText: string; description: string } {
  const type = row.types[0] ?? "project";
  const topic = nameOf(SCOOP_TOPICS, row.topics[0] ?? "");
  const department = nameOf(SCOOP_DEPARTMENTS, row.department);
  const headline = (HEADLINES[type] ?? HEADLINES.project!)(companyName || "The company");
  return { linkText: headline, description: `${headline}. The ${department} department is involved; the work concerns ${topic}.` };
}

export function scoopAttributes(row: ScoopRow, data: SignalData, company: CompanyInfo | undefined, now: number): Attrs {
  const { linkText, description } = scoopText(row, company?.name ?? "");
  const published = dayString(now, row.age);
  return {
    id: row.id,
    publishedDate: published,
    originalPublishedDate: row.updatedAfter > 0 ? dayString(now, row.age + row.updatedAfter) : published,
    linkText,
    link: `https://scoops.sandbox.example/${row.id}`,
    description,
    topics: row.topics.map((t) => nameOf(SCOOP_TOPICS, t)),
    types: row.types.map((t) => nameOf(SCOOP_TYPES, t)),
    ...(row.updatedAfter > 0 ? { updateText: `Updated ${row.updatedAfter} days after first publication.` } : {}),
    company: { id: row.companyId, name: company?.name ?? "" },
    contacts: pickedContacts(data.contactsOf(row.companyId), row.contactPicks).map((c) => ({
      id: c.id,
      firstName: c.first_name,
      lastName: c.last_name,
      ...(c.job_title ? { jobTitle: c.job_title } : {}),
      jobFunction: c.job_function ? [c.job_function] : [],
    })),
  };
}

const NEWS_TITLES = [
  (n: string, c: string) => `${n} in the news: ${c.toLowerCase()}`,
  (n: string, c: string) => `What ${c.toLowerCase()} means for ${n}`,
  (n: string, c: string) => `${n}: ${c} update`,
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
    pageDate: dayString(now, row.age),
    categories: row.categories,
    description: `${title}. Reported by ${row.domain}.`,
    company: [{ id: row.companyId, name: company?.name ?? "" }],
  };
}

export function technologyAttributes(t: ReturnType<SignalData["technologiesOf"]>[number], now: number): Attrs {
  return {
    categoryParent: t.tech.categoryParent,
    category: t.tech.category,
    vendor: t.tech.vendor,
    product: t.tech.product,
    attribute: slug(t.tech.product),
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
