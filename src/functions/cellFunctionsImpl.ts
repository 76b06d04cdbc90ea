// What the BIZ enrichment functions do, loaded with import() on the first calculation so the
// page's first load does not carry the enrichment pipeline. The wrappers Excel sees (and their
// JSDoc, the help text) stay in functions.ts, which also holds the injected configuration and
// passes it in here: this module keeps no state. A cell's first argument goes to the pipeline
// as it is (an id, a website, a name, an email): the pipeline resolves and batches it; a data
// type given as a company is read first by dataTypeArgument.ts (a company card by its id).
import {
  cellContent,
  fieldSpec,
  parseRecordId,
  problems,
  type CellProblem,
  type CellsResult,
  type CellValue,
  type EnrichmentEngine,
  type EntityKind,
  type MatchCriteria,
} from "../core/enrich/index.js";
import { toExcelError } from "./excelError.js";
import { isPreview, type ConfigAccess } from "./config.js";
import { CARD_PROVIDER, readCompanyArgument, withArgumentNote, type CompanyArgument } from "./dataTypeArgument.js";

/** The pipeline, once a user is signed in (waiting briefly while the workbook opens); undefined when signed out. */
async function signedInEngine(access: ConfigAccess): Promise<EnrichmentEngine | undefined> {
  const config = await access.current();
  return config && (await config.isSignedIn()) ? config.engine : undefined;
}

/** A cell's fields, or its problem; thrown as the Excel error the cell shows. */
async function cells(
  access: ConfigAccess,
  kind: EntityKind,
  id: unknown,
  fields: unknown,
  invocation: CustomFunctions.Invocation | undefined,
): Promise<Extract<CellsResult, { ok: true }>> {
  const argument: CompanyArgument = kind === "company" ? readCompanyArgument(id) : { ok: true, value: id };
  if (!argument.ok) throw toExcelError(argument.problem);
  const engine = await signedInEngine(access);
  const preview = isPreview(invocation);
  const result = engine ? await engine.getCells(kind, argument.value, fields, { preview }) : { ok: false as const, problem: problems.signIn() };
  if (!result.ok) throw toExcelError(withArgumentNote(result.problem, argument));
  return result;
}

/** The one-field functions refuse a list of fields rather than showing only the first. */
function oneField(kind: EntityKind, field: unknown): CellProblem | undefined {
  if (typeof field === "string" && field.includes(",")) {
    const several = kind === "company" ? "BIZ.COMPANYROW" : "one BIZ.CONTACT per field";
    return { kind: "unknownField", code: "#VALUE!", message: `Name one field here; for several use ${several}` };
  }
  return undefined;
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
  return (await cells(access, kind, id, field, invocation)).values[0] ?? "";
}

/** BIZ.COMPANYROW: several fields of a company as one row. */
export async function companyRowCell(
  access: ConfigAccess,
  companyId: unknown,
  fields: unknown,
  invocation: CustomFunctions.Invocation | undefined,
): Promise<CellValue[][]> {
  return [(await cells(access, "company", companyId, fields, invocation)).values];
}

// ---------- the company card ----------
// A company as an Excel entity value (a data-type card), built from cell values. The shape is
// Excel's EntityCellValue, written out here so this module needs no Office types.

type CardProperty = { type: "String"; basicValue: string } | { type: "Double"; basicValue: number } | { type: "Boolean"; basicValue: boolean };

interface CompanyCard {
  type: "Entity";
  text: string;
  /** Shown on the card; also how a card passed back to a BIZ function is known as the add-in's own. */
  provider: { description: string };
  properties: Record<string, CardProperty>;
  layouts: { card: { title: { property: string }; sections: Array<{ layout: "List"; properties: string[] }> } };
}

/** Fields shown on a company card, in the order shown; `name` is the title. */
const COMPANY_CARD_FIELDS = [
  "name",
  "website",
  "city",
  "state",
  "country",
  "revenue",
  "revenueRange",
  "employeeCount",
  "employeeRange",
  "companyStatus",
  "ticker",
  "foundedYear",
  "parentName",
  "numberOfContactsInService",
  "certified",
  "id",
] as const;

function companyCard(fields: readonly string[], values: readonly CellValue[]): CompanyCard {
  const properties: Record<string, CardProperty> = {};
  const order: string[] = [];
  let title = "";
  for (const [index, field] of fields.entries()) {
    const value = values[index];
    if (value === undefined || value === "") continue;
    const label = fieldSpec("company", field)?.label ?? field;
    if (field === "name") title = String(value);
    properties[label] =
      typeof value === "number"
        ? { type: "Double", basicValue: value }
        : typeof value === "boolean"
          ? { type: "Boolean", basicValue: value }
          : { type: "String", basicValue: value };
    order.push(label);
  }
  const titleLabel = fieldSpec("company", "name")?.label ?? "name";
  const text = title || "Company";
  if (!properties[titleLabel]) properties[titleLabel] = { type: "String", basicValue: text };
  return {
    type: "Entity",
    text,
    provider: { description: CARD_PROVIDER },
    properties,
    layouts: {
      card: { title: { property: titleLabel }, sections: [{ layout: "List", properties: order.filter((p) => p !== titleLabel) }] },
    },
  };
}

/** BIZ.COMPANYCARD: the company card where the host shows data types, its name elsewhere. */
export async function companyCardCell(
  access: ConfigAccess,
  companyId: unknown,
  invocation: CustomFunctions.Invocation | undefined,
): Promise<CompanyCard | string> {
  const result = await cells(access, "company", companyId, [...COMPANY_CARD_FIELDS], invocation);
  const card: CompanyCard = companyCard(result.fields, result.values);
  return access.now()?.supportsEntityCards?.() ? card : card.text;
}

/** Optional Excel arguments arrive as null or undefined; blank text is absent too. */
function optional(raw: unknown): unknown {
  return raw === null || raw === undefined || (typeof raw === "string" && raw.trim() === "") ? undefined : raw;
}

/**
 * BIZ.MATCH*: an id typed in the cell is its own answer; anything else is matched with the
 * criteria `criteriaFor` reads from it (a website, an email, a name).
 */
async function matchedId(
  access: ConfigAccess,
  argument: CompanyArgument,
  criteriaFor: (content: ReturnType<typeof cellContent>, value: unknown) => MatchCriteria,
  invocation: CustomFunctions.Invocation | undefined,
): Promise<number> {
  if (!argument.ok) throw toExcelError(argument.problem);
  const content = cellContent(argument.value);
  if (content === "id") return Number(parseRecordId(argument.value));
  const engine = await signedInEngine(access);
  if (!engine) throw toExcelError(problems.signIn());
  const result = await engine.match(criteriaFor(content, argument.value), { preview: isPreview(invocation) });
  if (!result.ok) throw toExcelError(withArgumentNote(result.problem, argument));
  return result.id;
}

/** A company given as an optional argument (blank is absent), read as readCompanyArgument reads it. */
function optionalCompany(raw: unknown): unknown {
  const argument = readCompanyArgument(raw);
  return optional(argument.ok ? argument.value : undefined);
}

/** BIZ.MATCHCOMPANY: a company's id from its website, or from its name with optional country and city. */
export async function matchCompanyCell(
  access: ConfigAccess,
  nameOrWebsite: unknown,
  country: unknown,
  city: unknown,
  invocation: CustomFunctions.Invocation | undefined,
): Promise<number> {
  return matchedId(
    access,
    readCompanyArgument(nameOrWebsite),
    (content, value) => {
      const by = content === "website" ? { website: value } : { name: value };
      return { kind: "company", criteria: { ...by, country: optional(country), city: optional(city) } };
    },
    invocation,
  );
}

/** BIZ.MATCHCONTACT: a person's id from an email address, or from a name with the company (name or id). */
export async function matchContactCell(
  access: ConfigAccess,
  nameOrEmail: unknown,
  company: unknown,
  invocation: CustomFunctions.Invocation | undefined,
): Promise<number> {
  return matchedId(
    access,
    { ok: true, value: nameOrEmail },
    (content, value) => ({ kind: "contact", criteria: content === "email" ? { email: value } : { name: value, company: optionalCompany(company) } }),
    invocation,
  );
}
