// CSV export of a table (RFC 4180): CRLF line ends, fields quoted when needed, UTF-8 with a
// byte-order mark so Excel reads the encoding right. The list separator is "," by default or
// the user's own (";" where the decimal mark is a comma, or tab).
//
// Formula safety: the file may be opened in a locale whose separator is not the one it was
// written with, and such a reader honours a quote only at the start of its own field. So every
// place where any reading (",", ";" or tab) can start a cell - the start of a text, and after
// each of , ; tab CR LF inside it - must not start a formula. The guard judges the first
// VISIBLE character: it looks past spaces, quotes and every character that shows nothing
// (Unicode's default-ignorable code points and format characters: zero-width and no-break
// spaces, joiners, the byte-order mark, the soft hyphen, bidirectional marks, variation
// selectors, the Hangul fillers, tag characters, ... and the blank Braille pattern). A cell is a
// formula if that character is = + - @, any of their look-alikes (full-width, small, superscript
// and subscript forms, the heavy plus and minus, every dash and the minus sign), a tab or a
// carriage return. Such a place gets an apostrophe, which spreadsheets read as "this is text".
import { displayText, type CellValue } from "./cells.js";
import type { ColumnSpec } from "./columns.js";

export const UTF8_BOM = "\uFEFF";

/** The list separators spreadsheets read CSV with. */
export type CsvSeparator = "," | ";" | "\t";
export const CSV_SEPARATORS: readonly CsvSeparator[] = [",", ";", "\t"];

export interface CsvOptions {
  /** The field separator; "," when absent. */
  separator?: CsvSeparator;
}

/** What may stand before the first visible character of a cell and still leave it a formula. */
const LEADING = String.raw`[\s"\p{Default_Ignorable_Code_Point}\p{Cf}\u2800]`;
/** First characters that make a spreadsheet read a cell as a formula (\p{Dash}: every dash, hyphen and minus). */
const FORMULA_START = String.raw`[=+@\t\r\p{Dash}\u02D6\u02D7\u207A\u207C\u208A\u208C\u2795\u2796\uA78A\uFE62\uFE66\uFE6B\uFF0B\uFF1D\uFF20\u{1F7F0}]`;
const AT_TEXT_START = new RegExp(`^(?=${LEADING}*${FORMULA_START})`, "u");
/** Every place inside a text where a cell can start in some reading: after a separator or line end. */
const AFTER_BREAK = new RegExp(`([,;\\t\\r\\n])(?=${LEADING}*${FORMULA_START})`, "gu");

/** Neutralises text that a spreadsheet would read as a formula when it starts a cell. */
export function neutraliseFormula(text: string): string {
  return AT_TEXT_START.test(text) ? `'${text}` : text;
}

/** Neutralises every place in `text` where a cell can start under any list separator. */
function neutraliseCellStarts(text: string): string {
  // Inside first, then the start: a text may begin with a line end or a tab, which is both.
  return neutraliseFormula(text.replace(AFTER_BREAK, "$1'"));
}

function field(text: string, separator: CsvSeparator): string {
  return text.includes(separator) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The list separator of a locale: ";" where the decimal mark is a comma, else ",". */
export function listSeparatorFor(locale: string | undefined): CsvSeparator {
  try {
    const decimal = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === "decimal")?.value;
    return decimal === "," ? ";" : ",";
  } catch {
    // Not a locale Intl knows: the RFC's separator.
    return ",";
  }
}

/** The CSV text (BOM included) of a header row and data rows. */
export function toCsv(columns: readonly Pick<ColumnSpec, "header" | "type">[], rows: readonly (readonly CellValue[])[], options: CsvOptions = {}): string {
  const separator = options.separator ?? ",";
  const lines = [columns.map((c) => field(neutraliseCellStarts(c.header), separator)).join(separator)];
  for (const row of rows) {
    lines.push(
      columns
        .map((c, i) => {
          const value = row[i] ?? "";
          const text = displayText(value, c.type);
          // Only strings carry service text; numbers such as -5 stay numbers.
          return field(typeof value === "string" ? neutraliseCellStarts(text) : text, separator);
        })
        .join(separator),
    );
  }
  return UTF8_BOM + lines.join("\r\n") + "\r\n";
}
