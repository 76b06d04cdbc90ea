// The resolver step in front of the batcher: what an input names, as the key the batcher works
// on. An id is its record's key. Match criteria (a website, a company name with an optional
// country or city, an email address, a person's name with a company: what a sales-ops list holds
// instead of ids) are normalized into service match inputs, each with a key: two spellings of one
// website, or one name in different case, spacing and punctuation, share a key and are asked
// once. Legal suffixes are NOT removed: "Northwind GmbH" and "Northwind Ltd" may be different
// companies, and only the service can tell. When the match cache knows the criteria's record
// they become that record's key, when it knows they miss they are answered with the miss, and
// otherwise the criteria themselves are the input, under their match key.
import type { MatchCompanyInput, MatchPersonInput, RecordKind } from "../contract/index.js";
import { recordKey, type MatchCache, type MatchMiss } from "./caches.js";
import { declaredKind, parseRecordId, type EnrichmentKind, type KindName } from "./enrichKinds.js";
import { problems, type CellProblem } from "./problems.js";

// ---------- match criteria and their keys ----------

export type Normalized = { ok: true; value: string } | { ok: false; reason: string };

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A website in any usual spelling as its bare domain: scheme, user, port, path, query, "www."
 * and trailing dots removed, lower case ("https://www.Acme.com./about?x" -> "acme.com").
 */
export function normalizeWebsite(raw: unknown): Normalized {
  if (typeof raw !== "string" || raw.trim() === "") return { ok: false, reason: "No website given" };
  let text = raw.trim().toLowerCase();
  text = text.replace(SCHEME, "");
  text = text.split(/[/?#\\]/, 1)[0] ?? "";
  text = text.replace(/^[^@]*@/, ""); // user info (a pasted email's host is its domain)
  text = text.replace(/:\d*$/, "");
  text = text.replace(/\.+$/, "");
  text = text.replace(/^www\d?\./, "");
  const labels = text.split(".");
  const tld = labels[labels.length - 1] ?? "";
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label)) || !/^(?:[a-z]{2,63}|xn--[a-z0-9-]+)$/.test(tld)) {
    return { ok: false, reason: `"${raw.trim()}" is not a website` };
  }
  return { ok: true, value: text };
}

/** Whether text is written as a website (a dotted host and no spaces), not as a name that contains a dot. */
function looksLikeWebsite(raw: unknown): boolean {
  if (typeof raw !== "string") return false;
  const text = raw.trim();
  if (text === "" || /\s/.test(text) || (text.includes("@") && !SCHEME.test(text.toLowerCase()))) return false;
  return normalizeWebsite(text).ok;
}

/** Names compared without case, accents, spacing and punctuation ("ACME, Inc." -> "acme inc"). */
export function normalizeName(raw: unknown): Normalized {
  if (typeof raw !== "string" || raw.trim() === "") return { ok: false, reason: "No name given" };
  const value = raw
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/['’.]/g, "") // "S.A." and "SA", "O'Neil" and "ONeil" are one spelling
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
  if (value === "") return { ok: false, reason: `"${raw.trim()}" is not a name` };
  return { ok: true, value };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@.]{2,}$/;

/** Email addresses match exactly, without case ("mailto:" and surrounding spaces removed). */
export function normalizeEmail(raw: unknown): Normalized {
  if (typeof raw !== "string" || raw.trim() === "") return { ok: false, reason: "No email address given" };
  const value = raw
    .trim()
    .replace(/^mailto:/i, "")
    .toLowerCase();
  if (!EMAIL.test(value)) return { ok: false, reason: `"${raw.trim()}" is not an email address` };
  return { ok: true, value };
}

/** A company to find: by website, or by name narrowed by country and city. */
export interface CompanyCriteria {
  website?: unknown;
  name?: unknown;
  country?: unknown;
  city?: unknown;
}

/** A person to find: by email, or by name together with a company name or id. */
export interface PersonCriteria {
  email?: unknown;
  name?: unknown;
  company?: unknown;
}

export type MatchCriteria = { kind: "company"; criteria: CompanyCriteria } | { kind: "contact"; criteria: PersonCriteria };

export type PreparedMatch =
  | { ok: true; kind: "company"; key: string; input: MatchCompanyInput; label: string }
  | { ok: true; kind: "contact"; key: string; input: MatchPersonInput; label: string }
  | { ok: false; reason: string };

/** Optional text (country, city): blank is absent. */
function optionalText(raw: unknown): string | undefined {
  if (typeof raw === "number") return String(raw);
  if (typeof raw !== "string" || raw.trim() === "") return undefined;
  return raw.trim();
}

function keyPart(raw: string | undefined): string {
  if (raw === undefined) return "";
  const normalized = normalizeName(raw);
  return normalized.ok ? normalized.value : raw.toLowerCase();
}

export function prepareCompanyMatch(criteria: CompanyCriteria): PreparedMatch {
  if (criteria.website !== undefined && optionalText(criteria.website) !== undefined) {
    const website = normalizeWebsite(criteria.website);
    if (!website.ok) return website;
    return { ok: true, kind: "company", key: `company:w:${website.value}`, input: { companyWebsite: website.value }, label: website.value };
  }
  const name = optionalText(criteria.name);
  if (name === undefined) return { ok: false, reason: "Give a website or a company name" };
  const normalized = normalizeName(name);
  if (!normalized.ok) return normalized;
  const country = optionalText(criteria.country);
  const city = optionalText(criteria.city);
  const input: MatchCompanyInput = { companyName: name };
  if (country !== undefined) input.companyCountry = country;
  if (city !== undefined) input.companyCity = city;
  const key = `company:n:${normalized.value}|${keyPart(country)}|${keyPart(city)}`;
  const label = [name, city, country].filter((part) => part !== undefined).join(", ");
  return { ok: true, kind: "company", key, input, label };
}

/** Splits "Jane Doe" for the service; one word is kept as a full name. */
function personName(name: string): Pick<MatchPersonInput, "firstName" | "lastName" | "fullName"> {
  const words = name.split(/\s+/);
  if (words.length === 2) return { firstName: words[0] as string, lastName: words[1] as string };
  return { fullName: name };
}

export function preparePersonMatch(criteria: PersonCriteria): PreparedMatch {
  if (optionalText(criteria.email) !== undefined) {
    const email = normalizeEmail(criteria.email);
    if (!email.ok) return email;
    return { ok: true, kind: "contact", key: `contact:e:${email.value}`, input: { emailAddress: email.value }, label: email.value };
  }
  const name = optionalText(criteria.name);
  if (name === undefined) return { ok: false, reason: "Give an email address, or a name and a company" };
  const normalized = normalizeName(name);
  if (!normalized.ok) return normalized;
  const companyId = parseRecordId(criteria.company);
  const companyName = companyId === undefined ? optionalText(criteria.company) : undefined;
  if (companyId === undefined && companyName === undefined) {
    return { ok: false, reason: `A name alone does not identify a person: give the company of "${name}" too` };
  }
  const input: MatchPersonInput = { ...personName(name), ...(companyId !== undefined ? { companyId } : { companyName: companyName as string }) };
  const company = companyId !== undefined ? `#${companyId}` : keyPart(companyName);
  return { ok: true, kind: "contact", key: `contact:p:${normalized.value}|${company}`, input, label: `${name}, ${companyName ?? `company ${companyId}`}` };
}

export function prepareMatch(match: MatchCriteria): PreparedMatch {
  return match.kind === "company" ? prepareCompanyMatch(match.criteria) : preparePersonMatch(match.criteria);
}

/** What a column of a list holds. */
export type ColumnContent = "id" | "website" | "name" | "email";

/** The kind of a single cell's text: an id, an email, a website, or else a name (blank: undefined). */
export function cellContent(raw: unknown): ColumnContent | undefined {
  if (raw === null || raw === undefined || (typeof raw === "string" && raw.trim() === "")) return undefined;
  if (parseRecordId(raw) !== undefined) return "id";
  if (normalizeEmail(raw).ok && typeof raw === "string" && !SCHEME.test(raw.trim().toLowerCase())) return "email";
  // Written as a web address (a scheme or "www."): a website, even when a bad one.
  if (looksLikeWebsite(raw) || (typeof raw === "string" && /^(?:[a-z][a-z0-9+.-]*:\/\/|www\.)/i.test(raw.trim()))) return "website";
  return "name";
}

/** What most non-blank cells of a column hold (a tie goes to names, the least strict reading). */
export function detectColumnContent(values: readonly unknown[]): ColumnContent {
  const counts: Record<ColumnContent, number> = { id: 0, website: 0, name: 0, email: 0 };
  for (const value of values) {
    const content = cellContent(value);
    if (content) counts[content] += 1;
  }
  const order: ColumnContent[] = ["name", "website", "email", "id"];
  return order.reduce((best, content) => (counts[content] > counts[best] ? content : best), "name");
}

// ---------- inputs as the batcher's keys ----------

/** What a list row or a cell names: a record id, or criteria to match. */
export type EnrichInput = number | MatchCriteria;

export type Prepared = Extract<PreparedMatch, { ok: true }>;

export type Resolved =
  | {
      ok: true;
      kind: KindName;
      /** The batcher's key: the record's when its id is known, else the match key. */
      key: string;
      /** What the request carries for it. */
      input: object;
      id?: number;
      /** Set for criteria: their normalized key and how they read. */
      match?: Prepared;
      /** Criteria not matched yet of a kind keyed by another kind's record: that record is matched first. */
      via?: RecordKind;
    }
  | { ok: false; miss?: MatchMiss; problem: CellProblem };

export type Found = Extract<Resolved, { ok: true }>;

/** What is asked first for an input: its match, when its record is of another kind (`via`), else the input itself. */
export const matchStep = (r: Found): Found => (r.via && r.match ? { ok: true, kind: r.via, key: r.key, input: r.input, match: r.match } : r);

/**
 * A miss in the user's terms: for an ambiguous input, what was used and what would decide
 * (a country, a city, the website; for a person the company or the email).
 */
export function missProblem(p: Pick<Prepared, "kind" | "input" | "label">, miss: MatchMiss, detail?: string): CellProblem {
  const [one, many] = declaredKind(p.kind).matchNouns;
  if (miss === "ambiguous") return { kind: "noMatch", code: "#N/A", message: `Ambiguous: several ${many} match "${p.label}" ${ambiguityAdvice(p)}` };
  if (miss === "invalidInput") return { kind: "invalidInput", code: "#N/A", message: `Invalid input: ${detail ?? `the service did not accept "${p.label}"`}` };
  return { kind: "noMatch", code: "#N/A", message: `No match: no ${one} found for "${p.label}"` };
}

function ambiguityAdvice(p: Pick<Prepared, "kind" | "input">): string {
  const input = p.input as Record<string, unknown>;
  if (p.kind === "contact")
    return input.companyId !== undefined
      ? "(name and company id used); the email address would decide"
      : "(name and company name used); the company id or the email address would decide";
  const used = ["name", ...(input.companyCountry !== undefined ? ["country"] : []), ...(input.companyCity !== undefined ? ["city"] : [])];
  const decide =
    input.companyCountry === undefined
      ? "a country or city column, or the website,"
      : input.companyCity === undefined
        ? "a city column, or the website,"
        : "the website";
  return `(${used.join(", ").replace(/, ([^,]*)$/, " and $1")} used); ${decide} would decide`;
}

/** What a cell's first argument names: company websites and names, contact emails; else undefined (an id, or what the id check explains). */
export function cellCriteria(kind: EnrichmentKind, raw: unknown): MatchCriteria | undefined {
  // Numbers, and text written as a number, stay ids: the id check says why they are not valid.
  if (typeof raw !== "string" || /^\s*[-+]?[\d.,\s]*\s*$/.test(raw)) return undefined;
  const content = cellContent(raw);
  // A kind keyed by a company (a signal) names its company like a company cell does.
  if (kind.matchKind === "company") {
    if (content === "website") return { kind: "company", criteria: { website: raw } };
    if (content === "name") return { kind: "company", criteria: { name: raw } };
    return undefined;
  }
  if (content === "email") return { kind: "contact", criteria: { email: raw } };
  if (content === "name" || content === "website") return { kind: "contact", criteria: { name: raw } }; // refused: a name needs its company
  return undefined;
}

/**
 * The input as the batcher's key, with what the caches already know of it (the match cache must
 * be loaded for its key). Criteria not matched yet keep their match key: for a kind keyed by
 * another kind's record (a signal of a company) the pipeline matches that record first (`via`).
 */
export function resolveInput(declaration: EnrichmentKind, input: EnrichInput | unknown, matches: MatchCache): Resolved {
  const { kind } = declaration;
  const criteria = typeof input === "object" && input !== null && "criteria" in input ? (input as MatchCriteria) : undefined;
  if (!criteria) {
    const id = parseRecordId(input);
    if (id === undefined) return { ok: false, problem: problems.invalidId(declaration) };
    return { ok: true, kind, key: recordKey(kind, id), input: declaration.idInput(id), id };
  }
  if (criteria.kind !== declaration.matchKind) return { ok: false, problem: problems.invalidId(declaration) };
  const prepared = prepareMatch(criteria);
  if (!prepared.ok)
    return { ok: false, miss: "invalidInput", problem: missProblem({ kind: criteria.kind, input: {}, label: "" }, "invalidInput", prepared.reason) };
  const known = matches.get(prepared.key);
  if (known && "id" in known) return { ok: true, kind, key: recordKey(kind, known.id), input: declaration.idInput(known.id), id: known.id, match: prepared };
  if (known) return { ok: false, miss: known.miss, problem: missProblem(prepared, known.miss, known.message || undefined) };
  return { ok: true, kind, key: prepared.key, input: prepared.input, match: prepared, ...(kind !== prepared.kind ? { via: prepared.kind } : {}) };
}

/** The key the match cache holds an input under (undefined for an id or invalid criteria). */
export function matchKeyOf(input: EnrichInput | unknown): string | undefined {
  if (typeof input !== "object" || input === null || !("criteria" in input)) return undefined;
  const prepared = prepareMatch(input as MatchCriteria);
  return prepared.ok ? prepared.key : undefined;
}
