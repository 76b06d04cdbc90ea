// A small Excel for tests and the bench: office-addin-mock's OfficeMockObject provides the
// request context (sync, application, settings), and a grid-backed fake provides the
// worksheets, ranges and tables the adapter uses. Like Excel, a string written to a cell
// that is not formatted as text and begins with = + - @ turns into a formula, so the tests
// can see whether the adapter formatted text cells before writing them.
/* eslint-disable @typescript-eslint/no-this-alias -- the fake's closures read the fake, not the mock they are attached to */
import { OfficeMockObject } from "office-addin-mock";
import type { ExcelRun } from "../../src/office/excelWorkbook.js";
import { columnLetter } from "../../src/core/sheet/index.js";

export interface FakeCell {
  value: string | number | boolean;
  format: string;
  formula?: string;
  hyperlink?: { address?: string; textToDisplay?: string };
}

export interface JournalEntry {
  op: "numberFormat" | "values" | "formulas" | "hyperlink" | "clear" | "sync" | "suspendCalculation" | "activate" | "tableAdd" | "tableResize";
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

export class FakeSheet {
  readonly cells = new Map<string, FakeCell>();
  constructor(public name: string) {}
  cell(row: number, col: number): FakeCell {
    const key = `${row},${col}`;
    let cell = this.cells.get(key);
    if (!cell) {
      cell = { value: "", format: "General" };
      this.cells.set(key, cell);
    }
    return cell;
  }
  peek(row: number, col: number): FakeCell | undefined {
    return this.cells.get(`${row},${col}`);
  }
  /** Values of a rectangle, "" for empty cells. */
  read(row: number, col: number, rows: number, cols: number): (string | number | boolean)[][] {
    return Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => this.peek(row + r, col + c)?.value ?? ""));
  }
}

export function a1(sheet: string, row: number, col: number, rows: number, cols: number): string {
  const start = `${columnLetter(col)}${row + 1}`;
  const end = `${columnLetter(col + cols - 1)}${row + rows}`;
  return `${sheet}!${rows === 1 && cols === 1 ? start : `${start}:${end}`}`;
}

/** Half a surrogate pair: what a cut through an emoji leaves. */
const HALF_PAIR = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export class FakeExcel {
  readonly sheets: FakeSheet[] = [new FakeSheet("Sheet1")];
  readonly tables: FakeTable[] = [];
  readonly journal: JournalEntry[] = [];
  readonly settings = new Map<string, unknown>();
  /** The workbook's defined names (Name Manager): one namespace with the table names. */
  readonly definedNames: string[] = [];
  selection = { sheet: "Sheet1", row: 0, col: 0 };
  syncs = 0;
  runs = 0;
  /** Throws inside the n-th sync (1-based) to test failures. */
  failOnSync?: number;

  sheet(name: string): FakeSheet {
    const s = this.sheets.find((x) => x.name.toLowerCase() === name.toLowerCase());
    if (!s) throw new Error(`ItemNotFound: worksheet ${name}`);
    return s;
  }

  table(name: string): FakeTable | undefined {
    return this.tables.find((t) => t.name.toLowerCase() === name.toLowerCase());
  }

  /** Renaming a table: Excel refuses an illegal name or one a table or defined name has. */
  checkTableName(name: string, own: FakeTable): string {
    const lower = name.toLowerCase();
    const taken = [...this.tables.filter((t) => t !== own).map((t) => t.name), ...this.definedNames].some((n) => n.toLowerCase() === lower);
    if (taken) throw new Error(`InvalidArgument: the name ${name} is already taken`);
    const reference = /^[a-z]{1,3}\d+$|^r\d*(c\d*)?$|^c\d*$|^(true|false)$/.test(lower);
    if (reference || name.length > 255 || !/^[\p{L}_\\][\p{L}\p{Nd}_.]*$/u.test(name)) throw new Error(`InvalidArgument: ${name} is not a valid name`);
    return name;
  }

  /** Values of a table, header row first. */
  tableValues(name: string): (string | number | boolean)[][] {
    const t = this.table(name);
    if (!t) throw new Error(`no table ${name}`);
    return t.sheet.read(t.row, t.col, t.rows, t.cols);
  }

  /** Adds a table as if a user had made it, e.g. to test refresh with user columns. */
  addTable(sheetName: string, name: string, row: number, col: number, values: (string | number | boolean)[][]): FakeTable {
    const sheet = this.sheet(sheetName);
    values.forEach((r, i) => r.forEach((v, j) => (sheet.cell(row + i, col + j).value = v)));
    const t: FakeTable = { name, sheet, row, col, rows: values.length, cols: values[0]?.length ?? 0 };
    this.tables.push(t);
    return t;
  }

  private range(sheet: FakeSheet, row: number, col: number, rows: number, cols: number): Record<string, unknown> {
    const self = this;
    const each = (fn: (cell: FakeCell, r: number, c: number) => void) => {
      for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) fn(sheet.cell(row + r, col + c), r, c);
    };
    const entry = (op: "numberFormat" | "values" | "formulas" | "hyperlink" | "clear") => self.journal.push({ op, sheet: sheet.name, row, col, rows, cols });
    const matrix = (value: unknown, what: string): unknown[][] => {
      if (!Array.isArray(value) || value.length !== rows || value.some((r) => !Array.isArray(r) || r.length !== cols)) {
        throw new Error(`InvalidArgument: ${what} must be ${rows}x${cols}`);
      }
      return value as unknown[][];
    };
    /** Writes a matrix cell by cell: text the rule calls a formula becomes one, anything else a value. */
    const write = (what: "values" | "formulas", isFormula: (text: string, cell: FakeCell) => boolean) => (value: unknown) => {
      const m = matrix(value, what);
      entry(what);
      each((cell, r, c) => {
        const v = m[r]![c] as string | number | boolean;
        if (typeof v === "string" && isFormula(v, cell)) {
          cell.formula = v;
          cell.value = "#FORMULA";
        } else {
          cell.value = v;
          delete cell.formula;
        }
      });
    };
    const range: Record<string, unknown> = {
      rowIndex: row,
      columnIndex: col,
      rowCount: rows,
      columnCount: cols,
      address: a1(sheet.name, row, col, rows, cols),
      load: () => range,
      worksheet: this.worksheet(sheet),
      format: { autofitColumns: () => undefined },
      clear: (applyTo?: string) => {
        entry("clear");
        each((cell) => {
          if (applyTo === "Contents" || applyTo === undefined) {
            cell.value = "";
            delete cell.formula;
            delete cell.hyperlink;
          }
          if (applyTo === "Formats" || applyTo === undefined) cell.format = "General";
        });
      },
      getColumn: (index: number) => self.range(sheet, row, col + index, rows, 1),
      getUsedRangeOrNullObject: () => {
        let found = false;
        each((cell) => {
          if (cell.value !== "" || cell.formula) found = true;
        });
        return { isNullObject: !found, address: found ? range.address : "", load: () => undefined };
      },
    };
    Object.defineProperty(range, "values", {
      get: () => sheet.read(row, col, rows, cols),
      // Excel: text that looks like a formula becomes one unless the cell is text-formatted.
      set: write("values", (v, cell) => /^[=+\-@]/.test(v) && cell.format !== "@"),
    });
    Object.defineProperty(range, "formulas", {
      get: () =>
        Array.from({ length: rows }, (_, r) =>
          Array.from({ length: cols }, (_, c) => {
            const cell = sheet.peek(row + r, col + c);
            return cell?.formula ?? cell?.value ?? "";
          }),
        ),
      set: write("formulas", (v) => v.startsWith("=")),
    });
    Object.defineProperty(range, "numberFormat", {
      get: () => Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => sheet.peek(row + r, col + c)?.format ?? "General")),
      set: (value: unknown) => {
        const m = matrix(value, "numberFormat");
        entry("numberFormat");
        each((cell, r, c) => (cell.format = String(m[r]![c])));
      },
    });
    Object.defineProperty(range, "hyperlink", {
      get: () => sheet.peek(row, col)?.hyperlink,
      set: (value: FakeCell["hyperlink"]) => {
        if (rows !== 1 || cols !== 1) throw new Error("hyperlink set on more than one cell");
        entry("hyperlink");
        const cell = sheet.cell(row, col);
        cell.hyperlink = value;
        if (value?.textToDisplay !== undefined && cell.format !== "@" && /^[=+\-@]/.test(value.textToDisplay)) {
          cell.formula = value.textToDisplay;
        }
      },
    });
    return range;
  }

  private tableApi(t: FakeTable): Record<string, unknown> {
    const self = this;
    const api: Record<string, unknown> = {
      isNullObject: false,
      load: () => api,
      getRange: () => self.range(t.sheet, t.row, t.col, t.rows, t.cols),
      getHeaderRowRange: () => self.range(t.sheet, t.row, t.col, 1, t.cols),
      getDataBodyRange: () => self.range(t.sheet, t.row + 1, t.col, t.rows - 1, t.cols),
      resize: (area: Record<string, unknown>) => {
        const r = area as { rowIndex: number; columnIndex: number; rowCount: number; columnCount: number };
        if (r.rowIndex !== t.row || r.columnIndex !== t.col) throw new Error("InvalidArgument: resize must keep the top-left cell");
        t.rows = r.rowCount;
        t.cols = r.columnCount;
        self.journal.push({ op: "tableResize", sheet: t.sheet.name, row: t.row, col: t.col, rows: t.rows, cols: t.cols });
      },
    };
    Object.defineProperty(api, "name", { get: () => t.name, set: (v: string) => (t.name = self.checkTableName(v, t)) });
    Object.defineProperty(api, "style", { get: () => t.style, set: (v: string) => (t.style = v) });
    Object.defineProperty(api, "worksheet", { get: () => self.worksheet(t.sheet) });
    return api;
  }

  private worksheet(sheet: FakeSheet): Record<string, unknown> {
    const self = this;
    const ws: Record<string, unknown> = {
      load: () => ws,
      activate: () => self.journal.push({ op: "activate", sheet: sheet.name, row: -1, col: -1, rows: 0, cols: 0 }),
      getRangeByIndexes: (row: number, col: number, rows: number, cols: number) => {
        if (rows < 1 || cols < 1) throw new Error("InvalidArgument: empty range");
        return self.range(sheet, row, col, rows, cols);
      },
      tables: {
        add: (area: Record<string, unknown>, hasHeaders: boolean) => {
          if (!hasHeaders) throw new Error("expected headers");
          const r = area as { rowIndex: number; columnIndex: number; rowCount: number; columnCount: number };
          for (const other of self.tables) {
            const overlaps =
              other.sheet === sheet &&
              r.rowIndex < other.row + other.rows &&
              other.row < r.rowIndex + r.rowCount &&
              r.columnIndex < other.col + other.cols &&
              other.col < r.columnIndex + r.columnCount;
            if (overlaps) throw new Error("InvalidOperation: tables cannot overlap");
          }
          const t: FakeTable = { name: `Table${self.tables.length + 1}`, sheet, row: r.rowIndex, col: r.columnIndex, rows: r.rowCount, cols: r.columnCount };
          self.tables.push(t);
          self.journal.push({ op: "tableAdd", sheet: sheet.name, row: t.row, col: t.col, rows: t.rows, cols: t.cols });
          return self.tableApi(t);
        },
      },
    };
    Object.defineProperty(ws, "name", { get: () => sheet.name });
    return ws;
  }

  /** An Excel.run that hands the adapter a request context built on office-addin-mock. */
  readonly run: ExcelRun = async (batch) => {
    this.runs++;
    const self = this;
    const context = new OfficeMockObject({
      sync: async () => {
        self.syncs++;
        self.journal.push({ op: "sync", sheet: "", row: -1, col: -1, rows: 0, cols: 0 });
        if (self.failOnSync === self.syncs) throw new Error("GeneralException: the fake failed this sync");
      },
      application: {
        suspendApiCalculationUntilNextSync: () => self.journal.push({ op: "suspendCalculation", sheet: "", row: -1, col: -1, rows: 0, cols: 0 }),
      },
      workbook: {
        getSelectedRange: () => self.range(self.sheet(self.selection.sheet), self.selection.row, self.selection.col, 1, 1),
        settings: {
          add: (key: string, value: unknown) => self.settings.set(key, value),
          getItemOrNullObject: (key: string) => ({
            isNullObject: !self.settings.has(key),
            value: self.settings.get(key),
            load: () => undefined,
          }),
        },
      },
    }) as any;
    const sheetsApi = {
      load: () => sheetsApi,
      get items() {
        return self.sheets.map((s) => ({ name: s.name }));
      },
      add: (name: string) => {
        if (self.sheets.some((s) => s.name.toLowerCase() === name.toLowerCase())) throw new Error("ItemAlreadyExists");
        // Excel's sheet-name rules (its length is counted in UTF-16 units).
        if (name.length > 31 || /[:\\/?*[\]]|^'|'$|^$/.test(name) || /^history$/i.test(name) || HALF_PAIR.test(name))
          throw new Error(`InvalidArgument: sheet name ${name}`);
        const s = new FakeSheet(name);
        self.sheets.push(s);
        return self.worksheet(s);
      },
      getItem: (name: string) => self.worksheet(self.sheet(name)),
    };
    const tablesApi = {
      load: () => tablesApi,
      get items() {
        return self.tables.map((t) => ({ name: t.name }));
      },
      getItem: (name: string) => {
        const t = self.table(name);
        if (!t) throw new Error(`ItemNotFound: table ${name}`);
        return self.tableApi(t);
      },
      getItemOrNullObject: (name: string) => {
        const t = self.table(name);
        return t ? self.tableApi(t) : { isNullObject: true, load: () => undefined };
      },
    };
    context.workbook.worksheets = sheetsApi;
    context.workbook.tables = tablesApi;
    const namesApi = {
      load: () => namesApi,
      get items() {
        return self.definedNames.map((name) => ({ name }));
      },
    };
    context.workbook.names = namesApi;
    return batch(context as Excel.RequestContext);
  };
}
