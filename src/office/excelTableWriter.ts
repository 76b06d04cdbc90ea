/* global Excel */
// Writing one table's rows into Excel, block by block: each block is one short Excel.run with
// one context.sync() (text format "@" on text cells first, then the values, then number formats
// and links), cut by measuring the bytes each row sends so every request stays under Excel's
// 5 MB and 5 million cells (excelLimits.ts), and the table object is made (or resized) last, so a
// cancelled or failed insert still leaves a table over exactly the rows written. Without
// Table.resize (ExcelApi 1.13) an existing table grows by blank rows added before each block
// and loses its surplus rows at the end. excelWorkbook.ts decides where it goes.
import { hyperlinkAddress, numberFormatOf, type CellValue, type ColumnSpec } from "../core/sheet/index.js";
import { jsonBytes, PAYLOAD_BUDGET_BYTES, rowsThatFit, rowsUnderCellLimit } from "./excelLimits.js";
import { supportsTableResize } from "./hostCapabilities.js";
import { WorkbookError, type TableResult, type TableWriter, type WriteStats } from "./workbook.js";

/** Excel.run, injectable so tests and the bench pass a fake. */
export type ExcelRun = <T>(batch: (context: Excel.RequestContext) => Promise<T>) => Promise<T>;

export interface WriterOptions {
  run: ExcelRun;
  /** Counts a context.sync() (the bench reads the count). */
  countSync(): number;
  /** At most this many rows a block (each block is also kept under Excel's limits). */
  blockRows?: number | undefined;
  tableStyle?: string | undefined;
  /** Whether Table.resize (ExcelApi 1.13) is there; asked of the host when not given. */
  tableResize?: boolean | undefined;
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

/** A row as the block will write it, with the bytes it adds to the request. */
interface PreparedRow {
  values: CellValue[];
  /** Link address of each url column's cell (undefined: no link). */
  links: (string | undefined)[];
  carried: (string | number | boolean)[] | undefined;
  bytes: number;
}

/** Prepares rows once: the values, the user's carried cells, the links, and the bytes they send. */
function rowPreparer(placement: Placement, growsByRows: boolean): (row: readonly CellValue[]) => PreparedRow {
  const { columns } = placement;
  const urlColumns = columns.flatMap((column, c) => (column.type === "url" ? [c] : []));
  const formatBytes = columns.map((column) => (column.type === "text" || column.type === "url" ? 6 : jsonBytes(numberFormatOf(column)) + 3));
  const blankRowBytes = jsonBytes(Array.from({ length: columns.length + placement.userColumns }, () => "")) + 1;
  return (row) => {
    const values = columns.map((_, c) => row[c] ?? "");
    let bytes = jsonBytes(values) + 1 + (growsByRows ? blankRowBytes : 0);
    values.forEach((value, c) => (bytes += formatBytes[c]! + (typeof value === "string" && value !== "" && formatBytes[c] !== 6 ? 7 : 0)));
    let carried: PreparedRow["carried"];
    if (placement.userColumns > 0) {
      const id = placement.idColumn >= 0 ? String(values[placement.idColumn] ?? "") : "";
      const old = placement.userCellsById?.get(id);
      carried = Array.from({ length: placement.userColumns }, (_, u) => (old?.[u] ?? "") as string | number | boolean);
      bytes += jsonBytes(carried) + 1;
    }
    const links = urlColumns.map((c) => hyperlinkAddress(values[c] ?? ""));
    links.forEach((address, i) => {
      if (address) bytes += jsonBytes({ address, textToDisplay: String(values[urlColumns[i]!]) });
    });
    return { values, links, carried, bytes };
  };
}

/** Queues one block's writes: formats of text cells, values, the user's cells, number formats, links. */
function queueBlock(sheet: Excel.Worksheet, placement: Placement, startRow: number, block: readonly PreparedRow[]): void {
  const { columns } = placement;
  const n = block.length;
  const values = block.map((row) => row.values);
  // 1. Text format on every text cell before any value lands, so "=..." stays text.
  columns.forEach((column, c) => {
    if (column.type === "text" || column.type === "url") {
      sheet.getRangeByIndexes(startRow, placement.left + c, n, 1).numberFormat = values.map(() => [TEXT_FORMAT]);
      return;
    }
    // A typed column can still hold text when the service sent something else.
    values.forEach((row, r) => {
      if (typeof row[c] === "string" && row[c] !== "") sheet.getRangeByIndexes(startRow + r, placement.left + c, 1, 1).numberFormat = [[TEXT_FORMAT]];
    });
  });
  // 2. Values.
  sheet.getRangeByIndexes(startRow, placement.left, n, columns.length).values = values;
  if (placement.userColumns > 0) {
    sheet.getRangeByIndexes(startRow, placement.left + columns.length, n, placement.userColumns).formulas = block.map((row) => row.carried ?? []);
  }
  // 3. Number formats of typed columns, then links.
  columns.forEach((column, c) => {
    if (column.type === "text" || column.type === "url") return;
    const format = numberFormatOf(column);
    sheet.getRangeByIndexes(startRow, placement.left + c, n, 1).numberFormat = values.map((row) => [
      typeof row[c] === "string" && row[c] !== "" ? TEXT_FORMAT : format,
    ]);
  });
  const urlColumns = columns.flatMap((column, c) => (column.type === "url" ? [c] : []));
  block.forEach((row, r) =>
    row.links.forEach((address, i) => {
      const c = urlColumns[i]!;
      if (address) sheet.getRangeByIndexes(startRow + r, placement.left + c, 1, 1).hyperlink = { address, textToDisplay: String(row.values[c]) };
    }),
  );
}

export function excelTableWriter(options: WriterOptions, placement: Placement): TableWriter {
  const width = placement.columns.length + placement.userColumns;
  // Without Table.resize (ExcelApi 1.13) an existing table is grown by rows.add before each block.
  const resizable = !placement.existing || (options.tableResize ?? supportsTableResize());
  const prepare = rowPreparer(placement, !resizable);
  const maxRows = Math.min(options.blockRows ?? Infinity, rowsUnderCellLimit(width));
  const queue: PreparedRow[] = [];
  let queuedBytes = 0;
  const stats: WriteStats = { rowsWritten: 0, blocks: 0, syncs: 0 };
  /** Data rows the table object spans now (grown by rows.add when it cannot be resized). */
  let tableRows = placement.existing ? (placement.appendAfter ?? placement.previousRows) : 0;
  let finished: TableResult | undefined;

  const writeBlock = async (block: PreparedRow[]) => {
    const first = (placement.appendAfter ?? 0) + stats.rowsWritten;
    await options.run(async (context) => {
      context.application.suspendApiCalculationUntilNextSync();
      const sheet = context.workbook.worksheets.getItem(placement.sheetName);
      const grow = resizable ? 0 : first + block.length - tableRows;
      if (grow > 0) {
        const blank = Array.from({ length: grow }, () => Array.from({ length: width }, () => ""));
        context.workbook.tables.getItem(placement.tableName).rows.add(undefined, blank);
      }
      queueBlock(sheet, placement, placement.top + 1 + first, block);
      await context.sync(options.countSync());
      tableRows = Math.max(tableRows, first + block.length);
    });
    stats.rowsWritten += block.length;
    stats.blocks++;
    stats.syncs++;
  };

  const flush = async (all: boolean) => {
    while (queue.length >= maxRows || queuedBytes >= PAYLOAD_BUDGET_BYTES || (all && queue.length > 0)) {
      const n = rowsThatFit(queue.length, 0, (i) => queue[i]!.bytes, width, maxRows);
      const block = queue.splice(0, n);
      queuedBytes -= block.reduce((sum, row) => sum + row.bytes, 0);
      await writeBlock(block);
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
        if (resizable) table.resize(area);
        else fitWithoutResize(context, sheet, placement, width, rows, tableRows);
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
      for (const row of rows) {
        const prepared = prepare(row);
        queue.push(prepared);
        queuedBytes += prepared.bytes;
      }
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

/**
 * An existing table without Table.resize: it grew block by block (rows.add); rows it holds past
 * the ones written now (a refresh to fewer rows) are deleted, the cells below moving up.
 */
function fitWithoutResize(context: Excel.RequestContext, sheet: Excel.Worksheet, placement: Placement, width: number, rows: number, tableRows: number): void {
  const blank = rows - Math.max(0, tableRows);
  if (blank > 0) {
    // Nothing written and an empty table: it keeps one blank row (it already has it).
    context.workbook.tables.getItem(placement.tableName).rows.add(
      undefined,
      Array.from({ length: blank }, () => Array.from({ length: width }, () => "")),
    );
  }
  if (tableRows > rows) sheet.getRangeByIndexes(placement.top + 1 + rows, placement.left, tableRows - rows, width).delete("Up");
}
