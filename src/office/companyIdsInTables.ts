/* global Excel */
// The company ids already in the workbook's tables, which lookalikes leave out: every column
// headed "Company id", "Account id" or "Id" of every table. In Excel only those columns are read
// (one column a table, in two round trips whatever the number of tables); in browser mode, the
// page's tables.
import { parseRecordId } from "../core/enrich/index.js";
import type { BrowserWorkbook } from "./browserWorkbook.js";
import type { ExcelRun } from "./enrichSelection.js";

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
      return { table, header: table.getHeaderRowRange().load("values") };
    });
    await context.sync();
    const columns = headed.flatMap(({ table, header }) =>
      (header.values[0] ?? []).flatMap((cell, index) => (isIdHeader(cell) ? [table.getDataBodyRange().getColumn(index).load("values")] : [])),
    );
    if (columns.length === 0) return [];
    await context.sync();
    return columns.flatMap((column) => idsOf(column.values.map((row) => row[0])));
  });
}
