/* global Excel */
// Reads the values of the selected worksheet range (row ids for an audience enrichment).
// The only Excel code of the job panel; the browser workbook has no selection to read.

/** The selected cells' values, row by row (only the used part: a whole column reads fast). */
export async function readSelectedCellValues(): Promise<unknown[][]> {
  return Excel.run(async (context) => {
    const used = context.workbook.getSelectedRange().getUsedRangeOrNullObject(true);
    used.load("values");
    await context.sync();
    if (used.isNullObject) return [];
    return used.values as unknown[][];
  });
}
