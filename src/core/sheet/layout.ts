// Names and sizes for writing tables: legal, unique sheet and table names, and how many rows
// go into one write so a request stays well inside Excel's per-request limits.

/** Cells per write: a few thousand rows of a dozen columns, far below Excel on the web's 5 MB cap. */
const CELLS_PER_BLOCK = 24_000;
const MAX_ROWS_PER_BLOCK = 2_000;

/** Rows in one block for a table this wide. */
export function rowsPerBlock(columnCount: number): number {
  return Math.max(1, Math.min(MAX_ROWS_PER_BLOCK, Math.floor(CELLS_PER_BLOCK / Math.max(1, columnCount))));
}

// Sheet and table names by Excel's rules: names.ts.
export { uniqueSheetName, uniqueTableName } from "./names.js";

/**
 * Header names made unique (a table needs distinct headers): a repeat gets the first free number
 * ("Company ID 2", or "Company ID 3" when a "Company ID 2" is already there).
 */
export function uniqueHeaders(headers: readonly string[]): string[] {
  const taken = new Set<string>();
  return headers.map((h) => {
    let name = h;
    for (let n = 2; taken.has(name.toLowerCase()); n += 1) name = `${h} ${n}`;
    taken.add(name.toLowerCase());
    return name;
  });
}

/** Spreadsheet column letters of a zero-based column index: 0 -> A, 26 -> AA. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let out = "";
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** Zero-based column index of spreadsheet column letters: A -> 0, AA -> 26. */
export function columnIndex(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}
