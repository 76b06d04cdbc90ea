// A small Excel for tests and the bench: office-addin-mock's OfficeMockObject provides the
// request context (sync, application, settings), and a grid-backed fake provides the
// worksheets, ranges and tables the adapter uses. Like Excel, a string written to a cell
// that is not formatted as text and begins with = + - @ turns into a formula, so the tests
// can see whether the adapter formatted text cells before writing them.
// Like Excel on the web, writes and loads are queued and done at context.sync(): a sync whose
// request (the JSON of the values, formulas, formats and links written) or response (the JSON of
// the cell data loaded) is over 5 MB is refused with a RichApi error, and so is a load of a range
// over 5,000,000 cells; cell data read without a load and a sync throws PropertyNotLoaded.
/* eslint-disable @typescript-eslint/no-this-alias -- the fake's closures read the fake, not the mock they are attached to */
import { OfficeMockObject } from "office-addin-mock";
import type { ExcelRun } from "../../src/office/excelWorkbook.js";
import { CELL_LIMIT, CELL_PROPERTIES, CELL_READERS, FakeRichApiError, FakeSheet, PAYLOAD_LIMIT_BYTES, a1, wireBytes } from "./excelFakeGrid.js";
import { SHEET_COLUMNS, SHEET_ROWS } from "./excelFakeGrid.js";
import type { CellProperty, FakeCell, FakeTable, JournalEntry, PendingLoad, SyncCall } from "./excelFakeGrid.js";

export * from "./excelFakeGrid.js";

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
  /** Every sync's request and response bytes, in order (the bench sums them). */
  readonly calls: SyncCall[] = [];
  /** Throws inside the n-th sync (1-based) to test failures. */
  failOnSync?: number;
  /** False plays an Excel without ExcelApi 1.13: tables have no resize(). */
  tableResize = true;

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

  /** What the next sync sends: the writes (with their bytes) and the loads of cell data. */
  private pending = FakeExcel.nothingPending();
  private static nothingPending(): { bytes: number; ops: (() => void)[]; loads: PendingLoad[] } {
    return { bytes: 0, ops: [], loads: [] };
  }

  /** Queues a write for the next sync, counting its JSON toward the request's 5 MB. */
  private queue(value: unknown, op: () => void): void {
    this.pending.bytes += wireBytes(value);
    this.pending.ops.push(op);
  }

  private range(sheet: FakeSheet, row: number, col: number, rows: number, cols: number): Record<string, unknown> {
    const self = this;
    const loaded = new Map<CellProperty, unknown[][]>();
    const each = (fn: (cell: FakeCell, r: number, c: number) => void) => {
      for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) fn(sheet.cell(row + r, col + c), r, c);
    };
    const entry = (op: "numberFormat" | "values" | "formulas" | "hyperlink" | "clear" | "delete") =>
      self.journal.push({ op, sheet: sheet.name, row, col, rows, cols });
    const matrix = (value: unknown, what: string): unknown[][] => {
      if (!Array.isArray(value) || value.length !== rows || value.some((r) => !Array.isArray(r) || r.length !== cols)) {
        throw new Error(`InvalidArgument: ${what} must be ${rows}x${cols}`);
      }
      return value as unknown[][];
    };
    /** Writes a matrix cell by cell at the next sync: text the rule calls a formula becomes one, anything else a value. */
    const write = (what: "values" | "formulas", isFormula: (text: string, cell: FakeCell) => boolean) => (value: unknown) => {
      const m = matrix(value, what);
      self.queue(m, () => {
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
      });
    };
    const loadedOnly = (name: CellProperty) => () => {
      const value = loaded.get(name);
      if (!value)
        throw new FakeRichApiError(
          "PropertyNotLoaded",
          `The property '${name}' is not available. Before reading the property's value, call the load method on the containing object and call "context.sync()" on the associated request context.`,
        );
      return value;
    };
    const range: Record<string, unknown> = {
      rowIndex: row,
      columnIndex: col,
      rowCount: rows,
      columnCount: cols,
      address: a1(sheet.name, row, col, rows, cols),
      load: (what?: string | string[]) => {
        const names = what === undefined ? [...CELL_PROPERTIES] : (Array.isArray(what) ? what : what.split(",")).map((n) => n.trim());
        const wanted = CELL_PROPERTIES.filter((p) => names.includes(p));
        if (wanted.length > 0) {
          self.pending.loads.push({
            cells: rows * cols,
            read: () => wanted.map((p) => sheet.map(row, col, rows, cols, CELL_READERS[p])),
            keep: (matrices) => wanted.forEach((p, i) => loaded.set(p, matrices[i]!)),
          });
        }
        return range;
      },
      format: { autofitColumns: () => undefined },
      clear: (applyTo?: string) =>
        self.queue(null, () => {
          entry("clear");
          each((cell) => {
            if (applyTo === "Contents" || applyTo === undefined) {
              cell.value = "";
              delete cell.formula;
              delete cell.hyperlink;
            }
            if (applyTo === "Formats" || applyTo === undefined) cell.format = "General";
          });
        }),
      getColumn: (index: number) => self.range(sheet, row, col + index, rows, 1),
      delete: (shift: string) => {
        if (shift !== "Up") throw new Error("the fake deletes with shift Up only");
        self.queue(null, () => {
          entry("delete");
          for (const t of self.tables) {
            const covers = t.sheet === sheet && t.col >= col && t.col + t.cols <= col + cols && row > t.row && row + rows <= t.row + t.rows;
            if (covers) t.rows -= rows;
          }
          sheet.shiftUp(row, col, rows, cols);
        });
      },
      getUsedRangeOrNullObject: () => {
        let found = false;
        each((cell) => {
          if (cell.value !== "" || cell.formula) found = true;
        });
        if (!found) {
          const none: Record<string, unknown> = { isNullObject: true, address: "" };
          none.load = () => none;
          return none;
        }
        return Object.assign(self.range(sheet, row, col, rows, cols), { isNullObject: false });
      },
    };
    Object.defineProperty(range, "worksheet", { get: () => self.worksheet(sheet) });
    Object.defineProperty(range, "values", {
      get: loadedOnly("values"),
      // Excel: text that looks like a formula becomes one unless the cell is text-formatted.
      set: write("values", (v, cell) => /^[=+\-@]/.test(v) && cell.format !== "@"),
    });
    Object.defineProperty(range, "formulas", { get: loadedOnly("formulas"), set: write("formulas", (v) => v.startsWith("=")) });
    Object.defineProperty(range, "numberFormat", {
      get: loadedOnly("numberFormat"),
      set: (value: unknown) => {
        const m = matrix(value, "numberFormat");
        self.queue(m, () => {
          entry("numberFormat");
          each((cell, r, c) => (cell.format = String(m[r]![c])));
        });
      },
    });
    Object.defineProperty(range, "hyperlink", {
      get: () => sheet.peek(row, col)?.hyperlink,
      set: (value: FakeCell["hyperlink"]) => {
        if (rows !== 1 || cols !== 1) throw new Error("hyperlink set on more than one cell");
        self.queue(value, () => {
          entry("hyperlink");
          const cell = sheet.cell(row, col);
          cell.hyperlink = value;
          if (value?.textToDisplay !== undefined && cell.format !== "@" && /^[=+\-@]/.test(value.textToDisplay)) {
            cell.formula = value.textToDisplay;
          }
        });
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
      rows: {
        /** Rows added at the table's end (values written as Range.values would), at the next sync. */
        add: (index: number | null | undefined, values: (string | number | boolean)[][]) => {
          if (index !== null && index !== undefined) throw new Error("the fake adds rows at the end only");
          self.queue(values, () => {
            const at = t.row + t.rows;
            t.rows += values.length;
            self.journal.push({ op: "tableRowsAdd", sheet: t.sheet.name, row: at, col: t.col, rows: values.length, cols: t.cols });
            values.forEach((line, r) =>
              line.forEach((v, c) => {
                const cell = t.sheet.cell(at + r, t.col + c);
                cell.value = v;
                delete cell.formula;
              }),
            );
          });
        },
      },
    };
    if (self.tableResize)
      api.resize = (area: Record<string, unknown>) => {
        const r = area as { rowIndex: number; columnIndex: number; rowCount: number; columnCount: number };
        if (r.rowIndex !== t.row || r.columnIndex !== t.col) throw new Error("InvalidArgument: resize must keep the top-left cell");
        t.rows = r.rowCount;
        t.cols = r.columnCount;
        self.journal.push({ op: "tableResize", sheet: t.sheet.name, row: t.row, col: t.col, rows: t.rows, cols: t.cols });
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
        if (row < 0 || col < 0 || row + rows > SHEET_ROWS || col + cols > SHEET_COLUMNS) throw new Error("InvalidArgument: the range is outside the worksheet");
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
      sync: () => self.sync(),
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
    try {
      const result = await batch(context as Excel.RequestContext);
      // Excel.run sends what is still queued when the batch ends.
      if (self.pending.ops.length > 0) await self.sync();
      return result;
    } finally {
      self.pending = FakeExcel.nothingPending();
    }
  };

  /** One round trip: refused whole when the request is over 5 MB or a load is over 5 million cells. */
  private async sync(): Promise<void> {
    this.syncs++;
    this.journal.push({ op: "sync", sheet: "", row: -1, col: -1, rows: 0, cols: 0 });
    const { bytes, ops, loads } = this.pending;
    this.pending = FakeExcel.nothingPending();
    if (this.failOnSync === this.syncs) throw new Error("GeneralException: the fake failed this sync");
    if (bytes > PAYLOAD_LIMIT_BYTES) {
      throw new FakeRichApiError(
        "RequestPayloadSizeLimitExceeded",
        `The request payload size has exceeded the limit (${bytes} bytes of ${PAYLOAD_LIMIT_BYTES}).`,
      );
    }
    const tooMany = loads.find((load) => load.cells > CELL_LIMIT);
    if (tooMany) {
      throw new FakeRichApiError("ResponsePayloadSizeLimitExceeded", `The range has ${tooMany.cells} cells, over the ${CELL_LIMIT} a get may read.`);
    }
    for (const op of ops) op();
    const read = loads.map((load) => load.read());
    const responseBytes = read.reduce((sum, matrices) => matrices.reduce((n, m) => n + wireBytes(m), sum), 0);
    this.calls.push({ requestBytes: bytes, responseBytes });
    if (responseBytes > PAYLOAD_LIMIT_BYTES) {
      throw new FakeRichApiError(
        "ResponsePayloadSizeLimitExceeded",
        `The response payload size has exceeded the limit (${responseBytes} bytes of ${PAYLOAD_LIMIT_BYTES}).`,
      );
    }
    loads.forEach((load, i) => load.keep(read[i]!));
  }
}
