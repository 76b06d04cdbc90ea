/* global Excel */
// Excel side of "enrich selection": read the selected column of ids, and write enriched fields
// into new columns to its right, text-safe (a string cell gets the text format "@" before its
// value, so "=cmd" or "+1 555" stays text) and never over data without the user's word.
import type { CellValue, ReadSelectionResult, SelectionSource, WriteColumnsRequest, WriteColumnsResult } from "../core/enrich/index.js";
import { formatAddress, parseAddress as parseSheetAddress } from "../core/sheet/index.js";
import { blocksUnderLimits, jsonBytes, readRowsInBlocks } from "./excelLimits.js";

/** Excel.run, injectable so tests pass a fake. */
export type ExcelRun = <T>(batch: (context: Excel.RequestContext) => Promise<T>) => Promise<T>;

export interface ExcelSelectionOptions {
  run?: ExcelRun;
  /** At most this many rows a write request (each is also kept under Excel's 5 MB and 5 million cells). */
  blockRows?: number;
}

const TEXT_FORMAT = "@";
const GENERAL_FORMAT = "General";
/** More rows than this means a whole column was selected: read only its used part. */
const WHOLE_COLUMN_ROWS = 100_000;

interface Position {
  sheet: string;
  row: number;
  col: number;
  rows: number;
}

export function createExcelSelectionSource(options: ExcelSelectionOptions = {}): SelectionSource {
  const run: ExcelRun = options.run ?? ((batch) => Excel.run(batch));
  const blockRows = Math.max(1, options.blockRows ?? Infinity);
  return {
    readIds: () => run((context) => readSelectedColumn(context)),
    writeColumns: (request) => run((context) => writeColumns(context, request, blockRows)),
    readColumnBeside: (address, offset) => run((context) => readColumnBeside(context, address, offset)),
  };
}

async function readColumnBeside(context: Excel.RequestContext, address: string, offset: number): Promise<unknown[] | undefined> {
  const position = parseAddress(address);
  if (position.col + offset < 0) return undefined;
  const sheet = context.workbook.worksheets.getItem(position.sheet);
  const values = await readRowsInBlocks({
    rows: position.rows,
    width: 1,
    range: (start, count) => sheet.getRangeByIndexes(position.row + start, position.col + offset, count, 1),
    sync: () => context.sync(),
  });
  return values.map((row) => row[0] as unknown);
}

async function readSelectedColumn(context: Excel.RequestContext): Promise<ReadSelectionResult> {
  let range = context.workbook.getSelectedRange();
  range.load("address, rowCount, columnCount");
  await context.sync();
  if (range.columnCount !== 1) {
    return { ok: false, message: "Select one column of ids (a range or a table column), then try again." };
  }
  if (range.rowCount > WHOLE_COLUMN_ROWS) {
    const used = range.getUsedRangeOrNullObject(true);
    used.load("address");
    await context.sync();
    if (used.isNullObject) return { ok: false, message: "The selected column is empty." };
    range = used;
  }
  range.load("address, rowIndex, columnIndex, rowCount");
  await context.sync();
  const at = range;
  const read = await readRowsInBlocks({
    rows: at.rowCount,
    width: 1,
    range: (start, count) => at.worksheet.getRangeByIndexes(at.rowIndex + start, at.columnIndex, count, 1),
    sync: () => context.sync(),
  });
  const values = read.map((row) => row[0] as unknown);
  while (values.length > 0 && (values[values.length - 1] === "" || values[values.length - 1] === null)) values.pop();
  if (values.length === 0) return { ok: false, message: "The selected column is empty." };
  return { ok: true, selection: { address: range.address, values } };
}

async function writeColumns(context: Excel.RequestContext, request: WriteColumnsRequest, blockRows: number): Promise<WriteColumnsResult> {
  // `at` names the columns themselves; `address` the column they go to the right of.
  const position = request.at !== undefined ? parseAddress(request.at) : parseAddress(request.address);
  const columns = request.headers?.length ?? request.rows[0]?.length ?? 0;
  const headerRows = request.headers ? 1 : 0;
  const totalRows = headerRows + request.rows.length;
  const sheet = context.workbook.worksheets.getItem(position.sheet);
  const left = request.at !== undefined ? position.col : position.col + 1;
  const targetAddress = a1(position.sheet, position.row, left, Math.max(1, totalRows), Math.max(1, columns));
  if (columns === 0 || totalRows === 0) return { status: "written", address: targetAddress };

  if (!request.overwrite) {
    const used = sheet.getRangeByIndexes(position.row, left, totalRows, columns).getUsedRangeOrNullObject(true);
    used.load("address");
    await context.sync();
    if (!used.isNullObject) return { status: "notEmpty", address: targetAddress };
  }

  const all: CellValue[][] = (request.headers ? [request.headers, ...request.rows] : request.rows).map((row) => normalizeRow(row, columns));
  const formats = all.map((row) => row.map((value, c) => (typeof value === "string" ? TEXT_FORMAT : (request.numberFormats?.[c] ?? GENERAL_FORMAT))));
  // Each block's request: its values and its formats, measured as JSON.
  const bytesOf = (i: number) => jsonBytes(all[i]) + jsonBytes(formats[i]) + 2;
  for (const [start, end] of blocksUnderLimits(all.length, bytesOf, columns, blockRows)) {
    const range = sheet.getRangeByIndexes(position.row + start, left, end - start, columns);
    context.application.suspendApiCalculationUntilNextSync();
    // Formats before values: a string is text in Excel only if its cell is text first.
    // Numbers keep their field's format (thousands separators), as a search insert writes them.
    range.numberFormat = formats.slice(start, end);
    range.values = all.slice(start, end);
    // eslint-disable-next-line office-addins/no-context-sync-in-loop -- one sync per block keeps each request under Excel's size cap
    await context.sync();
  }
  return { status: "written", address: targetAddress };
}

function normalizeRow(row: readonly CellValue[], columns: number): CellValue[] {
  return Array.from({ length: columns }, (_, index) => row[index] ?? "");
}

/** "Sheet1!B2:B20", "'My sheet'!B2" -> sheet name and zero-based position. */
export function parseAddress(address: string): Position {
  const { sheet, row, col, rows } = parseSheetAddress(address);
  return { sheet, row, col, rows };
}

function a1(sheet: string, row: number, col: number, rows: number, cols: number): string {
  return formatAddress({ sheet, row, col, rows, cols }, "cell");
}
