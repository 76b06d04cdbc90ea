// Cells that name a record the way a list does instead of by id: BIZ.COMPANY and its siblings
// take a website or a company name, BIZ.CONTACT an email address, and BIZ.MATCHCOMPANY /
// BIZ.MATCHCONTACT return the matched id so a sheet can keep ids. The matcher (src/core/enrich)
// batches, deduplicates and caches; a miss is #N/A with its reason (no match, ambiguous input,
// invalid input), never a guess.
import {
  fieldNames,
  parseRecordId,
  problems,
  resolveFieldNames,
  type CellProblem,
  type EntityKind,
} from "../core/enrich/index.js";
import { cellContent, type MatchCriteria } from "../core/enrich/matchKeys.js";
import { toExcelError } from "./excelError.js";
import type { FunctionsConfig } from "./functions.js";

export type ResolvedInput = { ok: true; id: unknown } | { ok: false; problem: CellProblem };

const notConfigured: CellProblem = { kind: "unavailable", code: "#N/A", message: "Matching by website, name or email is not available here" };

/** What a cell's first argument names: company websites and names, contact emails. */
function criteriaOf(kind: EntityKind, raw: unknown): MatchCriteria | undefined {
  // Numbers, and text written as a number, stay ids: the engine says why they are not valid.
  if (typeof raw !== "string" || /^\s*[-+]?[\d.,\s]*\s*$/.test(raw)) return undefined;
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

/**
 * The id a cell's input stands for: an id as it is (the engine checks it), else the id matched
 * from a website, name or email, asked together with the fields the cell wants.
 */
export async function resolveRecordInput(
  config: FunctionsConfig,
  kind: EntityKind,
  raw: unknown,
  fields: unknown,
  preview: boolean,
): Promise<ResolvedInput> {
  if (parseRecordId(raw) !== undefined) return { ok: true, id: raw };
  const criteria = criteriaOf(kind, raw);
  if (!criteria) return { ok: true, id: raw }; // blank, a number that is no id: the engine explains
  if (!config.matcher) return { ok: true, id: raw }; // without a matcher, only ids: the engine explains
  const resolved = resolveFieldNames(kind, fields);
  if (!resolved.ok) return { ok: false, problem: problems.unknownField(kind, resolved.unknown, fieldNames(kind)) };
  const result = await config.matcher.match(criteria, resolved.fields, { preview });
  return result.ok ? { ok: true, id: result.id } : { ok: false, problem: result.problem };
}

/** Optional Excel arguments arrive as null or undefined; blank text is absent too. */
function optional(raw: unknown): unknown {
  return raw === null || raw === undefined || (typeof raw === "string" && raw.trim() === "") ? undefined : raw;
}

async function matchedId(config: FunctionsConfig | undefined, signedIn: boolean, criteria: MatchCriteria, preview: boolean): Promise<number> {
  if (!config || !signedIn) throw toExcelError(problems.signIn());
  if (!config.matcher) throw toExcelError(notConfigured);
  const result = await config.matcher.match(criteria, [], { preview });
  if (!result.ok) throw toExcelError(result.problem);
  return result.id;
}

/** BIZ.MATCHCOMPANY: a company's id from its website, or from its name with optional country and city. */
export async function matchCompanyCell(
  config: FunctionsConfig | undefined,
  signedIn: boolean,
  nameOrWebsite: unknown,
  country: unknown,
  city: unknown,
  preview: boolean,
): Promise<number> {
  const content = cellContent(nameOrWebsite);
  if (content === "id") return Number(parseRecordId(nameOrWebsite));
  const criteria: MatchCriteria =
    content === "website"
      ? { kind: "company", criteria: { website: nameOrWebsite, country: optional(country), city: optional(city) } }
      : { kind: "company", criteria: { name: nameOrWebsite, country: optional(country), city: optional(city) } };
  return matchedId(config, signedIn, criteria, preview);
}

/** BIZ.MATCHCONTACT: a person's id from an email address, or from a name with the company (name or id). */
export async function matchContactCell(
  config: FunctionsConfig | undefined,
  signedIn: boolean,
  nameOrEmail: unknown,
  company: unknown,
  preview: boolean,
): Promise<number> {
  const content = cellContent(nameOrEmail);
  if (content === "id") return Number(parseRecordId(nameOrEmail));
  const criteria: MatchCriteria =
    content === "email" ? { kind: "contact", criteria: { email: nameOrEmail } } : { kind: "contact", criteria: { name: nameOrEmail, company: optional(company) } };
  return matchedId(config, signedIn, criteria, preview);
}
