// The resolver step in front of the batcher: what an input names, as the key the batcher works
// on. An id is its record's key. Match criteria (a website, a company name with country/city, an
// email, a person's name with a company) are normalized (matchKeys.ts): when the match cache
// knows their record they become that record's key, when it knows they miss they are answered
// with the miss, and otherwise the criteria themselves are the input, under their match key.
import { recordKey, type MatchCache, type MatchMiss } from "./caches.js";
import { cellContent, prepareMatch, type MatchCriteria, type PreparedMatch } from "./matchKeys.js";
import { ENRICHMENT_KINDS } from "./enrichKinds.js";
import { parseRecordId, type EntityKind } from "./fields.js";
import { problems, type CellProblem } from "./problems.js";

/** What a list row or a cell names: a record id, or criteria to match. */
export type EnrichInput = number | MatchCriteria;

export type Prepared = Extract<PreparedMatch, { ok: true }>;

export type Resolved =
  | {
      ok: true;
      kind: EntityKind;
      /** The batcher's key: the record's when its id is known, else the match key. */
      key: string;
      /** What the request carries for it. */
      input: object;
      id?: number;
      /** Set for criteria: their normalized key and how they read. */
      match?: Prepared;
    }
  | { ok: false; miss?: MatchMiss; problem: CellProblem };

const COMPANY_NOUN: [string, string] = ["company", "companies"];
const NOUN: Record<EntityKind, [one: string, many: string]> = { company: COMPANY_NOUN, contact: ["person", "people"], intent: COMPANY_NOUN, scoops: COMPANY_NOUN, news: COMPANY_NOUN, technologies: COMPANY_NOUN };

/**
 * A miss in the user's terms: for an ambiguous input, what was used and what would decide
 * (a country, a city, the website; for a person the company or the email).
 */
export function missProblem(p: Pick<Prepared, "kind" | "input" | "label">, miss: MatchMiss, detail?: string): CellProblem {
  const [one, many] = NOUN[p.kind];
  if (miss === "ambiguous") return { kind: "noMatch", code: "#N/A", message: `Ambiguous: several ${many} match "${p.label}" ${ambiguityAdvice(p)}` };
  if (miss === "invalidInput") return { kind: "invalidInput", code: "#N/A", message: `Invalid input: ${detail ?? `the service did not accept "${p.label}"`}` };
  return { kind: "noMatch", code: "#N/A", message: `No match: no ${one} found for "${p.label}"` };
}

function ambiguityAdvice(p: Pick<Prepared, "kind" | "input">): string {
  const input = p.input as Record<string, unknown>;
  if (p.kind === "contact") return input.companyId !== undefined ? "(name and company id used); the email address would decide" : "(name and company name used); the company id or the email address would decide";
  const used = ["name", ...(input.companyCountry !== undefined ? ["country"] : []), ...(input.companyCity !== undefined ? ["city"] : [])];
  const decide = input.companyCountry === undefined ? "a country or city column, or the website," : input.companyCity === undefined ? "a city column, or the website," : "the website";
  return `(${used.join(", ").replace(/, ([^,]*)$/, " and $1")} used); ${decide} would decide`;
}

/** What a cell's first argument names: company websites and names, contact emails; else undefined (an id, or what the id check explains). */
export function cellCriteria(kind: EntityKind, raw: unknown): MatchCriteria | undefined {
  // Numbers, and text written as a number, stay ids: the id check says why they are not valid.
  if (typeof raw !== "string" || /^\s*[-+]?[\d.,\s]*\s*$/.test(raw)) return undefined;
  // A signal cell matches its company first (engine.match), then asks the signal by id.
  if (kind !== "company" && kind !== "contact") return undefined;
  const content = cellContent(raw);
  if (kind === "company") {
    if (content === "website") return { kind, criteria: { website: raw } };
    if (content === "name") return { kind, criteria: { name: raw } };
    return undefined;
  }
  if (content === "email") return { kind, criteria: { email: raw } };
  if (content === "name" || content === "website") return { kind, criteria: { name: raw } }; // refused: a name needs its company
  return undefined;
}

/** The input as the batcher's key, with what the caches already know of it (the match cache must be loaded for its key). */
export function resolveInput(kind: EntityKind, input: EnrichInput | unknown, matches: MatchCache): Resolved {
  const criteria = typeof input === "object" && input !== null && "criteria" in input ? (input as MatchCriteria) : undefined;
  if (!criteria) {
    const id = parseRecordId(input);
    if (id === undefined) return { ok: false, problem: problems.invalidId(kind) };
    return { ok: true, kind, key: recordKey(kind, id), input: ENRICHMENT_KINDS[kind].idInput(id), id };
  }
  const prepared = prepareMatch(criteria);
  if (!prepared.ok) return { ok: false, miss: "invalidInput", problem: missProblem({ kind: criteria.kind, input: {}, label: "" }, "invalidInput", prepared.reason) };
  const known = matches.get(prepared.key);
  if (known && "id" in known) return { ok: true, kind: prepared.kind, key: recordKey(prepared.kind, known.id), input: ENRICHMENT_KINDS[prepared.kind].idInput(known.id), id: known.id, match: prepared };
  if (known) return { ok: false, miss: known.miss, problem: missProblem(prepared, known.miss, known.message || undefined) };
  return { ok: true, kind: prepared.kind, key: prepared.key, input: prepared.input, match: prepared };
}

/** The key the match cache holds an input under (undefined for an id or invalid criteria). */
export function matchKeyOf(input: EnrichInput | unknown): string | undefined {
  if (typeof input !== "object" || input === null || !("criteria" in input)) return undefined;
  const prepared = prepareMatch(input as MatchCriteria);
  return prepared.ok ? prepared.key : undefined;
}
