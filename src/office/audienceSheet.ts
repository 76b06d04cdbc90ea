/* global Excel */
// Excel side of "Send to an audience": the selected table (an Excel table the selection is in,
// the region around one selected cell, or the selected range) with its first row as the header,
// and cells written into columns beside it, text-safe (a string cell is text-formatted before its
// value, so "=cmd" stays text). Only the cells given are written; every other cell stays as it is.
import type { AudienceSheet, ColumnWrite, ReadTableResult } from "../core/audiences/index.js";
import { columnLetter, formatAddress, parseAddress, type CellValue, type SheetArea } from "../core/sheet/index.js";
import type { ExcelRun } from "./enrichSelection.js";
import { jsonBytes, PAYLOAD_BUDGET_BYTES, readRowsInBlocks, rowsThatFit } from "./excelLimits.js";

const TEXT_FORMAT = "@";
const GENERAL_FORMAT = "General";
/** Columns past the table's right end the re-read looks at for the columns written beside it. */
const LOOK_RIGHT = 60;
/** Body rows read with the header, in its round trip: their sizes size the body's blocks. */
const SAMPLE_ROWS = 100;

type Area = SheetArea;

/** "Leads!A1:F301" or "'My leads'!B2:C9" -> the area (zero-based). */
export const parseArea: (address: string) => Area = parseAddress;

async function readArea(context: Excel.RequestContext, area: Area): Promise<ReadTableResult> {
  if (area.rows < 2) return { ok: false, message: "Select a table or range with a header row and at least one row below it." };
  const sheet = context.workbook.worksheets.getItem(area.sheet);
  // The header row, with what was written beside it since (link, status, brought-back columns),
  // and the first and last rows below it (the formats, and the sizes of rows for the body's blocks).
  const wide = area.cols + LOOK_RIGHT;
  const headerRow = sheet.getRangeByIndexes(area.row, area.col, 1, wide).load("values");
  const sampled = Math.min(SAMPLE_ROWS, area.rows - 1);
  const sample = sheet.getRangeByIndexes(area.row + 1, area.col, sampled, wide).load("values, numberFormat");
  const last = sheet.getRangeByIndexes(area.row + area.rows - sampled, area.col, sampled, wide).load("values");
  await context.sync();
  const headerValues = (headerRow.values[0] ?? []) as unknown[];
  let cols = area.cols;
  while (cols < headerValues.length && headerValues[cols] !== "" && headerValues[cols] !== null) cols++;
  const rows = await readRowsInBlocks({
    rows: area.rows - 1,
    width: cols,
    range: (start, count) => sheet.getRangeByIndexes(area.row + 1 + start, area.col, count, cols),
    sync: () => context.sync(),
    first: sample.values.map((row) => row.slice(0, cols)),
    samples: last.values.map((row) => row.slice(0, cols)),
  });
  return {
    ok: true,
    table: {
      address: formatAddress(area),
      headers: headerValues.slice(0, cols).map((h) => (h === null || h === undefined ? "" : String(h))),
      rows,
      formats: ((sample.numberFormat[0] ?? []) as unknown[]).slice(0, cols).map((f) => (typeof f === "string" ? f : undefined)),
    },
  };
}

async function readSelected(context: Excel.RequestContext): Promise<ReadTableResult> {
  const selection = context.workbook.getSelectedRange();
  selection.load("address, rowCount, columnCount");
  const tables = selection.getTables(false);
  const count = tables.getCount();
  await context.sync();
  let range: Excel.Range;
  // eslint-disable-next-line office-addins/load-object-before-read -- a ClientResult is read after sync, it has no load
  if (count.value > 0) range = tables.getFirst().getRange();
  else if (selection.rowCount === 1 && selection.columnCount === 1) range = selection.getSurroundingRegion();
  else range = selection.getUsedRange(true);
  range.load("address");
  await context.sync();
  return readArea(context, parseArea(range.address));
}

/** Rows given, in runs of consecutive rows (one range each). */
function runs(cells: ColumnWrite["cells"]): Array<{ start: number; values: CellValue[] }> {
  const sorted = [...cells].sort((a, b) => a.row - b.row);
  const out: Array<{ start: number; values: CellValue[] }> = [];
  for (const cell of sorted) {
    const last = out[out.length - 1];
    if (last && last.start + last.values.length === cell.row) last.values.push(cell.value);
    else out.push({ start: cell.row, values: [cell.value] });
  }
  return out;
}

/**
 * A column the add-in starts beside the table (its header cell empty) must be empty below too:
 * cells there were typed by someone, and are never written over.
 */
async function checkNewColumns(context: Excel.RequestContext, sheet: Excel.Worksheet, area: Area, writes: readonly ColumnWrite[]): Promise<void> {
  // Each column's header and the used part below it, in one round trip.
  const checks = writes.map((w) => ({
    header: sheet.getRangeByIndexes(area.row, area.col + w.column, 1, 1).load("values"),
    used: sheet
      .getRangeByIndexes(area.row + 1, area.col + w.column, Math.max(1, area.rows - 1), 1)
      .getUsedRangeOrNullObject(true)
      .load("address"),
    column: w.column,
  }));
  await context.sync();
  const empty = (value: unknown) => value === "" || value === null || value === undefined;
  const taken = checks.flatMap((c) => (empty(c.header.values[0]?.[0]) && !c.used.isNullObject ? [columnLetter(area.col + c.column)] : []));
  if (taken.length > 0) {
    const which = taken.length === 1 ? `Column ${taken[0]} holds` : `Columns ${taken.join(", ")} hold`;
    throw new Error(
      `${which} data below an empty header beside the table, where the results go; nothing was written. Give it a header or move it, then try again.`,
    );
  }
}

/** Bytes one cell adds to a request: its value and its format, as JSON. */
const cellBytes = (value: CellValue) => jsonBytes(value) + (typeof value === "string" ? 6 : 12) + 6;

/**
 * Writes runs of one column's cells, formats before values (a string is text in Excel only if its
 * cell is text first), filling each request up to the byte budget before it is sent.
 */
function columnWriter(context: Excel.RequestContext, sheet: Excel.Worksheet) {
  let pending = 0;
  const put = (row: number, col: number, values: CellValue[]) => {
    const range = sheet.getRangeByIndexes(row, col, values.length, 1);
    range.numberFormat = values.map((v) => [typeof v === "string" ? TEXT_FORMAT : GENERAL_FORMAT]);
    range.values = values.map((v) => [v]);
  };
  return {
    async write(row: number, col: number, values: CellValue[]): Promise<void> {
      for (let i = 0; i < values.length;) {
        const n = rowsThatFit(values.length, i, (k) => cellBytes(values[k]!), 1, Infinity, PAYLOAD_BUDGET_BYTES - pending);
        const bytes = values.slice(i, i + n).reduce((sum: number, v) => sum + cellBytes(v), 0);
        if (pending > 0 && pending + bytes > PAYLOAD_BUDGET_BYTES) {
          // eslint-disable-next-line office-addins/no-context-sync-in-loop -- one call a full block keeps each request under Excel's 5 MB
          await context.sync();
          pending = 0;
          continue;
        }
        put(row + i, col, values.slice(i, i + n));
        pending += bytes;
        i += n;
      }
    },
    done: () => context.sync(),
  };
}

async function writeColumns(context: Excel.RequestContext, address: string, writes: readonly ColumnWrite[]): Promise<void> {
  const area = parseArea(address);
  const sheet = context.workbook.worksheets.getItem(area.sheet);
  await checkNewColumns(context, sheet, area, writes);
  const out = columnWriter(context, sheet);
  for (const write of writes) {
    await out.write(area.row, area.col + write.column, [write.header]);
    for (const run of runs(write.cells)) await out.write(area.row + 1 + run.start, area.col + write.column, run.values);
  }
  await out.done();
}

export function createExcelAudienceSheet(run: ExcelRun = (batch) => Excel.run(batch)): AudienceSheet {
  return {
    readTable: () => run((context) => readSelected(context)),
    readTableAt: (address) => run((context) => readArea(context, parseArea(address))),
    writeColumns: (address, writes) => run((context) => writeColumns(context, address, writes)),
  };
}
