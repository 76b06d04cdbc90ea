// Worksheet and table names by Excel's rules (Microsoft's "Rename a worksheet" and "Names in
// formulas" pages): a name is made legal and unique before Excel ever sees it, since Excel
// refuses the whole call otherwise.
//
// Sheets: at most 31 characters, none of : \ / ? * [ ], not beginning or ending with an
// apostrophe, not "History" (reserved), unique (case-insensitive).
// Tables (and defined names: one namespace): first a letter, underscore or backslash, then
// letters, digits, periods and underscores; no spaces; not R, C, r, c; nothing that reads as a
// cell reference (A1, XFD1048576, R1C1, RC) nor TRUE or FALSE; at most 255 characters; unique
// (case-insensitive) among the workbook's tables and defined names.

const SHEET_MAX = 31;
const NAME_MAX = 255;
const RESERVED_SHEET_NAMES = ["history"];

const graphemes = typeof Intl !== "undefined" && "Segmenter" in Intl ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : undefined;

/**
 * The longest start of `text` of at most `max` UTF-16 units (Excel's measure of a name's length)
 * that ends between two graphemes: never half a surrogate pair, nor an emoji cut from its
 * modifiers or joined parts. Without Intl.Segmenter it cuts between code points.
 */
export function cutWhole(text: string, max: number): string {
  const parts = graphemes ? Array.from(graphemes.segment(text), (s) => s.segment) : Array.from(text);
  let out = "";
  for (const part of parts) {
    if (out.length + part.length > max) break;
    out += part;
  }
  return out;
}

const trimSheetName = (name: string): string => name.replace(/^['\s]+|['\s]+$/gu, "");

function sheetBase(wanted: string): string {
  const clean = trimSheetName(
    wanted
      .normalize("NFC")
      .replace(/[\u0000-\u001f\u007f:\\/?*[\]]/g, " ")
      .replace(/\s+/g, " "),
  );
  return trimSheetName(cutWhole(clean, SHEET_MAX)) || "Results";
}

/** A worksheet name Excel accepts, unique among `taken` (the workbook's sheet names). */
export function uniqueSheetName(wanted: string, taken: readonly string[]): string {
  const base = sheetBase(wanted);
  const lower = new Set([...RESERVED_SHEET_NAMES, ...taken.map((t) => t.toLowerCase())]);
  if (!lower.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const name = (trimSheetName(cutWhole(base, SHEET_MAX - suffix.length)) || "Results") + suffix;
    if (!lower.has(name.toLowerCase())) return name;
  }
}

/** Whether Excel would read `name` as a cell reference or a value rather than as a name. */
export function readsAsReference(name: string): boolean {
  return (
    /^[A-Za-z]{1,3}\d+$/.test(name) || // A1 .. XFD1048576 (and a little beyond: refused all the same is safe)
    /^[Rr]\d*([Cc]\d*)?$/.test(name) || // R, R1, RC, R1C1, R2C
    /^[Cc]\d*$/.test(name) || // C, C1
    /^(true|false)$/i.test(name)
  );
}

function tableBase(wanted: string): string {
  let base = wanted
    .normalize("NFC")
    .replace(/[^\p{L}\p{Nd}_.]+/gu, "_")
    .replace(/^_+|_+$/g, "");
  if (!/^[\p{L}_]/u.test(base) || readsAsReference(base)) base = `T_${base}`;
  return cutWhole(base, NAME_MAX);
}

/**
 * A table name Excel accepts, unique among `taken`: the workbook's table names AND its defined
 * names (Excel keeps both in one namespace).
 */
export function uniqueTableName(wanted: string, taken: readonly string[]): string {
  const base = tableBase(wanted);
  const lower = new Set(taken.map((t) => t.toLowerCase()));
  if (!lower.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const name = cutWhole(base, NAME_MAX - suffix.length) + suffix;
    if (!lower.has(name.toLowerCase())) return name;
  }
}
