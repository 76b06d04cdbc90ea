/* global Excel */
// The company ids already in the workbook's tables, which lookalikes leave out: every column
// headed "Company id", "Account id" or "Id" of every table. In Excel only those columns are read,
// after two round trips whatever the number of tables (the tables, then their headers), each in
// blocks under Excel's limits; in browser mode, the page's tables.
import { parseRecordId } from "../core/enrich/index.js";
import type { BrowserWorkbook } from "./browserWorkbook.js";
import type { ExcelRun } from "./enrichSelection.js";
import { readRowsInBlocks } from "./excelLimits.js";

const ID_HEADER = /^(company id|account id|id)$/i;

const isIdHeader = (header: unknown) => ID_HEADER.test(String(header).trim());

function idsOf(values: Iterable<unknown>): string[] {
  const ids: string[] = [];
  for (const value of values) {
    const id = parseRecordId(value);
    if (id !== undefined) ids.push(String(id));
  }
  return ids;
}

export function browserCompanyIdsInTables(workbook: BrowserWorkbook): string[] {
  return workbook
    .listTables()
    .flatMap((table) => table.headers.flatMap((header, column) => (isIdHeader(header) ? idsOf(table.rows.map((row) => row[column])) : [])));
}

export async function excelCompanyIdsInTables(run: ExcelRun = (batch) => Excel.run(batch)): Promise<string[]> {
  return run(async (context) => {
    const tables = context.workbook.tables;
    tables.load("items/name");
    await context.sync();
    if (tables.items.length === 0) return [];
    const headed = tables.items.map((item) => {
      const table = tables.getItem(item.name);
      return { header: table.getHeaderRowRange().load("values"), body: table.getDataBodyRange().load("rowIndex, columnIndex, rowCount") };
    });
    await context.sync();
    const ids: string[] = [];
    for (const { header, body } of headed) {
      for (const [index, cell] of (header.values[0] ?? []).entries()) {
        if (!isIdHeader(cell)) continue;
        const column = await readRowsInBlocks({
          rows: body.rowCount,
          width: 1,
          range: (start, count) => body.worksheet.getRangeByIndexes(body.rowIndex + start, body.columnIndex + index, count, 1),
          // eslint-disable-next-line office-addins/no-context-sync-in-loop -- one column after another, each in blocks under Excel's limits
          sync: () => context.sync(),
        });
        ids.push(...idsOf(column.map((row) => row[0])));
      }
    }
    return ids;
  });
}
