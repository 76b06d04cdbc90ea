// The one surface the task pane uses to put tables into a workbook and keep saved searches
// in it. Two implementations: excelWorkbook.ts (Office) and browserWorkbook.ts (a plain page).
// The UI receives one of them through context and never touches Office itself.
import type { CellValue, ColumnSpec } from "../core/sheet/index.js";
import type { SavedSearchRecord } from "../core/search/savedSearchSchema.js";

export type InsertTarget =
  /** A new worksheet (the default: nothing is ever overwritten). */
  | { kind: "newSheet"; sheetName: string }
  /** At the top-left cell of the current selection; the area must be empty or confirmed. */
  | { kind: "selection" };

export interface NewTableRequest {
  target: InsertTarget;
  /** Wanted table name (made legal and unique). */
  tableName: string;
  columns: readonly ColumnSpec[];
  /** Rows the table will probably hold, to check the target area (selection) is empty. */
  expectedRows: number;
  /** Asked when the target area already holds data; resolve false to stop. */
  confirmOverwrite?: (message: string) => Promise<boolean>;
}

export interface WriteStats {
  rowsWritten: number;
  /** Blocks written (one request each). */
  blocks: number;
  /** context.sync() calls (0 in the browser). */
  syncs: number;
}

export interface TableResult {
  tableName: string;
  sheetName: string;
  /** Address of the whole table, e.g. Results!A1:H2501 (browser: same notation). */
  address: string;
  rowsWritten: number;
  stats: WriteStats;
}

/** Writes rows into one table, in blocks; finish() always leaves a consistent table. */
export interface TableWriter {
  readonly tableName: string;
  readonly sheetName: string;
  /** Queues rows; writes full blocks as they fill. */
  append(rows: readonly (readonly CellValue[])[]): Promise<void>;
  /** Writes what is queued and makes the table cover exactly the rows written. */
  finish(): Promise<TableResult>;
  stats(): WriteStats;
}

/** A saved search as the workbook keeps it (its schema: core/search/savedSearchSchema.ts). */
export type { SavedSearchRecord };

export type WorkbookErrorKind = "declined" | "notFound" | "tableChanged" | "excel";

/** A workbook failure in words a user understands. */
export class WorkbookError extends Error {
  constructor(
    readonly kind: WorkbookErrorKind,
    message: string,
  ) {
    super(message);
    this.name = "WorkbookError";
  }
}

export interface WorkbookAdapter {
  readonly kind: "excel" | "browser";
  /** Whether inserting at the selection is possible here. */
  readonly supportsSelection: boolean;
  /** Starts a new table (new sheet, or at the selection after checking it is empty). */
  createTable(request: NewTableRequest): Promise<TableWriter>;
  /** Replaces the data rows of an existing table, keeping columns the user added to its right. */
  refreshTable(tableName: string, columns: readonly ColumnSpec[]): Promise<TableWriter>;
  /** Adds rows below the data rows of an existing table (Resume of an import). */
  appendToTable(tableName: string, columns: readonly ColumnSpec[]): Promise<TableWriter>;
  tableExists(tableName: string): Promise<boolean>;
  /** The workbook's defined names: a new table's name differs from each (Excel keeps one namespace). */
  definedNames(): Promise<string[]>;
  /** The zero-based worksheet row a new table's header would go to (none: row 0, a new sheet). */
  startRow?(target: InsertTarget): Promise<number>;
  loadSavedSearches(): Promise<SavedSearchRecord[]>;
  storeSavedSearches(searches: readonly SavedSearchRecord[]): Promise<void>;
}

/** Settings key under which saved searches live in the workbook (never tokens or endpoints). */
export const SAVED_SEARCHES_KEY = "bizdata.savedSearches";
