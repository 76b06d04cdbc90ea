/* global Excel */
// Writing one table's rows into Excel, block by block: each block is one short Excel.run with
// one context.sync() (text format "@" on text cells first, then the values, then number formats
// and links), and the table object is made (or resized) last, so a cancelled or failed insert
// still leaves a table over exactly the rows written. excelWorkbook.ts decides where it goes.
import { hyperlinkAddress, numberFormatOf, rowsPerBlock, type CellValue, type ColumnSpec } from "../core/sheet/index.js";
import { WorkbookError, type TableResult, type TableWriter, type WriteStats } from "./workbook.js";

/** Excel.run, injectable so tests and the bench pass a fake. */
export type ExcelRun = <T>(batch: (context: Excel.RequestContext) => Promise<T>) => Promise<T>;

export interface WriterOptions {
  run: ExcelRun;
  /** Counts a context.sync() (the bench reads the count). */
  countSync(): number;
  blockRows?: number | undefined;
  tableStyle?: string | undefined;
}

/** Where a table sits: plain numbers, so each write can use a fresh request context. */
export interface Placement {
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

export const TEXT_FORMAT = "@";

function isExcelError(error: unknown): error is { code?: string; message: string } {
  return typeof error === "object" && error !== null && "message" in error;
}

export function excelFailure(what: string, error: unknown): WorkbookError {
  if (error instanceof WorkbookError) return error;
  const detail = isExcelError(error) ? error.message : String(error);
  return new WorkbookError("excel", `Excel could not ${what}: ${detail}`);
}

export function excelTableWriter(options: WriterOptions, placement: Placement): TableWriter {
  const { columns } = placement;
  const width = columns.length + placement.userColumns;
  const blockRows = options.blockRows ?? rowsPerBlock(width);
  const queue: (readonly CellValue[])[] = [];
  const stats: WriteStats = { rowsWritten: 0, blocks: 0, syncs: 0 };
  let finished: TableResult | undefined;

  const writeBlock = async (block: (readonly CellValue[])[]) => {
    const startRow = placement.top + 1 + (placement.appendAfter ?? 0) + stats.rowsWritten;
    await options.run(async (context) => {
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
        sheet.getRangeByIndexes(startRow, placement.left + c, n, 1).numberFormat = values.map((row) => [
          typeof row[c] === "string" && row[c] !== "" ? TEXT_FORMAT : format,
        ]);
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
      await context.sync(options.countSync());
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
    options.run(async (context) => {
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
        table.style = options.tableStyle ?? "TableStyleMedium2";
        sheet.activate();
      }
      area.format.autofitColumns();
      const range = table.getRange();
      range.load("address");
      await context.sync(options.countSync());
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
