// Turns values from the service into typed cell values: numbers as numbers, dates as Excel
// date serials, booleans as booleans, everything else as text. A value that does not fit its
// column's type stays text; the workbook adapters format every string cell as text ("@")
// before writing it, so nothing from the service ever becomes a formula.
import type { ColumnSpec, ColumnType } from "./columns.js";
import { httpUrl } from "./httpUrl.js";

/** What one cell holds. "" is an empty cell. */
export type CellValue = string | number | boolean;

const MS_PER_DAY = 86_400_000;
/** Excel's day 0 in the 1900 date system (serial 1 is 1900-01-01, counting the phantom 29 Feb). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);

/** Excel date serial of an ISO date or date-time, or undefined when it is not one. */
export function excelDateSerial(value: string, withTime: boolean): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(value.trim());
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = Date.UTC(y, mo - 1, d);
  const check = new Date(day);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return undefined;
  let ms = day;
  if (withTime && m[4] !== undefined) {
    ms = Date.parse(value.trim().replace(" ", "T") + (m[7] ? "" : "Z"));
    if (Number.isNaN(ms)) return undefined;
  }
  const serial = (ms - EXCEL_EPOCH_MS) / MS_PER_DAY;
  return withTime ? Math.round(serial * 86_400) / 86_400 : Math.floor(serial);
}

/** ISO text of an Excel date serial: YYYY-MM-DD, or YYYY-MM-DD HH:MM with time. */
export function serialToIso(serial: number, withTime: boolean): string {
  const date = new Date(EXCEL_EPOCH_MS + Math.round(serial * MS_PER_DAY));
  const iso = date.toISOString();
  return withTime ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : iso.slice(0, 10);
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.map(asText).join("; ");
  return JSON.stringify(value);
}

function asNumber(value: unknown, integer: boolean): number | undefined {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n)) return undefined;
  return integer && !Number.isInteger(n) ? undefined : n;
}

/** The cell value for a raw value in a column of the given type. */
export function cellValue(raw: unknown, type: ColumnType): CellValue {
  if (raw === undefined || raw === null || raw === "") return "";
  switch (type) {
    case "integer":
    case "number":
      return asNumber(raw, type === "integer") ?? asText(raw);
    case "boolean":
      if (typeof raw === "boolean") return raw;
      if (raw === "true" || raw === "false") return raw === "true";
      return asText(raw);
    case "date":
    case "datetime":
      return typeof raw === "string" ? (excelDateSerial(raw, type === "datetime") ?? raw) : asText(raw);
    default:
      return asText(raw);
  }
}

/** Reads a dotted path from an item: "id" is the item's own id, other paths are under attributes. */
export function valueAt(item: { id?: unknown; attributes?: unknown }, path: string): unknown {
  if (path === "id") return item.id;
  let current: unknown = item.attributes;
  for (const part of path.split(".")) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** One sheet row per item, cells in column order. */
export function itemsToRows(items: readonly { id?: unknown; attributes?: unknown }[], columns: readonly ColumnSpec[]): CellValue[][] {
  return items.map((item) => columns.map((c) => cellValue(valueAt(item, c.path), c.type)));
}

/**
 * The address a website cell links to: http(s) only, scheme added when missing; anything
 * else (javascript:, data:, text that is not an address) gets no link and stays plain text.
 */
export function hyperlinkAddress(value: CellValue): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (text === "" || /\s/.test(text)) return undefined;
  const url = httpUrl(/^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `http://${text}`);
  if (!url || !url.hostname.includes(".")) return undefined;
  return url.href;
}

/** How a cell reads on screen and in CSV: dates as ISO text, numbers plain, booleans TRUE/FALSE. */
export function displayText(value: CellValue, type: ColumnType): string {
  if (typeof value === "number") {
    if (type === "date" || type === "datetime") return serialToIso(value, type === "datetime");
    return String(value);
  }
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  return value;
}
