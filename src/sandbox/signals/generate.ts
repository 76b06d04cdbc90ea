// Deterministic signals for every seeded company, derived from the seed and the company id (no
// table: the same company always gets the same signals). Dates are kept as days before "today",
// so they stay within their windows whatever the sandbox's clock says.
import type Database from "better-sqlite3";
import { AUDIENCE_STRENGTHS } from "../../core/contract/index.js";
import { Random } from "../data/random.js";
import { plainDomain } from "../match/normalize.js";
import { rowsOfIds } from "../store/rowsOfIds.js";
import {
  EXAMPLE_TOPICS,
  NEWS_CATEGORIES,
  NEWS_DOMAINS,
  SCOOP_DEPARTMENTS,
  SCOOP_TOPICS,
  SCOOP_TYPES,
  SEEDED_TOPICS,
  TECH_BY_ID,
  TYPE_DEPARTMENTS,
  type TechEntry,
  type Topic,
} from "./catalog.js";

export interface IntentRow {
  companyId: number;
  topic: Topic;
  score: number;
  strength: string;
  /** Days before today. */
  age: number;
  spikes: number;
  hasOtherTopicConsumption: boolean;
  /** Picks among the company's contacts (0..1 each). */
  contactPicks: number[];
}

export interface ScoopRow {
  id: string;
  companyId: number;
  types: string[];
  topics: string[];
  department: string;
  age: number;
  /** Days between the first publication and the update (0: never updated). */
  updatedAfter: number;
  template: number;
  contactPicks: number[];
}

export interface NewsRow {
  companyId: number;
  n: number;
  categories: string[];
  domain: string;
  age: number;
  template: number;
}

export interface InstalledTech {
  tech: TechEntry;
  /** Days before today the technology was first and last seen. */
  createdAge: number;
  modifiedAge: number;
}

/** Up to `count` distinct topics, popular ones more often. */
function pickTopics(r: Random, count: number): Topic[] {
  const pool = SEEDED_TOPICS.slice();
  const out: Topic[] = [];
  while (out.length < count && pool.length > 0) {
    const t = r.weighted(
      pool,
      pool.map((p) => p.weight),
    );
    out.push(t);
    pool.splice(pool.indexOf(t), 1);
  }
  return out;
}

const rngFor = (seed: number, companyId: number, salt: number) => new Random((seed * 2_654_435_761 + companyId * 40_503 + salt * 97_813) >>> 0);

export function intentsFor(seed: number, companyId: number): IntentRow[] {
  const r = rngFor(seed, companyId, 1);
  const seeded = r.chance(0.8) ? pickTopics(r, r.int(2, 8)) : [];
  // The service's example topics come from a stream of their own, so the seeded topics stay the same.
  const x = rngFor(seed, companyId, 5);
  const example = x.chance(0.25) ? [x.pick(EXAMPLE_TOPICS)] : [];
  const count = seeded.length + example.length;
  return [...seeded.map((topic) => intentRow(r, companyId, topic, count)), ...example.map((topic) => intentRow(x, companyId, topic, count))];
}

function intentRow(r: Random, companyId: number, topic: Topic, topicCount: number): IntentRow {
  const score = Math.min(100, 60 + Math.floor(Math.abs(r.logNormal(8, 0.8))));
  return {
    companyId,
    topic,
    score,
    strength: AUDIENCE_STRENGTHS[Math.min(4, Math.floor((100 - score) / 9 + r.next() * 1.5))]!,
    age: r.int(0, 83),
    spikes: r.int(0, 4),
    hasOtherTopicConsumption: topicCount > 1,
    contactPicks: Array.from({ length: r.int(1, 3) }, () => r.next()),
  };
}

export function scoopsFor(seed: number, companyId: number): ScoopRow[] {
  const r = rngFor(seed, companyId, 2);
  const count = r.weighted([0, 1, 2, 3, 4, 5], [3, 4, 3, 2, 1, 1]);
  return Array.from({ length: count }, (_, n) => {
    const type = r.pick(SCOOP_TYPES).key;
    const types = r.chance(0.15) ? [type, r.pick(SCOOP_TYPES).key].filter((v, i, a) => a.indexOf(v) === i) : [type];
    const departments = TYPE_DEPARTMENTS[type];
    const personal = type === "hire" || type === "left-company" || type === "promotion";
    return {
      id: String(companyId * 16 + n),
      companyId,
      types,
      topics: r.sample(SCOOP_TOPICS, r.int(1, 2)).map((t) => t.key),
      department: departments ? r.pick(departments) : r.pick(SCOOP_DEPARTMENTS).key,
      age: r.int(0, 364),
      updatedAfter: r.chance(0.2) ? r.int(1, 20) : 0,
      template: r.int(0, 1000),
      contactPicks: Array.from({ length: personal ? 1 : r.int(0, 2) }, () => r.next()),
    };
  }).sort((a, b) => a.age - b.age);
}

export function newsFor(seed: number, companyId: number): NewsRow[] {
  const r = rngFor(seed, companyId, 3);
  const count = r.weighted([0, 1, 2, 3, 4], [3, 4, 3, 2, 1]);
  return Array.from({ length: count }, (_, n) => ({
    companyId,
    n,
    categories: r.sample(NEWS_CATEGORIES, r.int(1, 2)).map((c) => c.name),
    domain: r.pick(NEWS_DOMAINS),
    age: r.int(0, 179),
    template: r.int(0, 1000),
  })).sort((a, b) => a.age - b.age);
}

export function technologiesFor(seed: number, companyId: number, techIds: readonly string[]): InstalledTech[] {
  const r = rngFor(seed, companyId, 4);
  return techIds.flatMap((id) => {
    const tech = TECH_BY_ID.get(id);
    if (!tech) return [];
    const createdAge = r.int(30, 2000);
    return [{ tech, createdAge, modifiedAge: r.int(0, Math.min(createdAge, 90)) }];
  });
}

export interface CompanyInfo {
  id: number;
  name: string;
  website: string | null;
  domain: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
}

export interface ContactInfo {
  id: number;
  first_name: string;
  last_name: string;
  job_title: string | null;
  job_function: string | null;
  company_name: string;
}

/** Every company's signals of one kind, built on first use (searches read across companies). */
export interface SignalData {
  seed: number;
  allIntents(): IntentRow[];
  allScoops(): ScoopRow[];
  allNews(): NewsRow[];
  intentsOf(companyId: number): IntentRow[];
  scoopsOf(companyId: number): ScoopRow[];
  newsOf(companyId: number): NewsRow[];
  technologiesOf(companyId: number): InstalledTech[];
  companies(ids: number[]): Map<number, CompanyInfo>;
  contactsOf(companyId: number): ContactInfo[];
  /** Company ids by website (plain domain) or exact name, case-insensitive. */
  findCompanies(by: { name?: string; website?: string }): number[];
}

const CONTACT_CACHE = 5000;

export function createSignalData(db: Database.Database, seed: number): SignalData {
  const idsStatement = db.prepare("SELECT id FROM companies ORDER BY id");
  const infoStatement = db.prepare("SELECT id, name, website, domain, city, state, country FROM companies WHERE id IN (SELECT value FROM json_each(?))");
  const contactsStatement = db.prepare(
    "SELECT id, first_name, last_name, job_title, job_function, company_name FROM contacts WHERE company_id = ? ORDER BY id",
  );
  const detailsStatement = db.prepare("SELECT details FROM company_texts WHERE id = ?");
  const byDomain = db.prepare("SELECT id FROM companies WHERE domain = ? ORDER BY id");
  const byName = db.prepare("SELECT id FROM companies WHERE name = ? COLLATE NOCASE ORDER BY id");
  let ids: number[] | undefined;
  const allIds = () => (ids ??= (idsStatement.all() as { id: number }[]).map((r) => r.id));
  const built = <T>(make: (id: number) => T[]) => {
    let all: T[] | undefined;
    return () => (all ??= allIds().flatMap(make));
  };
  const contacts = new Map<number, ContactInfo[]>();
  return {
    seed,
    allIntents: built((id) => intentsFor(seed, id)),
    allScoops: built((id) => scoopsFor(seed, id)),
    allNews: built((id) => newsFor(seed, id)),
    intentsOf: (id) => intentsFor(seed, id),
    scoopsOf: (id) => scoopsFor(seed, id),
    newsOf: (id) => newsFor(seed, id),
    technologiesOf(id) {
      const row = detailsStatement.get(id) as { details: string | null } | undefined;
      if (!row) return [];
      const details = row.details ? (JSON.parse(row.details) as { tech?: string[] }) : {};
      return technologiesFor(seed, id, details.tech ?? []);
    },
    companies: (list) => rowsOfIds<CompanyInfo>(infoStatement, list),
    contactsOf(id) {
      let list = contacts.get(id);
      if (!list) {
        list = contactsStatement.all(id) as ContactInfo[];
        if (contacts.size >= CONTACT_CACHE) contacts.delete(contacts.keys().next().value as number);
        contacts.set(id, list);
      }
      return list;
    },
    findCompanies({ name, website }) {
      if (website !== undefined) {
        return (byDomain.all(plainDomain(website)) as { id: number }[]).map((r) => r.id);
      }
      if (name !== undefined) return (byName.all(name.trim()) as { id: number }[]).map((r) => r.id);
      return [];
    },
  };
}

/** The contacts a row's picks choose among the company's contacts (distinct, in pick order). */
export function pickedContacts(all: readonly ContactInfo[], picks: readonly number[]): ContactInfo[] {
  if (all.length === 0) return [];
  const out: ContactInfo[] = [];
  for (const p of picks) {
    const c = all[Math.floor(p * all.length)]!;
    if (!out.includes(c)) out.push(c);
  }
  return out;
}
