// Browser mode's side of "Send to an audience": the table the user picked a column of is the
// selected table, its first row the header; cells are written into its columns (new ones extend
// it to the right). The table's name is its address.
import type { AudienceSheet, ColumnWrite, ReadTableResult } from "../core/audiences/index.js";
import type { CellValue } from "../core/sheet/index.js";
import type { BrowserTable, BrowserWorkbook } from "./browserWorkbook.js";

function snapshot(table: BrowserTable): ReadTableResult {
  return {
    ok: true,
    table: {
      address: table.name,
      headers: [...table.headers],
      rows: table.rows.map((row) => [...row]),
      formats: table.columns.map((c) => c.numberFormat ?? (c.type === "date" ? "yyyy-mm-dd" : c.type === "datetime" ? "yyyy-mm-dd hh:mm" : undefined)),
    },
  };
}

/** The writes in runs of adjacent columns, so each run is one pass over the rows. */
function adjacentRuns(writes: readonly ColumnWrite[]): ColumnWrite[][] {
  const runs: ColumnWrite[][] = [];
  for (const write of [...writes].sort((a, b) => a.column - b.column)) {
    const last = runs[runs.length - 1];
    if (last && write.column === last[last.length - 1]!.column + 1) last.push(write);
    else runs.push([write]);
  }
  return runs;
}

export function browserAudienceSheet(workbook: BrowserWorkbook): AudienceSheet {
  return {
    readTable: async () => {
      const picked = workbook.selectedColumn();
      if (!picked) return { ok: false, message: "Pick the table first: click any column header of it below." };
      if (picked.table.rows.length === 0) return { ok: false, message: `The table ${picked.table.name} has no rows below its header.` };
      return snapshot(picked.table);
    },
    readTableAt: async (address) => {
      const table = workbook.table(address);
      return table ? snapshot(table) : { ok: false, message: `The table ${address} is no longer in this workbook.` };
    },
    writeColumns: async (address: string, writes: readonly ColumnWrite[]) => {
      const table = workbook.table(address);
      if (!table) throw new Error(`The table ${address} is no longer in this workbook.`);
      for (const run of adjacentRuns(writes)) {
        const values: CellValue[][] = table.rows.map((row) => run.map((w) => row[w.column] ?? ""));
        run.forEach((write, k) => {
          for (const cell of write.cells) {
            const row = values[cell.row];
            if (row) row[k] = cell.value;
          }
        });
        // Columns past the right end land at the end (the next free columns).
        workbook.setColumns(
          table.name,
          Math.min(run[0]!.column, table.columns.length),
          run.map((w) => w.header),
          values,
        );
      }
    },
  };
}
