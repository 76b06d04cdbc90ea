// Which columns a search can put into a sheet: a key into the result item, a header a person
// reads (from the contract's output-field labels), and a cell type that decides the value
// written and its number format.
import { COMPANY_OUTPUT_FIELDS, CONTACT_OUTPUT_FIELDS, type OutputFieldType, type SearchKind } from "../contract/index.js";

export type ColumnType = "text" | "integer" | "number" | "boolean" | "date" | "datetime" | "url";

export interface ColumnSpec {
  /** Stable key, saved with a search; also the path into the item (see valueAt). */
  key: string;
  header: string;
  type: ColumnType;
  /** Dotted path into the item; "id" is the item's id, others are under attributes. */
  path: string;
  /** Chosen by default in the column picker. */
  byDefault: boolean;
  /** Excel number format when the type's default does not suit (amounts get thousands separators). */
  numberFormat?: string;
}

/** Thousands separators for amounts and counts (ids keep the plain "0"). */
export const AMOUNT_FORMAT = "#,##0";

/** The Excel number format of a column. */
export function numberFormatOf(column: Pick<ColumnSpec, "type" | "numberFormat">): string {
  return column.numberFormat ?? NUMBER_FORMATS[column.type];
}

export type { SearchKind };

/** Excel number format for each column type ("@" is text, so nothing becomes a formula). */
export const NUMBER_FORMATS: Record<ColumnType, string> = {
  text: "@",
  url: "@",
  integer: "0",
  number: "#,##0.##",
  boolean: "General",
  date: "yyyy-mm-dd",
  datetime: "yyyy-mm-dd hh:mm",
};

function columnTypeOf(type: OutputFieldType): ColumnType {
  switch (type) {
    case "string":
    case "list":
    case "object":
      return "text";
    default:
      return type;
  }
}

function outputColumn(
  fields: Record<string, { label: string; type: OutputFieldType }>,
  key: string,
  path: string,
  byDefault: boolean,
  type?: ColumnType,
): ColumnSpec {
  const field = fields[key];
  if (!field) throw new Error(`No output field ${key}`);
  return { key, header: field.label, type: type ?? columnTypeOf(field.type), path, byDefault };
}

const company = (key: string, byDefault: boolean, type?: ColumnType) => outputColumn(COMPANY_OUTPUT_FIELDS, key, key === "id" ? "id" : key, byDefault, type);
const contact = (key: string, path: string, byDefault: boolean, type?: ColumnType) => outputColumn(CONTACT_OUTPUT_FIELDS, key, path, byDefault, type);

/** Columns of a company search result (docs/service.md, "Records"), in sheet order. */
export const COMPANY_SEARCH_COLUMNS: readonly ColumnSpec[] = [
  company("id", true),
  company("name", true),
  company("website", true),
  company("city", true),
  company("state", true),
  company("country", true),
  { ...company("revenue", true), numberFormat: AMOUNT_FORMAT },
  { ...company("employeeCount", true), numberFormat: AMOUNT_FORMAT },
  company("logo", false),
  { key: "underManagement", header: "Under management", type: "boolean", path: "managementStatus.underManagement", byDefault: false },
  { key: "purchaseDate", header: "Purchase date", type: "datetime", path: "managementStatus.purchaseDate", byDefault: false },
];

/** Columns of a contact search result (docs/service.md, "Records"), in sheet order. */
export const CONTACT_SEARCH_COLUMNS: readonly ColumnSpec[] = [
  contact("id", "id", true),
  contact("firstName", "firstName", true),
  contact("middleName", "middleName", false),
  contact("lastName", "lastName", true),
  contact("jobTitle", "jobTitle", true),
  contact("companyName", "company.name", true),
  contact("companyId", "company.id", true),
  contact("contactAccuracyScore", "contactAccuracyScore", true),
  contact("directPhoneDoNotCall", "directPhoneDoNotCall", false),
  contact("mobilePhoneDoNotCall", "mobilePhoneDoNotCall", false),
  contact("lastUpdatedDate", "lastUpdatedDate", false),
  contact("validDate", "validDate", false),
  { key: "underManagement", header: "Under management", type: "boolean", path: "managementStatus.underManagement", byDefault: false },
];

export function searchColumns(kind: SearchKind): readonly ColumnSpec[] {
  return kind === "company" ? COMPANY_SEARCH_COLUMNS : CONTACT_SEARCH_COLUMNS;
}

export function defaultColumnKeys(kind: SearchKind): string[] {
  return searchColumns(kind)
    .filter((c) => c.byDefault)
    .map((c) => c.key);
}

/**
 * The columns for saved keys, in sheet order; unknown keys (from an older saved search) are
 * dropped, and an empty choice falls back to the defaults.
 */
export function columnsFor(kind: SearchKind, keys: readonly string[]): ColumnSpec[] {
  const wanted = new Set(keys);
  const chosen = searchColumns(kind).filter((c) => wanted.has(c.key));
  return chosen.length > 0 ? chosen : searchColumns(kind).filter((c) => c.byDefault);
}

/**
 * The number format of an output field written outside a search insert (enriched columns):
 * the search's own column format when the field is a search column, so the same field looks
 * the same whichever way it reached the sheet; otherwise ids plain, other counts and amounts
 * with thousands separators.
 */
export function fieldNumberFormat(kind: SearchKind, field: string, type: OutputFieldType | undefined): string {
  const search = searchColumns(kind).find((c) => c.key === field);
  if (search) return numberFormatOf(search);
  if (type === "integer") return /(^id|Id)$/.test(field) ? NUMBER_FORMATS.integer : AMOUNT_FORMAT;
  return type === "number" ? NUMBER_FORMATS.number : "General";
}

/** The format of a column of numbers of unknown meaning: whole numbers as amounts, else two decimals at most. */
export function valuesNumberFormat(values: readonly unknown[]): string {
  return values.every((v) => typeof v !== "number" || Number.isInteger(v)) ? AMOUNT_FORMAT : NUMBER_FORMATS.number;
}
