/* global Excel */
// The Excel side of WorkbookAdapter: every Excel call of the task pane lives here. Each write
// is one short Excel.run with one context.sync(): text format ("@") on text cells first, then
// the values, then number formats and links; the table object is made (or resized) last, so
// a cancelled or failed insert still leaves a table over exactly the rows written.
import {
  hyperlinkAddress,
  numberFormatOf,
  rowsPerBlock,
  uniqueHeaders,
  uniqueSheetName,
  uniqueTableName,
  type CellValue,
  type ColumnSpec,
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

/** Excel.run, injectable so tests and the bench pass a fake. */
export type ExcelRun = <T>(batch: (context: Excel.RequestContext) => Promise<T>) => Promise<T>;

export interface ExcelWorkbookOptions {
  run?: ExcelRun;
  /** Rows per write; defaults to rowsPerBlock(columns). */
  blockRows?: number;
  tableStyle?: string;
}

/** Where a table sits: plain numbers, so each write can use a fresh request context. */
interface Placement {
  sheetName: string;
  tableName: string;
  top: number;
  left: number;
  columns: readonly ColumnSpec[];
  /** Columns the user added to the right of ours (refresh only). */
  userColumns: number;
  /** Formulas of the user's columns, by record id, to carry over on refresh. */
  userCellsById?: Map<string, unknown[]>;
  idColumn: number;
  /** True when the table object exists already (refresh). */
  existing: boolean;
  /** Rows the area held before (refresh), so leftovers are cleared. */
  previousRows: number;
  /** Data rows kept above the new ones (append). */
  appendAfter?: number;
}

const TEXT_FORMAT = "@";

function isExcelError(error: unknown): error is { code?: string; message: string } {
  return typeof error === "object" && error !== null && "message" in error;
}

function excelFailure(what: string, error: unknown): WorkbookError {
  if (error instanceof WorkbookError) return error;
  const detail = isExcelError(error) ? error.message : String(error);
  return new WorkbookError("excel", `Excel could not ${what}: ${detail}`);
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
      let selection: Excel.Range | undefined;
      if (request.target.kind === "selection") {
        selection = context.workbook.getSelectedRange();
        selection.load(["rowIndex", "columnIndex"]);
        selection.worksheet.load("name");
      }
      await context.sync(this.countSync());
      const tableName = uniqueTableName(request.tableName, tables.items.map((t) => t.name));
      let sheet: Excel.Worksheet;
      let top = 0;
      let left = 0;
      if (request.target.kind === "newSheet" || !selection) {
        const wanted = request.target.kind === "newSheet" ? request.target.sheetName : "Results";
        sheet = sheets.add(uniqueSheetName(wanted, sheets.items.map((s) => s.name)));
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
        const ids = sheet.getRangeByIndexes(top + 1, left + idColumn, previousRows, 1);
        ids.load("values");
        const mine = sheet.getRangeByIndexes(top + 1, left + columns.length, previousRows, userColumns);
        mine.load("formulas");
        await context.sync(this.countSync());
        const carried = new Map<string, unknown[]>();
        const formulas = mine.formulas;
        ids.values.forEach((row, i) => {
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
      const placement: Placement = { ...at, userColumns: whole.columnCount - columns.length, idColumn: columns.findIndex((c) => c.key === "id"), previousRows: 0, appendAfter: whole.rowCount - 1 };
      return placement;
    }).catch((error: unknown) => {
      throw excelFailure("add rows to the table", error);
    });
    return this.writer(placement);
  }

  async tableExists(tableName: string): Promise<boolean> {
    return this.run(async (context) => {
      const table = context.workbook.tables.getItemOrNullObject(tableName);
      table.load("name");
      await context.sync(this.countSync());
      return !table.isNullObject;
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
    const { columns } = placement;
    const width = columns.length + placement.userColumns;
    const blockRows = this.options.blockRows ?? rowsPerBlock(width);
    const queue: (readonly CellValue[])[] = [];
    const stats: WriteStats = { rowsWritten: 0, blocks: 0, syncs: 0 };
    let finished: TableResult | undefined;

    const writeBlock = async (block: (readonly CellValue[])[]) => {
      const startRow = placement.top + 1 + (placement.appendAfter ?? 0) + stats.rowsWritten;
      await this.run(async (context) => {
        context.application.suspendApiCalculationUntilNextSync();
        const sheet = context.workbook.worksheets.getItem(placement.sheetName);
        const n = block.length;
        const values = block.map((row) => columns.map((_, c) => row[c] ?? ""));
        // 1. Text format on every text cell before any value lands, so "=..." stays text.
        columns.forEach((column, c) => {
          const col = sheet.getRangeByIndexes(startRow, placement.left + c, n, 1);
          if (column.type === "text" || column.type === "url") {
            col.numberFormat = values.map(() => [TEXT_FORMAT]);
          } else {
            // A typed column can still hold text when the service sent something else.
            values.forEach((row, r) => {
              if (typeof row[c] === "string" && row[c] !== "") {
                sheet.getRangeByIndexes(startRow + r, placement.left + c, 1, 1).numberFormat = [[TEXT_FORMAT]];
              }
            });
          }
        });
        // 2. Values.
        sheet.getRangeByIndexes(startRow, placement.left, n, columns.length).values = values;
        if (placement.userColumns > 0) {
          const carried = values.map((row) => {
            const id = placement.idColumn >= 0 ? String(row[placement.idColumn] ?? "") : "";
            const old = placement.userCellsById?.get(id);
            return Array.from({ length: placement.userColumns }, (_, u) => (old?.[u] ?? "") as string | number | boolean);
          });
          sheet.getRangeByIndexes(startRow, placement.left + columns.length, n, placement.userColumns).formulas = carried;
        }
        // 3. Number formats of typed columns, then links.
        columns.forEach((column, c) => {
          if (column.type === "text" || column.type === "url") return;
          const format = numberFormatOf(column);
          sheet.getRangeByIndexes(startRow, placement.left + c, n, 1).numberFormat = values.map((row) =>
            [typeof row[c] === "string" && row[c] !== "" ? TEXT_FORMAT : format],
          );
        });
        columns.forEach((column, c) => {
          if (column.type !== "url") return;
          values.forEach((row, r) => {
            const address = hyperlinkAddress(row[c] ?? "");
            if (address) {
              sheet.getRangeByIndexes(startRow + r, placement.left + c, 1, 1).hyperlink = {
                address,
                textToDisplay: String(row[c]),
              };
            }
          });
        });
        await context.sync(this.countSync());
      });
      stats.rowsWritten += block.length;
      stats.blocks++;
      stats.syncs++;
    };

    const flush = async (all: boolean) => {
      while (queue.length >= blockRows || (all && queue.length > 0)) {
        await writeBlock(queue.splice(0, blockRows));
      }
    };

    const makeTable = async (): Promise<TableResult> =>
      this.run(async (context) => {
        const sheet = context.workbook.worksheets.getItem(placement.sheetName);
        // A table needs at least one data row; an empty result gets one blank row.
        const rows = Math.max(1, (placement.appendAfter ?? 0) + stats.rowsWritten);
        const area = sheet.getRangeByIndexes(placement.top, placement.left, rows + 1, width);
        let table: Excel.Table;
        if (placement.existing) {
          table = context.workbook.tables.getItem(placement.tableName);
          table.resize(area);
        } else {
          table = sheet.tables.add(area, true);
          table.name = placement.tableName;
          table.style = this.options.tableStyle ?? "TableStyleMedium2";
          sheet.activate();
        }
        area.format.autofitColumns();
        const range = table.getRange();
        range.load("address");
        await context.sync(this.countSync());
        stats.syncs++;
        return {
          tableName: placement.tableName,
          sheetName: placement.sheetName,
          address: range.address,
          rowsWritten: stats.rowsWritten,
          stats: { ...stats },
        };
      });

    return {
      tableName: placement.tableName,
      sheetName: placement.sheetName,
      append: async (rows) => {
        if (finished) throw new WorkbookError("excel", "This table is finished; start a new insert.");
        queue.push(...rows);
        try {
          await flush(false);
        } catch (error) {
          throw excelFailure("write the rows", error);
        }
      },
      finish: async () => {
        if (finished) return finished;
        let writeError: unknown;
        try {
          await flush(true);
        } catch (error) {
          writeError = error;
          queue.length = 0;
        }
        // Even when the last block failed, the table covers exactly the rows that were written.
        finished = await makeTable().catch((error: unknown) => {
          throw excelFailure("create the table", error);
        });
        if (writeError !== undefined) throw excelFailure("write the last rows", writeError);
        return finished;
      },
      stats: () => ({ ...stats }),
    };
  }
}
