// From a table's header and cells to an audience mapping: the columns that identify a record
// (website, company name, email, company or contact id) become match criteria, recognised from
// their header and their values; the rest become custom columns with a type inferred from the
// cells. The user may change every choice before anything is sent.
import { serialToIso } from "../sheet/index.js";
import type { AudienceDataType, AudienceKind, MatchCriterion } from "./port.js";

/** A table or range as read from the sheet: the header row and the data rows below it. */
export interface SheetTable {
  /** Where it is (e.g. "Leads!A1:F301"); the writer uses it to find the table again. */
  address: string;
  headers: string[];
  rows: unknown[][];
  /** Excel number format of each column's first data cell, when known (tells dates from numbers). */
  formats?: (string | undefined)[];
}

export type ColumnRole =
  | { kind: "criterion"; criterion: MatchCriterion }
  | { kind: "column"; dataType: AudienceDataType }
  /** Not sent (the add-in's own columns, or left out by the user). */
  | { kind: "skip" };

export interface ColumnChoice {
  /** Position in the table. */
  index: number;
  header: string;
  role: ColumnRole;
}

export interface AudienceMapping {
  kind: AudienceKind;
  columns: ColumnChoice[];
}

/** The columns the add-in writes beside a sent table (never sent themselves). */
export const LINK_HEADER = "Audience row";
export const SEND_STATUS_HEADER = "Audience send status";
/** The audience column that carries each row's key, so a retried request never adds a row twice. */
export const KEY_COLUMN_NAME = "Sheet row key";

export const CRITERION_LABELS: Record<MatchCriterion, string> = {
  COMPANY_WEBSITE: "Company website",
  COMPANY_NAME: "Company name",
  ZOOMINFO_COMPANY_ID: "Company id",
  CONTACT_EMAIL: "Contact email",
  ZOOMINFO_CONTACT_ID: "Contact id",
};

export const DATA_TYPE_LABELS: Record<AudienceDataType, string> = {
  TEXT: "Text",
  LARGE_TEXT: "Long text",
  EMAIL: "Email",
  PHONE: "Phone",
  URL: "URL",
  INTEGER: "Whole number",
  DECIMAL: "Number",
  PERCENT: "Percent",
  CURRENCY: "Currency",
  BOOLEAN: "True/false",
  DATE: "Date",
};

/** The criteria an audience of a kind can match on. */
export function criteriaFor(kind: AudienceKind): MatchCriterion[] {
  return kind === "COMPANY"
    ? ["COMPANY_WEBSITE", "COMPANY_NAME", "ZOOMINFO_COMPANY_ID"]
    : ["CONTACT_EMAIL", "ZOOMINFO_CONTACT_ID", "COMPANY_NAME", "COMPANY_WEBSITE"];
}

const HEADER_CRITERIA: Array<[RegExp, MatchCriterion]> = [
  [/^(contact|person|people)[\s_-]*id$/i, "ZOOMINFO_CONTACT_ID"],
  [/^(company|account|organi[sz]ation)[\s_-]*id$/i, "ZOOMINFO_COMPANY_ID"],
  [/^(e-?mail|e-?mail address|work e-?mail|contact e-?mail)$/i, "CONTACT_EMAIL"],
  [/^(website|web site|domain|company website|company domain|url|homepage|site)$/i, "COMPANY_WEBSITE"],
  [/^(company|company name|account|account name|organi[sz]ation|organi[sz]ation name|employer)$/i, "COMPANY_NAME"],
];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URL_LIKE = /^(https?:\/\/)?(www\.)?[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?(\/\S*)?$/i;
/** A website's home: a bare domain or a URL with no path beyond "/". */
const HOME = /^(https?:\/\/)?(www\.)?[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}\/?$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2})?)?$/;
const PHONE = /^\+?[\d\s().-]{7,}$/;
const BOOLEAN_TEXT = /^(true|false|yes|no)$/i;
const NUMBER_TEXT = /^\s*-?\d+(\.\d+)?\s*$/;
const DATE_FORMAT = /(^|[^"\\])[dmy]{1,4}/i;

function filled(values: readonly unknown[]): unknown[] {
  return values.filter((v) => v !== null && v !== undefined && !(typeof v === "string" && v.trim() === ""));
}

function all(values: readonly unknown[], test: (v: unknown) => boolean): boolean {
  return values.length > 0 && values.every(test);
}

/** Nine cells in ten or more (a stray typo does not turn a number column into text: the service reports it on its row). */
function most(values: readonly unknown[], test: (v: unknown) => boolean): boolean {
  return values.length > 0 && values.filter(test).length >= Math.max(1, Math.ceil(values.length * 0.9));
}

const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");

/** Whether a number format shows a date (d, m or y outside quotes; not a plain number format). */
export function isDateFormat(format: string | undefined): boolean {
  return format !== undefined && !/^(general|@|[#0,.%\s]+)$/i.test(format) && DATE_FORMAT.test(format);
}

/** The type a column's cells suggest. */
export function inferDataType(values: readonly unknown[], format?: string): AudienceDataType {
  const cells = filled(values);
  if (cells.length === 0) return "TEXT";
  if (most(cells, (v) => typeof v === "boolean" || BOOLEAN_TEXT.test(text(v)))) return "BOOLEAN";
  const numbers = cells.filter((v) => typeof v === "number" || NUMBER_TEXT.test(text(v)));
  if (most(cells, (v) => typeof v === "number")) {
    if (isDateFormat(format)) return "DATE";
    return numbers.every((v) => Number.isInteger(Number(v))) ? "INTEGER" : "DECIMAL";
  }
  if (most(cells, (v) => ISO_DATE.test(text(v)))) return "DATE";
  if (most(cells, (v) => EMAIL.test(text(v)))) return "EMAIL";
  if (most(cells, (v) => URL_LIKE.test(text(v)))) return "URL";
  if (most(cells, (v) => PHONE.test(text(v)) && text(v).replace(/\D/g, "").length >= 7)) return "PHONE";
  if (cells.some((v) => text(v).length > 255)) return "LARGE_TEXT";
  return "TEXT";
}

/** The criterion a column's header or values say it is, if any. */
export function recognisedCriterion(header: string, values: readonly unknown[]): MatchCriterion | undefined {
  const name = header.trim();
  const byHeader = HEADER_CRITERIA.find(([pattern]) => pattern.test(name))?.[1];
  const cells = filled(values);
  if (byHeader === "ZOOMINFO_COMPANY_ID" || byHeader === "ZOOMINFO_CONTACT_ID") {
    return cells.every((v) => (typeof v === "number" && Number.isInteger(v)) || /^\d+$/.test(text(v))) ? byHeader : undefined;
  }
  if (byHeader) return byHeader;
  // A header that says nothing: the values decide (all emails, or all websites' home addresses).
  if (all(cells, (v) => EMAIL.test(text(v)))) return "CONTACT_EMAIL";
  if (all(cells, (v) => HOME.test(text(v)))) return "COMPANY_WEBSITE";
  return undefined;
}

const OWN_HEADERS = new Set([LINK_HEADER, SEND_STATUS_HEADER].map((h) => h.toLowerCase()));

export interface InferOptions {
  /** Audience kind; guessed from the columns when absent (an email column means contacts). */
  kind?: AudienceKind;
  /** Headers left out (e.g. columns a bring-back wrote earlier). */
  leaveOut?: readonly string[];
}

/** The mapping a table suggests; each criterion at most once, the others as typed columns. */
export function inferMapping(table: SheetTable, options: InferOptions = {}): AudienceMapping {
  const leaveOut = new Set([...(options.leaveOut ?? [])].map((h) => h.toLowerCase()));
  const columnValues = (index: number) => table.rows.map((row) => row[index]);
  const recognised = table.headers.map((header, index) => recognisedCriterion(header, columnValues(index)));
  const kind = options.kind ?? (recognised.includes("CONTACT_EMAIL") || recognised.includes("ZOOMINFO_CONTACT_ID") ? "CONTACT" : "COMPANY");
  const allowed = criteriaFor(kind);
  const used = new Set<MatchCriterion>();
  // Columns right of the link column were written by the add-in (the status, results brought back).
  const link = table.headers.findIndex((h) => h.trim().toLowerCase() === LINK_HEADER.toLowerCase());
  const columns = table.headers.map((header, index): ColumnChoice => {
    const name = header.trim();
    const ours = OWN_HEADERS.has(name.toLowerCase()) || (link >= 0 && index > link);
    if (name === "" || ours || leaveOut.has(name.toLowerCase())) return { index, header, role: { kind: "skip" } };
    const criterion = recognised[index];
    if (criterion && allowed.includes(criterion) && !used.has(criterion)) {
      used.add(criterion);
      return { index, header, role: { kind: "criterion", criterion } };
    }
    return { index, header, role: { kind: "column", dataType: inferDataType(columnValues(index), table.formats?.[index]) } };
  });
  return { kind, columns };
}

/**
 * The mapping for another audience kind, keeping what the user chose: the columns in `chosen`
 * keep their role (a criterion only if the kind matches on it); the others are inferred again.
 */
export function mappingForKind(table: SheetTable, current: AudienceMapping, kind: AudienceKind, chosen: ReadonlySet<number>): AudienceMapping {
  const inferred = inferMapping(table, { kind });
  const kept = new Map(
    current.columns
      .filter((c) => chosen.has(c.index) && (c.role.kind !== "criterion" || criteriaFor(kind).includes(c.role.criterion)))
      .map((c) => [c.index, c.role]),
  );
  const keptCriteria = new Set([...kept.values()].flatMap((r) => (r.kind === "criterion" ? [r.criterion] : [])));
  const columns = inferred.columns.map((c): ColumnChoice => {
    const role = kept.get(c.index);
    if (role) return { ...c, role };
    // An inferred criterion the user gave another column: this one becomes a typed column.
    if (c.role.kind === "criterion" && keptCriteria.has(c.role.criterion)) {
      return {
        ...c,
        role: {
          kind: "column",
          dataType: inferDataType(
            table.rows.map((r) => r[c.index]),
            table.formats?.[c.index],
          ),
        },
      };
    }
    return c;
  });
  return { kind, columns };
}

/** Problems that stop a send, in the user's words (none when the mapping can go). */
export function mappingProblems(mapping: AudienceMapping): string[] {
  const problems: string[] = [];
  const criteria = mapping.columns.filter((c) => c.role.kind === "criterion");
  if (criteria.length === 0) {
    const names = criteriaFor(mapping.kind).map((c) => CRITERION_LABELS[c].toLowerCase());
    problems.push(`Choose at least one column that identifies each ${mapping.kind === "COMPANY" ? "company" : "contact"} (${names.join(", ")}).`);
  }
  const seen = new Map<MatchCriterion, string>();
  for (const c of criteria) {
    if (c.role.kind !== "criterion") continue;
    const before = seen.get(c.role.criterion);
    if (before !== undefined) problems.push(`${c.header} and ${before} are both marked ${CRITERION_LABELS[c.role.criterion]}; keep one.`);
    else seen.set(c.role.criterion, c.header);
    if (!criteriaFor(mapping.kind).includes(c.role.criterion))
      problems.push(
        `A ${mapping.kind === "COMPANY" ? "company" : "contact"} audience cannot match on ${CRITERION_LABELS[c.role.criterion].toLowerCase()} (${c.header}).`,
      );
  }
  return problems;
}

const NUMERIC_TYPES: readonly AudienceDataType[] = ["INTEGER", "DECIMAL", "PERCENT", "CURRENCY"];

/**
 * One cell as the service takes it: empty as null, dates as ISO text, numbers typed as text in a
 * number column as numbers, a number in a text column as text, true/false/yes/no as booleans.
 * A value its column's type refuses is sent as it is: the service's reason comes back for that cell.
 */
export function cellForService(value: unknown, role: ColumnRole, format?: string): string | number | boolean | null {
  if (value === null || value === undefined || (typeof value === "string" && value.trim() === "")) return null;
  const dataType = role.kind === "column" ? role.dataType : "TEXT";
  if (dataType === "DATE" && typeof value === "number" && isDateFormat(format)) return serialToIso(value, false);
  if (dataType === "BOOLEAN" && typeof value === "string" && BOOLEAN_TEXT.test(value.trim())) return /^(true|yes)$/i.test(value.trim());
  if (NUMERIC_TYPES.includes(dataType))
    return typeof value === "string" && NUMBER_TEXT.test(value) ? Number(value) : typeof value === "string" ? value.trim() : (value as number);
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return value.trim();
  if (typeof value === "boolean") return dataType === "BOOLEAN" ? value : String(value).toUpperCase();
  return String(value);
}
