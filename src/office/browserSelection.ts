// Browser mode's "selection" for enriching ids: the table column the user picked on the page.
// New columns go into the first empty columns to the right of it, which in a browser table is
// the table's right end: nothing is ever written over, except when the caller rewrites columns
// it wrote before (`at`: the address the first write answered).
import type { ReadSelectionResult, SelectionSource, WriteColumnsRequest, WriteColumnsResult } from "../core/enrich/index.js";
import { columnLetter, firstColumnOf } from "../core/sheet/index.js";
import type { BrowserWorkbook } from "./browserWorkbook.js";

export function browserSelectionSource(workbook: BrowserWorkbook): SelectionSource {
  const address = (sheet: string, from: number, to: number, rows: number) => `${sheet}!${columnLetter(from)}1:${columnLetter(to)}${rows + 1}`;
  return {
    readIds: async (): Promise<ReadSelectionResult> => {
      const picked = workbook.selectedColumn();
      if (!picked) return { ok: false, message: "Pick the column of ids first: click its header in a table below." };
      const { table, column } = picked;
      return {
        ok: true,
        selection: {
          address: address(table.sheetName, column, column, table.rows.length),
          values: [table.headers[column], ...table.rows.map((r) => r[column] ?? "")],
        },
      };
    },
    readColumnBeside: async (_address: string, offset: number): Promise<unknown[] | undefined> => {
      const picked = workbook.selectedColumn();
      const at = picked ? picked.column + offset : -1;
      if (!picked || at < 0 || at >= picked.table.columns.length) return undefined;
      return [picked.table.headers[at], ...picked.table.rows.map((r) => r[at] ?? "")];
    },
    writeColumns: async (request: WriteColumnsRequest): Promise<WriteColumnsResult> => {
      const picked = workbook.selectedColumn();
      if (!picked) return { status: "notEmpty", address: request.address };
      const { table } = picked;
      const width = Math.max(request.headers?.length ?? 0, request.rows[0]?.length ?? 0);
      const named = request.at === undefined ? -1 : firstColumnOf(request.at);
      const start = named >= 0 && named < table.columns.length ? named : table.columns.length;
      const target = address(table.sheetName, start, start + width - 1, table.rows.length);
      const headers = request.headers ?? Array.from({ length: width }, (_, k) => `Column ${start + k + 1}`);
      workbook.setColumns(table.name, start, headers, request.rows, request.numberFormats);
      return { status: "written", address: target };
    },
  };
}
