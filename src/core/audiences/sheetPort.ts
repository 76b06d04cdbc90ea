// What the audience flows need from a workbook: the selected table or range (header + rows), and
// writing cells into columns beside it. Excel's adapter is src/office/audienceSheet.ts, browser
// mode's src/office/browserAudienceSheet.ts.
import type { CellValue } from "../sheet/index.js";
import type { SheetTable } from "./mapping.js";

export type ReadTableResult = { ok: true; table: SheetTable } | { ok: false; message: string };

/** Cells of one column of the table: `column` counts from the table's first column (it may be past its right end). */
export interface ColumnWrite {
  column: number;
  /** Written into the header row. */
  header: string;
  /** Only these data rows (0 = first row below the header) are written; every other cell stays as it is. */
  cells: Array<{ row: number; value: CellValue }>;
}

export interface AudienceSheet {
  /** The selected table (or the range around the selection), its first row as the header. */
  readTable(): Promise<ReadTableResult>;
  /** The table at `address` again, as it is now (after the user's edits). */
  readTableAt(address: string): Promise<ReadTableResult>;
  /** Writes the cells given (strings as text, never as formulas); columns past the right end extend the table. */
  writeColumns(address: string, writes: readonly ColumnWrite[]): Promise<void>;
}

/** A header's column in the table, or the next free one past the right end (counting `added` already placed there). */
export function columnForHeader(headers: readonly string[], header: string, added: readonly string[] = []): number {
  const at = headers.findIndex((h) => h.trim().toLowerCase() === header.toLowerCase());
  if (at >= 0) return at;
  const before = added.findIndex((h) => h.toLowerCase() === header.toLowerCase());
  return headers.length + (before >= 0 ? before : added.length);
}
