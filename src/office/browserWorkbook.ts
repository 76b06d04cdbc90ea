// The workbook of browser mode (no Office host): tables live in memory, the page renders them
// and offers CSV downloads. Same contract as the Excel adapter, so the task pane, the tests and
// the demonstration run the same code path.
import {
  columnLetter,
  uniqueHeaders,
  uniqueSheetName,
  uniqueTableName,
  toCsv,
  listSeparatorFor,
  type CellValue,
  type ColumnSpec,
  type CsvOptions,
} from "../core/sheet/index.js";
import {
  SAVED_SEARCHES_KEY,
  WorkbookError,
  type NewTableRequest,
  type SavedSearchRecord,
  type TableResult,
  type TableWriter,
  type WorkbookAdapter,
  type WriteStats,
} from "./workbook.js";

export interface BrowserTable {
  name: string;
  sheetName: string;
  columns: ColumnSpec[];
  headers: string[];
  rows: CellValue[][];
  /** False while an insert is still writing. */
  complete: boolean;
}

/** Key-value storage for the workbook's settings (localStorage in a page, a Map in tests). */
export interface SettingsStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export function memoryStorage(): SettingsStorage {
  const map = new Map<string, string>();
  return { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v) };
}

export class BrowserWorkbook implements WorkbookAdapter {
  readonly kind = "browser" as const;
  readonly supportsSelection = false;
  private readonly tables: BrowserTable[] = [];
  private readonly sheetNames: string[] = [];
  /** Defined names (none until defineName): one namespace with the table names, as in Excel. */
  private readonly names: string[] = [];
  private readonly listeners = new Set<() => void>();
  private version = 0;
  private selected: { table: string; column: number } | undefined;
  /** The table whose sheet is shown (Excel's active sheet); a new table's sheet becomes it. */
  private active: string | undefined;

  constructor(private readonly storage: SettingsStorage = memoryStorage()) {}

  /** Subscribes to changes (for React's useSyncExternalStore); returns the unsubscribe. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Changes each time a table changes, so a view knows to render again. */
  getVersion = (): number => this.version;

  listTables(): readonly BrowserTable[] {
    return this.tables;
  }

  /** The table on the active sheet: the one last activated or inserted (the last table when neither is left). */
  activeTable(): BrowserTable | undefined {
    return (this.active ? this.table(this.active) : undefined) ?? this.tables[this.tables.length - 1];
  }

  /** Shows a table's sheet, as clicking a sheet tab in Excel does. */
  activate(tableName: string): void {
    this.active = tableName;
    this.changed();
  }

  table(name: string): BrowserTable | undefined {
    return this.tables.find((t) => t.name.toLowerCase() === name.toLowerCase());
  }

  /**
   * The table as CSV text (RFC 4180, UTF-8 BOM, formula-leading text neutralised), separated the
   * way the page's locale lists (";" where the decimal mark is a comma) unless told otherwise.
   */
  csv(name: string, options: CsvOptions = { separator: pageListSeparator() }): string {
    const table = this.table(name);
    if (!table) throw new WorkbookError("notFound", `There is no table named ${name}.`);
    return toCsv(
      table.columns.map((c, i) => ({ header: table.headers[i] ?? c.header, type: c.type })),
      table.rows,
      options,
    );
  }

  /** The column a user picked in the page (browser mode's stand-in for a selection). */
  selectColumn(tableName: string, column: number): void {
    this.selected = { table: tableName, column };
    this.changed();
  }

  selectedColumn(): { table: BrowserTable; column: number } | undefined {
    const table = this.selected ? this.table(this.selected.table) : undefined;
    if (!table || !this.selected || this.selected.column >= table.columns.length) return undefined;
    return { table, column: this.selected.column };
  }

  /**
   * Puts columns into a table starting at `start` (replacing what is there, extending the
   * table to the right when needed). The header row gets `headers`; numbers get `numberFormats`.
   */
  setColumns(tableName: string, start: number, headers: readonly string[], rows: readonly (readonly CellValue[])[], numberFormats?: readonly string[]): void {
    const table = this.table(tableName);
    if (!table) throw new WorkbookError("notFound", `There is no table named ${tableName}.`);
    if (rows.length !== table.rows.length) throw new WorkbookError("excel", `Expected ${table.rows.length} rows, got ${rows.length}.`);
    headers.forEach((header, k) => {
      const at = start + k;
      const sample = rows.find((r) => r[k] !== undefined && r[k] !== "")?.[k];
      const format = numberFormats?.[k];
      const column: ColumnSpec = {
        key: `column${at + 1}`,
        header,
        type: typeof sample === "number" ? "number" : typeof sample === "boolean" ? "boolean" : "text",
        path: "",
        byDefault: false,
        ...(format !== undefined && format !== "General" ? { numberFormat: format } : {}),
      };
      table.columns[at] = column;
      table.headers[at] = header;
      table.rows.forEach((row, r) => (row[at] = rows[r]?.[k] ?? ""));
    });
    table.headers = uniqueHeaders(table.headers);
    this.changed();
  }

  private changed(): void {
    this.version++;
    for (const listener of this.listeners) listener();
  }

  async createTable(request: NewTableRequest): Promise<TableWriter> {
    if (request.target.kind === "selection") {
      throw new WorkbookError("excel", "Inserting at the selection needs Excel; in the browser each search goes to a new sheet.");
    }
    const sheetName = uniqueSheetName(request.target.sheetName, this.sheetNames);
    const tableName = uniqueTableName(request.tableName, [...this.tables.map((t) => t.name), ...this.names]);
    this.sheetNames.push(sheetName);
    const table: BrowserTable = {
      name: tableName,
      sheetName,
      columns: [...request.columns],
      headers: uniqueHeaders(request.columns.map((c) => c.header)),
      rows: [],
      complete: false,
    };
    this.tables.push(table);
    // As in Excel, the new table's sheet is the one shown.
    this.active = tableName;
    this.changed();
    return this.writer(table);
  }

  private ownTable(tableName: string, columns: readonly ColumnSpec[]): BrowserTable {
    const table = this.table(tableName);
    if (!table) throw new WorkbookError("notFound", `The table ${tableName} is no longer in this workbook; run the search again to insert it.`);
    const headers = uniqueHeaders(columns.map((c) => c.header));
    if (table.headers.length < headers.length || headers.some((h, i) => table.headers[i] !== h)) {
      throw new WorkbookError(
        "tableChanged",
        `The first columns of ${tableName} are not the ones this search wrote (${headers.join(", ")}). Insert the search into a new sheet instead.`,
      );
    }
    return table;
  }

  async appendToTable(tableName: string, columns: readonly ColumnSpec[]): Promise<TableWriter> {
    const table = this.ownTable(tableName, columns);
    table.complete = false;
    this.changed();
    return this.writer(table);
  }

  async refreshTable(tableName: string, columns: readonly ColumnSpec[]): Promise<TableWriter> {
    const table = this.ownTable(tableName, columns);
    const headers = uniqueHeaders(columns.map((c) => c.header));
    // Columns added to the right of the search's own (enrichment) stay, their cells following
    // the same records by id, as in Excel.
    const extra = table.columns.length - columns.length;
    const id = columns.findIndex((c) => c.key === "id");
    const oldId = table.columns.findIndex((c) => c.key === "id");
    const carried = new Map<string, CellValue[]>();
    if (extra > 0 && id >= 0 && oldId >= 0) {
      for (const row of table.rows) carried.set(String(row[oldId]), row.slice(columns.length));
    }
    table.columns = [...columns, ...table.columns.slice(columns.length)];
    table.headers = uniqueHeaders([...headers, ...table.headers.slice(columns.length)]);
    table.rows = [];
    table.complete = false;
    this.changed();
    return this.writer(table, (row) => [...row.slice(0, columns.length), ...(carried.get(String(row[id])) ?? Array<CellValue>(extra).fill(""))]);
  }

  async tableExists(tableName: string): Promise<boolean> {
    return this.table(tableName) !== undefined;
  }

  async definedNames(): Promise<string[]> {
    return [...this.names];
  }

  /** Defines a workbook name, as Excel's Name Manager does; refused when a table or name has it. */
  defineName(name: string): void {
    const lower = name.toLowerCase();
    if (this.table(name) || this.names.some((n) => n.toLowerCase() === lower)) {
      throw new WorkbookError("excel", `The name ${name} is already used in this workbook.`);
    }
    this.names.push(name);
  }

  async loadSavedSearches(): Promise<SavedSearchRecord[]> {
    const { parseSavedSearches } = await import("../core/search/savedSearchSchema.js");
    return parseSavedSearches(this.storage.getItem(SAVED_SEARCHES_KEY));
  }

  async storeSavedSearches(searches: readonly SavedSearchRecord[]): Promise<void> {
    this.storage.setItem(SAVED_SEARCHES_KEY, JSON.stringify(searches));
  }

  private writer(table: BrowserTable, complete: (row: CellValue[]) => CellValue[] = (row) => row): TableWriter {
    // No request limits here: each append lands at once, so progress and Cancel are exact.
    const stats: WriteStats = { rowsWritten: 0, blocks: 0, syncs: 0 };
    const write = (rows: readonly (readonly CellValue[])[]) => {
      if (rows.length === 0) return;
      for (const row of rows) {
        const full = complete([...row]);
        table.rows.push(table.columns.map((_, i) => full[i] ?? ""));
      }
      stats.rowsWritten += rows.length;
      stats.blocks++;
      this.changed();
    };
    return {
      tableName: table.name,
      sheetName: table.sheetName,
      append: async (rows) => write(rows),
      finish: async (): Promise<TableResult> => {
        table.complete = true;
        this.changed();
        const lastRow = table.rows.length + 1;
        return {
          tableName: table.name,
          sheetName: table.sheetName,
          address: `${table.sheetName}!A1:${columnLetter(table.columns.length - 1)}${lastRow}`,
          rowsWritten: stats.rowsWritten,
          stats: { ...stats },
        };
      },
      stats: () => ({ ...stats }),
    };
  }
}

/** The list separator of the page's language; "," outside a page (Node, tests). */
function pageListSeparator(): CsvOptions["separator"] {
  return typeof document === "undefined" || typeof navigator === "undefined" ? "," : listSeparatorFor(navigator.language);
}
