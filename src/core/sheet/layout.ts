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
