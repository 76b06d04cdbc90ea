// CSV export of a table (RFC 4180): CRLF line ends, fields quoted when needed, UTF-8 with a
// byte-order mark so Excel reads the encoding right. A text field that a spreadsheet would run
// as a formula (leading = + - @, tab or carriage return) gets a leading apostrophe.
import { displayText, type CellValue } from "./cells.js";
import type { ColumnSpec } from "./columns.js";

export const UTF8_BOM = "\uFEFF";

/** Neutralises text that a spreadsheet would read as a formula. */
export function neutraliseFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

function field(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The CSV text (BOM included) of a header row and data rows. */
export function toCsv(columns: readonly Pick<ColumnSpec, "header" | "type">[], rows: readonly (readonly CellValue[])[]): string {
  const lines = [columns.map((c) => field(neutraliseFormula(c.header))).join(",")];
  for (const row of rows) {
    lines.push(
      columns
        .map((c, i) => {
          const value = row[i] ?? "";
          const text = displayText(value, c.type);
          // Only strings carry service text; numbers such as -5 stay numbers.
          return field(typeof value === "string" ? neutraliseFormula(text) : text);
        })
        .join(","),
    );
  }
  return UTF8_BOM + lines.join("\r\n") + "\r\n";
}
