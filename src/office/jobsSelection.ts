/* global Excel */
// Reads the values of the selected worksheet range (row ids for an audience enrichment).
// The only Excel code of the job panel; the browser workbook has no selection to read.
import type { ExcelRun } from "./enrichSelection.js";
import { readRowsInBlocks } from "./excelLimits.js";

/**
 * The selected cells' values, row by row (only the used part: a whole column reads fast), read
 * in blocks under Excel's limits.
 */
export async function readSelectedCellValues(run: ExcelRun = (batch) => Excel.run(batch)): Promise<unknown[][]> {
  return run(async (context) => {
    const used = context.workbook.getSelectedRange().getUsedRangeOrNullObject(true);
    used.load("rowIndex, columnIndex, rowCount, columnCount");
    await context.sync();
    if (used.isNullObject) return [];
    return readRowsInBlocks({
      rows: used.rowCount,
      width: used.columnCount,
      range: (start, count) => used.worksheet.getRangeByIndexes(used.rowIndex + start, used.columnIndex, count, used.columnCount),
      sync: () => context.sync(),
    });
  });
}
