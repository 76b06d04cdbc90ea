// What the BIZ account functions do (docs/accounts.md), loaded with import() on first use. A
// company's family (BIZ.PARENT, BIZ.ULTIMATEPARENT, BIZ.FAMILY) is enrichment like any record:
// given by id, website or name, gathered 25 a request, cached, counted in the daily cap, free on
// recalculation. A buying committee (BIZ.COMMITTEE) is only ever read from what the pane fetched:
// no cell fetches an org chart or spends a credit the user did not see estimated.
import { parseRecordId, problems, resolveFieldNames, type CellProblem } from "../core/enrich/index.js";
import { HIERARCHY_KIND, HIERARCHY_OUTPUT_FIELDS, topByTier } from "../core/accounts/index.js";
import type { FamilyRow } from "../core/contract/index.js";
import { companyKindCell } from "./signalCellsImpl.js";
import type { ConfigAccess } from "./config.js";
import { toExcelError } from "./excelError.js";
import { readCompanyArgument } from "./dataTypeArgument.js";

type Invocation = CustomFunctions.Invocation | undefined;

const fail = (problem: Pick<CellProblem, "code" | "message">): never => {
  throw toExcelError(problem);
};
const invalid = (message: string): never => fail({ code: "#VALUE!", message });

/** The fields of a parent a cell names directly: its place in the family record. */
const PARENT_FIELDS = ["id", "name", "city", "state"] as const;
const FIELD_HELP = 'Name a field of the parent: "id", "name", "city", "state", or a company field such as "revenue"';

type Which = "parent" | "ultimateParent";
const FAMILY_FIELDS = Object.keys(HIERARCHY_OUTPUT_FIELDS);

/** The field a cell asks of a parent: one of the family record's, or a company field (its record, enriched by the parent's id). */
function parentField(raw: unknown): { own: (typeof PARENT_FIELDS)[number] } | { company: string } {
  const text = raw === null || raw === undefined || String(raw).trim() === "" ? "name" : String(raw).trim();
  const own = PARENT_FIELDS.find((f) => f === text.toLowerCase());
  if (own) return { own };
  const resolved = resolveFieldNames("company", text);
  if (!resolved.ok || resolved.fields.length !== 1) return invalid(FIELD_HELP);
  return { company: resolved.fields[0]! };
}

const capitalized = (field: string) => `${field[0]!.toUpperCase()}${field.slice(1)}`;

/**
 * A company's family record, every field at once: one request gives them all, and the cache keeps
 * what was asked, so every account cell asking all of them makes one request per company.
 */
async function familyRecord(access: ConfigAccess, company: unknown, invocation: Invocation): Promise<Record<string, unknown>> {
  const values = await companyKindCell(access, HIERARCHY_KIND, company, FAMILY_FIELDS, invocation);
  return Object.fromEntries(FAMILY_FIELDS.map((field, i) => [field, values[i]]));
}

async function parentCell(access: ConfigAccess, which: Which, company: unknown, field: unknown, invocation: Invocation): Promise<unknown> {
  const asked = parentField(field);
  const record = await familyRecord(access, company, invocation);
  const id = record[`${which}Id`];
  // A company at the top of its family has no parent.
  if (id === "" || id === undefined || id === null) return "";
  if ("company" in asked) return (await companyKindCell(access, "company", id, [asked.company], invocation))[0] ?? "";
  return record[`${which}${capitalized(asked.own)}`] ?? "";
}

/** BIZ.PARENT: a field of the company's direct parent (default its name); empty at the top of a family. */
export function parentOfCell(access: ConfigAccess, company: unknown, field: unknown, invocation: Invocation): Promise<unknown> {
  return parentCell(access, "parent", company, field, invocation);
}

/** BIZ.ULTIMATEPARENT: a field of the company's ultimate parent (default its name); a top company is its own. */
export function ultimateParentCell(access: ConfigAccess, company: unknown, field: unknown, invocation: Invocation): Promise<unknown> {
  return parentCell(access, "ultimateParent", company, field, invocation);
}

/** BIZ.FAMILY: the company's family tree, top first: id, company, parent, ultimate parent, relationship, level. */
export async function familyCell(access: ConfigAccess, company: unknown, invocation: Invocation): Promise<(string | number)[][]> {
  const { family } = await familyRecord(access, company, invocation);
  const rows = Array.isArray(family) ? (family as FamilyRow[]) : [];
  if (rows.length === 0) return [["No family found", "", "", "", "", ""]];
  return rows.map((r) => [r.companyId ?? "", r.name, r.parentName, r.ultimateParentName, r.relationship, r.level]);
}

/** The sentence of a committee the pane has not fetched. */
export const NO_COMMITTEE = "No buying committee fetched for this company and department yet: fetch it in the task pane (Accounts)";

const MAX_PEOPLE = 100;

/** The company a committee cell names: its id, or a website already matched (no request is made). */
async function committeeCompany(access: ConfigAccess, raw: unknown): Promise<number> {
  const argument = readCompanyArgument(raw);
  if (!argument.ok) return fail(argument.problem);
  const id = parseRecordId(argument.value);
  if (id !== undefined) return id;
  const config = (await access.current())!;
  const match = await config.engine.match({ kind: "company", criteria: { website: argument.value } }, { preview: true });
  if (!match.ok) return fail({ code: "#N/A", message: `${NO_COMMITTEE}, or give the company's id` });
  return match.id;
}

/** BIZ.COMMITTEE: the top `n` people of a department by tier, from a committee fetched in the pane; never asks the service. */
export async function committeeCell(access: ConfigAccess, company: unknown, department: unknown, count: unknown): Promise<(string | number)[][]> {
  const n = count === null || count === undefined || count === "" ? 5 : Number(count);
  if (!Number.isInteger(n) || n < 1 || n > MAX_PEOPLE) invalid(`How many people: a whole number from 1 to ${MAX_PEOPLE}`);
  const name = department === null || department === undefined ? "" : String(department).trim();
  if (name === "") invalid('Name a department, e.g. "Finance"');
  const config = await access.current();
  if (!config || !(await config.isSignedIn())) return fail(problems.signIn());
  if (!config.committees) return fail(problems.unavailable("buying committees are not available here"));
  const stored = await config.committees.get(await committeeCompany(access, company), name);
  if (!stored) return fail({ code: "#N/A", message: NO_COMMITTEE });
  const top = topByTier(stored.people, n);
  if (top.length === 0) return [[`No people in ${stored.department}`, "", "", ""]];
  return top.map((p) => [
    [p.firstName, p.lastName].filter(Boolean).join(" "),
    p.title,
    p.tier,
    /^[0-9]{1,15}$/.test(p.personId) ? Number(p.personId) : p.personId,
  ]);
}
