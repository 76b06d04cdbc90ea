/* global Excel */
// The Excel side of WorkbookAdapter: every Excel call of the task pane lives here or in
// excelTableWriter.ts. This file decides where a table goes (a new sheet, the selection, a
// refresh over an existing table, an append) and keeps the saved searches; the writer writes the
// rows block by block and makes the table last.
import { uniqueHeaders, uniqueSheetName, uniqueTableName, type ColumnSpec } from "../core/sheet/index.js";
import { readRowsInBlocks } from "./excelLimits.js";
import { excelFailure, excelTableWriter, TEXT_FORMAT, type ExcelRun, type Placement } from "./excelTableWriter.js";
import { SAVED_SEARCHES_KEY, WorkbookError, type NewTableRequest, type SavedSearchRecord, type TableWriter, type WorkbookAdapter } from "./workbook.js";

export type { ExcelRun } from "./excelTableWriter.js";

export interface ExcelWorkbookOptions {
  run?: ExcelRun;
  /** At most this many rows a write (each write is also kept under Excel's 5 MB and 5 million cells). */
  blockRows?: number;
  tableStyle?: string;
  /** Whether Table.resize (ExcelApi 1.13) is there; asked of the host when not given. */
  tableResize?: boolean;
}

export class ExcelWorkbook implements WorkbookAdapter {
  readonly kind = "excel" as const;
  readonly supportsSelection = true;
  private readonly run: ExcelRun;
  private syncs = 0;

  constructor(private readonly options: ExcelWorkbookOptions = {}) {
    this.run = options.run ?? (<T>(batch: (context: Excel.RequestContext) => Promise<T>) => Excel.run(batch));
  }

  /** context.sync() calls made so far (for the bench). */
  syncCount(): number {
    return this.syncs;
  }

  /** Passed to context.sync() so every sync is counted where it happens. */
  private countSync(): number {
    return ++this.syncs;
  }

  async createTable(request: NewTableRequest): Promise<TableWriter> {
    const columns = request.columns;
    const headers = uniqueHeaders(columns.map((c) => c.header));
    const placement = await this.run(async (context) => {
      const sheets = context.workbook.worksheets;
      sheets.load("items/name");
      const tables = context.workbook.tables;
      tables.load("items/name");
      const names = context.workbook.names;
      names.load("items/name");
      let selection: Excel.Range | undefined;
      if (request.target.kind === "selection") {
        selection = context.workbook.getSelectedRange();
        selection.load(["rowIndex", "columnIndex"]);
        selection.worksheet.load("name");
      }
      await context.sync(this.countSync());
      const tableName = uniqueTableName(
        request.tableName,
        [...tables.items, ...names.items].map((t) => t.name),
      );
      let sheet: Excel.Worksheet;
      let top = 0;
      let left = 0;
      if (request.target.kind === "newSheet" || !selection) {
        const wanted = request.target.kind === "newSheet" ? request.target.sheetName : "Results";
        sheet = sheets.add(
          uniqueSheetName(
            wanted,
            sheets.items.map((s) => s.name),
          ),
        );
        sheet.load("name");
      } else {
        top = selection.rowIndex;
        left = selection.columnIndex;
        sheet = selection.worksheet;
        const area = sheet.getRangeByIndexes(top, left, Math.max(1, request.expectedRows) + 1, columns.length);
        const used = area.getUsedRangeOrNullObject(true);
        used.load("address");
        await context.sync(this.countSync());
        if (!used.isNullObject) {
          const message = `The area ${used.address} already holds data. Write the table over it?`;
          const go = request.confirmOverwrite ? await request.confirmOverwrite(message) : false;
          if (!go) throw new WorkbookError("declined", "Nothing was written: the selected area is not empty. Choose an empty cell or insert into a new sheet.");
          area.clear("Contents");
        }
      }
      // The header row is our own text; formatted as text all the same.
      const headerRange = sheet.getRangeByIndexes(top, left, 1, columns.length);
      headerRange.numberFormat = [headers.map(() => TEXT_FORMAT)];
      headerRange.values = [headers];
      await context.sync(this.countSync());
      const placement: Placement = {
        sheetName: sheet.name,
        tableName,
        top,
        left,
        columns,
        userColumns: 0,
        idColumn: columns.findIndex((c) => c.key === "id"),
        existing: false,
        previousRows: 0,
      };
      return placement;
    }).catch((error: unknown) => {
      throw excelFailure("start the table", error);
    });
    return this.writer(placement);
  }

  async refreshTable(tableName: string, columns: readonly ColumnSpec[]): Promise<TableWriter> {
    const placement = await this.run(async (context) => {
      const { table, whole } = await this.ownTable(context, tableName, columns);
      const top = whole.rowIndex;
      const left = whole.columnIndex;
      const previousRows = whole.rowCount - 1;
      const userColumns = whole.columnCount - columns.length;
      const idColumn = columns.findIndex((c) => c.key === "id");
      let userCellsById: Map<string, unknown[]> | undefined;
      const sheet = table.worksheet;
      if (userColumns > 0 && idColumn >= 0 && previousRows > 0) {
        // Carry the user's own cells (values or formulas) over to the same records by id.
        const read = (col: number, cols: number, property: "values" | "formulas") =>
          readRowsInBlocks({
            rows: previousRows,
            width: cols,
            range: (start, count) => sheet.getRangeByIndexes(top + 1 + start, col, count, cols),
            sync: () => context.sync(this.countSync()),
            property,
          });
        const ids = await read(left + idColumn, 1, "values");
        const formulas = await read(left + columns.length, userColumns, "formulas");
        const carried = new Map<string, unknown[]>();
        ids.forEach((row, i) => {
          const id = row[0];
          if (id !== "" && id !== null && id !== undefined) carried.set(String(id), formulas[i] ?? []);
        });
        userCellsById = carried;
      }
      if (previousRows > 0) {
        sheet.getRangeByIndexes(top + 1, left, previousRows, whole.columnCount).clear("Contents");
        await context.sync(this.countSync());
      }
      const placement: Placement = {
        sheetName: table.worksheet.name,
        tableName: table.name,
        top,
        left,
        columns,
        userColumns,
        idColumn,
        existing: true,
        previousRows,
        ...(userCellsById ? { userCellsById } : {}),
      };
      return placement;
    }).catch((error: unknown) => {
      throw excelFailure("refresh the table", error);
    });
    return this.writer(placement);
  }

  /** A table this add-in wrote: it exists and its first columns are the search's. */
  private async ownTable(context: Excel.RequestContext, tableName: string, columns: readonly ColumnSpec[]) {
    const table = context.workbook.tables.getItemOrNullObject(tableName);
    table.load("name");
    await context.sync(this.countSync());
    if (table.isNullObject) {
      throw new WorkbookError("notFound", `The table ${tableName} is no longer in this workbook; run the search again to insert it.`);
    }
    const whole = table.getRange();
    whole.load(["rowIndex", "columnIndex", "rowCount", "columnCount"]);
    const header = table.getHeaderRowRange();
    header.load("values");
    table.worksheet.load("name");
    await context.sync(this.countSync());
    const headers = uniqueHeaders(columns.map((c) => c.header));
    const existing = (header.values[0] ?? []).map(String);
    if (existing.length < headers.length || headers.some((h, i) => existing[i] !== h)) {
      throw new WorkbookError(
        "tableChanged",
        `The first columns of ${tableName} are not the ones this search wrote (${headers.join(", ")}). Insert the search into a new sheet instead.`,
      );
    }
    return { table, whole };
  }

  async appendToTable(tableName: string, columns: readonly ColumnSpec[]): Promise<TableWriter> {
    const placement = await this.run(async (context) => {
      const { table, whole } = await this.ownTable(context, tableName, columns);
      const at = { sheetName: table.worksheet.name, tableName: table.name, top: whole.rowIndex, left: whole.columnIndex, columns, existing: true };
      const placement: Placement = {
        ...at,
        userColumns: whole.columnCount - columns.length,
        idColumn: columns.findIndex((c) => c.key === "id"),
        previousRows: 0,
        appendAfter: whole.rowCount - 1,
      };
      return placement;
    }).catch((error: unknown) => {
      throw excelFailure("add rows to the table", error);
    });
    return this.writer(placement);
  }

  async startRow(target: NewTableRequest["target"]): Promise<number> {
    if (target.kind !== "selection") return 0;
    return this.run(async (context) => {
      const selection = context.workbook.getSelectedRange().load("rowIndex");
      await context.sync(this.countSync());
      return selection.rowIndex;
    });
  }

  async tableExists(tableName: string): Promise<boolean> {
    return this.run(async (context) => {
      const table = context.workbook.tables.getItemOrNullObject(tableName);
      table.load("name");
      await context.sync(this.countSync());
      return !table.isNullObject;
    });
  }

  async definedNames(): Promise<string[]> {
    return this.run(async (context) => {
      const names = context.workbook.names;
      names.load("items/name");
      await context.sync(this.countSync());
      return names.items.map((n) => n.name);
    });
  }

  async loadSavedSearches(): Promise<SavedSearchRecord[]> {
    const { parseSavedSearches } = await import("../core/search/savedSearchSchema.js");
    return this.run(async (context) => {
      const setting = context.workbook.settings.getItemOrNullObject(SAVED_SEARCHES_KEY);
      setting.load("value");
      await context.sync(this.countSync());
      return setting.isNullObject ? [] : parseSavedSearches(setting.value);
    });
  }

  async storeSavedSearches(searches: readonly SavedSearchRecord[]): Promise<void> {
    await this.run(async (context) => {
      context.workbook.settings.add(SAVED_SEARCHES_KEY, JSON.stringify(searches));
      await context.sync(this.countSync());
    });
  }

  private writer(placement: Placement): TableWriter {
    return excelTableWriter(
      {
        run: this.run,
        countSync: () => this.countSync(),
        blockRows: this.options.blockRows,
        tableStyle: this.options.tableStyle,
        tableResize: this.options.tableResize,
      },
      placement,
    );
  }
}
