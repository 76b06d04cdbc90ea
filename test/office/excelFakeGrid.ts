// The grid, limits and error of the fake Excel (excelFake.ts): cells stored sparsely by row so a
// 100,000-row table is quick to write and read, and Excel's payload and cell limits.
import { Buffer } from "node:buffer";
import { columnLetter } from "../../src/core/sheet/index.js";

export interface FakeCell {
  value: string | number | boolean;
  format: string;
  formula?: string;
  hyperlink?: { address?: string; textToDisplay?: string };
}

export interface JournalEntry {
  op:
    | "numberFormat"
    | "values"
    | "formulas"
    | "hyperlink"
    | "clear"
    | "sync"
    | "suspendCalculation"
    | "activate"
    | "tableAdd"
    | "tableResize"
    | "tableRowsAdd"
    | "delete";
  sheet: string;
  row: number;
  col: number;
  rows: number;
  cols: number;
}

export interface FakeTable {
  name: string;
  sheet: FakeSheet;
  row: number;
  col: number;
  rows: number; // including header
  cols: number;
  style?: string;
}

/** Excel on the web: each request and each response at most 5 MB (read as 5,000,000 bytes). */
export const PAYLOAD_LIMIT_BYTES = 5_000_000;
/** A worksheet's rows and columns. */
export const SHEET_ROWS = 1_048_576;
export const SHEET_COLUMNS = 16_384;
/** Every platform: a range get of at most 5 million cells. */
export const CELL_LIMIT = 5_000_000;

/** The error office.js throws when Excel refuses a request (name "RichApi.Error", with a code). */
export class FakeRichApiError extends Error {
  override name = "RichApi.Error";
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Bytes of a value as JSON on the wire (UTF-8). */
export const wireBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");

export class FakeSheet {
  /** Rows of cells, sparse: a 100,000-row table is quick to write and read. */
  private readonly grid = new Map<number, (FakeCell | undefined)[]>();
  constructor(public name: string) {}
  cell(row: number, col: number): FakeCell {
    let cells = this.grid.get(row);
    if (!cells) this.grid.set(row, (cells = []));
    return (cells[col] ??= { value: "", format: "General" });
  }
  peek(row: number, col: number): FakeCell | undefined {
    return this.grid.get(row)?.[col];
  }
  /** A rectangle, one property a cell ("" for empty cells). */
  map<T>(row: number, col: number, rows: number, cols: number, of: (cell: FakeCell | undefined) => T): T[][] {
    const out: T[][] = new Array(rows);
    for (let r = 0; r < rows; r++) {
      const cells = this.grid.get(row + r);
      const line: T[] = new Array(cols);
      for (let c = 0; c < cols; c++) line[c] = of(cells?.[col + c]);
      out[r] = line;
    }
    return out;
  }
  /** Range.delete(Up): the cells below a rectangle move up over it, in its columns. */
  shiftUp(row: number, col: number, rows: number, cols: number): void {
    const last = Math.max(row, ...this.grid.keys());
    for (let r = row; r <= last; r++) {
      const from = this.grid.get(r + rows);
      let to = this.grid.get(r);
      if (!to) this.grid.set(r, (to = []));
      for (let c = col; c < col + cols; c++) to[c] = from?.[c];
    }
  }
  /** Values of a rectangle, "" for empty cells. */
  read(row: number, col: number, rows: number, cols: number): (string | number | boolean)[][] {
    return this.map(row, col, rows, cols, (cell) => cell?.value ?? "");
  }
}

export type CellProperty = "values" | "formulas" | "numberFormat";
export const CELL_PROPERTIES: readonly CellProperty[] = ["values", "formulas", "numberFormat"];
export const CELL_READERS: Record<CellProperty, (cell: FakeCell | undefined) => unknown> = {
  values: (cell) => cell?.value ?? "",
  formulas: (cell) => cell?.formula ?? cell?.value ?? "",
  numberFormat: (cell) => cell?.format ?? "General",
};

/** A load of cell data waiting for the sync: its cells, its matrices, and where they are kept. */
export interface PendingLoad {
  cells: number;
  read(): unknown[][][];
  keep(matrices: unknown[][][]): void;
}

/** One context.sync() as Excel saw it. */
export interface SyncCall {
  requestBytes: number;
  responseBytes: number;
}

export function a1(sheet: string, row: number, col: number, rows: number, cols: number): string {
  const start = `${columnLetter(col)}${row + 1}`;
  const end = `${columnLetter(col + cols - 1)}${row + rows}`;
  return `${sheet}!${rows === 1 && cols === 1 ? start : `${start}:${end}`}`;
}
