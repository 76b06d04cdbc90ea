// What the BIZ enrichment functions do, loaded with import() on the first calculation so the
// page's first load does not carry the enrichment engine. The wrappers Excel sees
// (and their JSDoc, the help text) stay in functions.ts, which also holds the injected
// configuration and passes it in here: this module keeps no state.
import {
  COMPANY_CARD_FIELDS,
  companyCard,
  problems,
  type CellProblem,
  type CellsResult,
  type CellValue,
  type CompanyCard,
  type EntityKind,
} from "../core/enrich/index.js";
import { toExcelError } from "./excelError.js";
import type { FunctionsConfig } from "./functions.js";
import { resolveRecordInput } from "./matchCells.js";

/** The configuration as functions.ts holds it: awaited (waits at start-up) or as it is now. */
export interface ConfigAccess {
  current(): Promise<FunctionsConfig | undefined>;
  now(): FunctionsConfig | undefined;
}

function isPreview(invocation: CustomFunctions.Invocation | undefined): boolean {
  // Typed as string in @types/custom-functions-runtime, a boolean at run time.
  const flag: unknown = invocation?.isInValuePreview;
  return flag === true || flag === "true";
}

async function cells(
  access: ConfigAccess,
  kind: EntityKind,
  id: unknown,
  fields: unknown,
  invocation: CustomFunctions.Invocation | undefined,
): Promise<CellsResult> {
  const config = await access.current();
  if (!config || !(await config.isSignedIn())) return { ok: false, problem: problems.signIn() };
  const resolved = await resolveRecordInput(config, kind, id, fields, isPreview(invocation));
  if (!resolved.ok) return resolved;
  return config.engine.getCells(kind, resolved.id, fields, { preview: isPreview(invocation) });
}

/** The one-field functions refuse a list of fields rather than showing only the first. */
function oneField(kind: EntityKind, field: unknown): CellProblem | undefined {
  if (typeof field === "string" && field.includes(",")) {
    const several = kind === "company" ? "BIZ.COMPANYROW" : "one BIZ.CONTACT per field";
    return { kind: "unknownField", code: "#VALUE!", message: `Name one field here; for several use ${several}` };
  }
  return undefined;
}

function single(result: CellsResult): CellValue {
  if (!result.ok) throw toExcelError(result.problem);
  const value = result.values[0];
  return value === undefined ? "" : value;
}

/** BIZ.COMPANY and BIZ.CONTACT: one field of one entity. */
export async function oneFieldCell(
  access: ConfigAccess,
  kind: EntityKind,
  id: unknown,
  field: unknown,
  invocation: CustomFunctions.Invocation | undefined,
): Promise<CellValue> {
  const problem = oneField(kind, field);
  if (problem) throw toExcelError(problem);
  return single(await cells(access, kind, id, field, invocation));
}

/** BIZ.COMPANYROW: several fields of a company as one row. */
export async function companyRowCell(
  access: ConfigAccess,
  companyId: unknown,
  fields: unknown,
  invocation: CustomFunctions.Invocation | undefined,
): Promise<CellValue[][]> {
  const result = await cells(access, "company", companyId, fields, invocation);
  if (!result.ok) throw toExcelError(result.problem);
  return [result.values];
}

/** BIZ.COMPANYCARD: the company card where the host shows data types, its name elsewhere. */
export async function companyCardCell(
  access: ConfigAccess,
  companyId: unknown,
  invocation: CustomFunctions.Invocation | undefined,
): Promise<CompanyCard | string> {
  const result = await cells(access, "company", companyId, [...COMPANY_CARD_FIELDS], invocation);
  if (!result.ok) throw toExcelError(result.problem);
  const card: CompanyCard = companyCard(result.fields, result.values);
  return access.now()?.supportsEntityCards?.() ? card : card.text;
}

