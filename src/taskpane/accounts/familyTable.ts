// The Accounts tab's family summary, from the user's own table (docs/accounts.md): the table's
// columns read around the selected cell (the "Ultimate parent id" column Enrich selection's
// corporate family wrote beside each row), which columns hold numbers (the ones the user may
// sum), and the summary table per family (core/accounts familySummaries). Pure but the reader.
import { familySummaries, familySummaryTable, HIERARCHY_OUTPUT_FIELDS } from "../../core/accounts/index.js";
import type { SelectionSource } from "../../core/enrich/index.js";
import type { CellValue, ColumnSpec } from "../../core/sheet/index.js";

/** One column of the user's table: its header and its cells below it. */
export interface TableColumn {
  header: string;
  values: unknown[];
}

/** At most this many columns are read on each side of the selection. */
const MAX_SIDE = 60;

const ID_HEADER = HIERARCHY_OUTPUT_FIELDS.ultimateParentId.label.toLowerCase();
const NAME_HEADER = HIERARCHY_OUTPUT_FIELDS.ultimateParentName.label.toLowerCase();

const headerOf = (value: unknown) => (value === null || value === undefined ? "" : String(value).trim());
const isNumber = (value: unknown) => (typeof value === "number" ? Number.isFinite(value) : typeof value === "string" && /^\s*-?[\d,]*\.?\d+\s*$/.test(value));
const isEmpty = (value: unknown) => value === null || value === undefined || String(value).trim() === "";

/** The table's columns around the selection, left to right (a column with no header ends the table). */
export async function readTableAround(source: SelectionSource): Promise<{ ok: true; columns: TableColumn[] } | { ok: false; message: string }> {
  const read = await source.readIds();
  if (!read.ok) return read;
  const { address, values } = read.selection;
  const column = (cells: readonly unknown[]): TableColumn => ({ header: headerOf(cells[0]), values: cells.slice(1) });
  const side = async (step: 1 | -1) => {
    const found: TableColumn[] = [];
    for (let k = step; Math.abs(k) <= MAX_SIDE && source.readColumnBeside; k += step) {
      const cells = await source.readColumnBeside(address, k);
      if (!cells || headerOf(cells[0]) === "") break;
      found.push(column(cells));
    }
    return found;
  };
  const left = await side(-1);
  const right = await side(1);
  return { ok: true, columns: [...left.reverse(), column(values), ...right] };
}

/** Where the ultimate parent's id and name are (by the headers Enrich selection gives them), or undefined. */
export function familyColumns(columns: readonly TableColumn[]): { id: number; name: number | undefined } | undefined {
  const at = (header: string) => columns.findIndex((c) => c.header.toLowerCase() === header);
  const id = at(ID_HEADER);
  if (id < 0) return undefined;
  const name = at(NAME_HEADER);
  return { id, name: name < 0 ? undefined : name };
}

/** The columns that can be summed: most of their filled cells are numbers (the family's own columns left out). */
export function numericColumns(columns: readonly TableColumn[], leaveOut: readonly number[]): number[] {
  return columns.flatMap((c, i) => {
    if (leaveOut.includes(i) || /\bid$/i.test(c.header)) return [];
    const filled = c.values.filter((v) => !isEmpty(v));
    const numbers = filled.filter(isNumber).length;
    return numbers > 0 && numbers * 2 >= filled.length ? [i] : [];
  });
}

/** The summary table: one row per family (rows and the sums of the columns picked), as columns and rows to insert. */
export function familySummaryRows(columns: readonly TableColumn[], family: { id: number; name: number | undefined }, picked: readonly number[]) {
  const length = columns[family.id]?.values.length ?? 0;
  const rows = Array.from({ length }, (_, r) => ({
    ultimateParentId: columns[family.id]?.values[r],
    ultimateParentName: family.name === undefined ? "" : columns[family.name]?.values[r],
    values: picked.map((c) => columns[c]?.values[r]),
  }));
  const table = familySummaryTable(
    familySummaries(rows, picked.length),
    picked.map((c) => columns[c]?.header ?? ""),
  );
  const specs: ColumnSpec[] = table.headers.map((header, i) => ({
    key: `c${i}`,
    header,
    type: i === 1 ? "text" : "number",
    path: `c${i}`,
    byDefault: true,
    ...(i === 0 ? { numberFormat: "0" } : {}),
  }));
  return { columns: specs, rows: table.rows as CellValue[][] };
}
