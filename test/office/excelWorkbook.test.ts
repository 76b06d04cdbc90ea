import { test } from "node:test";
import assert from "node:assert/strict";
import { ExcelWorkbook } from "../../src/office/excelWorkbook.js";
import { WorkbookError } from "../../src/office/workbook.js";
import { COMPANY_SEARCH_COLUMNS, columnsFor, itemsToRows, type CellValue } from "../../src/core/sheet/index.js";
import { FakeExcel } from "./excelFake.js";

const columns = columnsFor("company", ["id", "name", "website", "revenue", "employeeCount"]);

function companies(n: number, start = 1) {
  return Array.from({ length: n }, (_, i) => ({
    id: String(start + i),
    type: "Company",
    attributes: { name: `Company ${start + i}`, website: `www.c${start + i}.com`, revenue: String((start + i) * 10), employeeCount: "42" },
  }));
}

test("a new table goes to a new sheet: header, typed values, text format, hyperlinks, then one table", async () => {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook({ run: excel.run });
  const writer = await workbook.createTable({ target: { kind: "newSheet", sheetName: "Companies" }, tableName: "Companies", columns, expectedRows: 3 });
  await writer.append(itemsToRows(companies(3), columns));
  const result = await writer.finish();

  assert.equal(result.sheetName, "Companies");
  assert.equal(result.rowsWritten, 3);
  assert.equal(result.address, "Companies!A1:E4");
  assert.equal(excel.tables.length, 1);
  assert.deepEqual(excel.tableValues("Companies"), [
    ["Company ID", "Company name", "Website", "Revenue ($K)", "Employees"],
    [1, "Company 1", "www.c1.com", 10, 42],
    [2, "Company 2", "www.c2.com", 20, 42],
    [3, "Company 3", "www.c3.com", 30, 42],
  ]);
  const sheet = excel.sheet("Companies");
  assert.equal(sheet.peek(1, 1)?.format, "@");
  assert.equal(sheet.peek(1, 0)?.format, "0");
  assert.equal(sheet.peek(1, 3)?.format, "#,##0");
  assert.equal(sheet.peek(1, 2)?.hyperlink?.address, "http://www.c1.com/");
  assert.equal(sheet.peek(1, 2)?.hyperlink?.textToDisplay, "www.c1.com");
  // The table object comes after every value.
  const tableAt = excel.journal.findIndex((e) => e.op === "tableAdd");
  const lastValues = excel.journal.map((e) => e.op).lastIndexOf("values");
  assert.ok(tableAt > lastValues);
  assert.ok(excel.journal.some((e) => e.op === "suspendCalculation"));
});

test("text format is applied to text columns before their values, so formula-like names stay text", async () => {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook({ run: excel.run });
  const names = ['=HYPERLINK("http://x")', "+1 555", "-minus", "@at", "<img src=x onerror=alert(1)>"];
  const items = names.map((name, i) => ({ id: String(i + 1), type: "Company", attributes: { name, website: "=cmd|' /C calc'!A0" } }));
  const writer = await workbook.createTable({ target: { kind: "newSheet", sheetName: "Special" }, tableName: "Special", columns, expectedRows: items.length });
  await writer.append(itemsToRows(items, columns));
  await writer.finish();

  const sheet = excel.sheet("Special");
  names.forEach((name, i) => {
    const cell = sheet.peek(i + 1, 1)!;
    assert.equal(cell.value, name);
    assert.equal(cell.formula, undefined, `${name} became a formula`);
    const site = sheet.peek(i + 1, 2)!;
    assert.equal(site.formula, undefined);
    assert.equal(site.hyperlink, undefined, "a non-web address gets no link");
  });
  // For every values write, each text column of that block was formatted "@" earlier.
  const textCols = columns.map((c, i) => (c.type === "text" || c.type === "url" ? i : -1)).filter((i) => i >= 0);
  excel.journal.forEach((entry, at) => {
    if (entry.op !== "values" || entry.row === 0) return;
    for (const col of textCols) {
      const formatted = excel.journal.slice(0, at).some((e) => e.op === "numberFormat" && e.col === col && e.row === entry.row && e.rows === entry.rows);
      assert.ok(formatted, `column ${col} formatted before values at row ${entry.row}`);
    }
  });
});

test("a number column keeps a non-numeric value as text, formatted before it is written", async () => {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook({ run: excel.run });
  const writer = await workbook.createTable({ target: { kind: "newSheet", sheetName: "X" }, tableName: "X", columns, expectedRows: 1 });
  await writer.append(itemsToRows([{ id: "1", attributes: { name: "A", revenue: "=1+1" } }], columns));
  await writer.finish();
  const cell = excel.sheet("X").peek(1, 3)!;
  assert.equal(cell.value, "=1+1");
  assert.equal(cell.formula, undefined);
  assert.equal(cell.format, "@");
});

test("large inserts are written in blocks of the configured size, one sync each", async () => {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook({ run: excel.run, blockRows: 400 });
  const writer = await workbook.createTable({ target: { kind: "newSheet", sheetName: "Big" }, tableName: "Big", columns, expectedRows: 1000 });
  const syncsBefore = excel.syncs;
  for (let page = 0; page < 10; page++) await writer.append(itemsToRows(companies(100, page * 100 + 1), columns));
  const result = await writer.finish();
  const valueWrites = excel.journal.filter((e) => e.op === "values" && e.row > 0);
  assert.deepEqual(
    valueWrites.map((e) => e.rows),
    [400, 400, 200],
  );
  assert.deepEqual(
    valueWrites.map((e) => e.row),
    [1, 401, 801],
  );
  assert.equal(result.stats.blocks, 3);
  assert.equal(excel.syncs - syncsBefore, 4); // three blocks and the table
  assert.equal(excel.tableValues("Big").length, 1001);
  assert.equal(excel.tableValues("Big")[1000]![0], 1000);
});

test("the default blocks are cut by the bytes they send: 5,000 short rows go in one write", async () => {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook({ run: excel.run });
  const writer = await workbook.createTable({ target: { kind: "newSheet", sheetName: "Big" }, tableName: "Big", columns, expectedRows: 5000 });
  for (let page = 0; page < 50; page++) await writer.append(itemsToRows(companies(100, page * 100 + 1), columns));
  await writer.finish();
  const valueWrites = excel.journal.filter((e) => e.op === "values" && e.row > 0);
  assert.deepEqual(
    valueWrites.map((w) => w.rows),
    [5000],
  );
});

test("inserting at the selection checks the area and asks before writing over data", async () => {
  const excel = new FakeExcel();
  excel.sheet("Sheet1").cell(3, 2).value = "user data";
  excel.selection = { sheet: "Sheet1", row: 2, col: 1 };
  const workbook = new ExcelWorkbook({ run: excel.run });
  const questions: string[] = [];
  await assert.rejects(
    workbook.createTable({
      target: { kind: "selection" },
      tableName: "Here",
      columns,
      expectedRows: 5,
      confirmOverwrite: async (message) => {
        questions.push(message);
        return false;
      },
    }),
    (error: unknown) => error instanceof WorkbookError && error.kind === "declined",
  );
  assert.equal(questions.length, 1);
  assert.equal(excel.sheet("Sheet1").peek(3, 2)?.value, "user data");
  assert.equal(excel.journal.filter((e) => e.op === "values").length, 0);
  assert.equal(excel.tables.length, 0);

  // Without a confirm callback, a non-empty area is refused too.
  await assert.rejects(workbook.createTable({ target: { kind: "selection" }, tableName: "Here", columns, expectedRows: 5 }), WorkbookError);
  assert.equal(excel.sheet("Sheet1").peek(3, 2)?.value, "user data");
});

test("inserting at an empty selection writes there without asking", async () => {
  const excel = new FakeExcel();
  excel.sheet("Sheet1").cell(0, 0).value = "elsewhere";
  excel.selection = { sheet: "Sheet1", row: 4, col: 2 };
  const workbook = new ExcelWorkbook({ run: excel.run });
  const writer = await workbook.createTable({
    target: { kind: "selection" },
    tableName: "Here",
    columns,
    expectedRows: 2,
    confirmOverwrite: async () => assert.fail("should not ask"),
  });
  await writer.append(itemsToRows(companies(2), columns));
  const result = await writer.finish();
  assert.equal(result.address, "Sheet1!C5:G7");
  assert.equal(excel.sheet("Sheet1").peek(5, 3)?.value, "Company 1");
  assert.equal(excel.sheet("Sheet1").peek(0, 0)?.value, "elsewhere");
});

test("a confirmed overwrite at the selection replaces the area", async () => {
  const excel = new FakeExcel();
  excel.sheet("Sheet1").cell(1, 0).value = "old";
  const workbook = new ExcelWorkbook({ run: excel.run });
  const writer = await workbook.createTable({ target: { kind: "selection" }, tableName: "T", columns, expectedRows: 1, confirmOverwrite: async () => true });
  await writer.append(itemsToRows(companies(1), columns));
  await writer.finish();
  assert.equal(excel.sheet("Sheet1").peek(1, 0)?.value, 1);
});

test("stopping halfway leaves a table over exactly the rows written", async () => {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook({ run: excel.run, blockRows: 250 });
  const writer = await workbook.createTable({ target: { kind: "newSheet", sheetName: "Half" }, tableName: "Half", columns, expectedRows: 2500 });
  for (let page = 0; page < 7; page++) await writer.append(itemsToRows(companies(100, page * 100 + 1), columns));
  // The caller cancels here: finish writes what is queued and makes the table.
  const result = await writer.finish();
  assert.equal(result.rowsWritten, 700);
  const t = excel.table("Half")!;
  assert.equal(t.rows, 701);
  assert.equal(excel.sheet("Half").peek(701, 0), undefined, "nothing below the table");
  assert.equal(excel.tableValues("Half")[700]![0], 700);
});

test("a failed write still leaves a consistent table of the blocks that landed, and says so", async () => {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook({ run: excel.run, blockRows: 100 });
  const writer = await workbook.createTable({ target: { kind: "newSheet", sheetName: "F" }, tableName: "F", columns, expectedRows: 300 });
  excel.failOnSync = excel.syncs + 3; // the third block fails
  await writer.append(itemsToRows(companies(200), columns));
  await assert.rejects(writer.append(itemsToRows(companies(100, 201), columns)), WorkbookError);
  const result = await writer.finish();
  assert.equal(result.rowsWritten, 200);
  assert.equal(excel.table("F")!.rows, 201);
});

test("an empty result still makes a valid table with its headers", async () => {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook({ run: excel.run });
  const writer = await workbook.createTable({ target: { kind: "newSheet", sheetName: "None" }, tableName: "None", columns, expectedRows: 0 });
  const result = await writer.finish();
  assert.equal(result.rowsWritten, 0);
  assert.equal(excel.tableValues("None")[0]![1], "Company name");
});

test("sheet and table names are made unique", async () => {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook({ run: excel.run });
  const a = await workbook.createTable({ target: { kind: "newSheet", sheetName: "Sheet1" }, tableName: "My search", columns, expectedRows: 0 });
  await a.finish();
  const b = await workbook.createTable({ target: { kind: "newSheet", sheetName: "Sheet1" }, tableName: "My search", columns, expectedRows: 0 });
  await b.finish();
  assert.equal(a.sheetName, "Sheet1 (2)");
  assert.equal(b.sheetName, "Sheet1 (3)");
  assert.equal(a.tableName, "My_search");
  assert.equal(b.tableName, "My_search_2");
});

test("refresh replaces only its table's rows and keeps user columns to the right, by record id", async () => {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook({ run: excel.run });
  const first = await workbook.createTable({ target: { kind: "newSheet", sheetName: "R" }, tableName: "Refreshed", columns, expectedRows: 4 });
  await first.append(itemsToRows(companies(4), columns));
  await first.finish();
  // The user adds a column to the right of the table and a note next to company 3,
  // and has other data below and beside the table.
  const t = excel.table("Refreshed")!;
  const sheet = excel.sheet("R");
  sheet.cell(0, 5).value = "My notes";
  sheet.cell(3, 5).value = "call back";
  t.cols = 6;
  sheet.cell(0, 8).value = "not mine";
  // Another table elsewhere must not change.
  excel.addTable("Sheet1", "Other", 0, 0, [["A"], [1]]);

  const refresh = await workbook.refreshTable("Refreshed", columns);
  // The refreshed result: companies 3..4 still there, 1..2 gone, 5 new.
  await refresh.append(itemsToRows(companies(3, 3), columns));
  const result = await refresh.finish();
  assert.equal(result.rowsWritten, 3);
  assert.deepEqual(excel.tableValues("Refreshed"), [
    ["Company ID", "Company name", "Website", "Revenue ($K)", "Employees", "My notes"],
    [3, "Company 3", "www.c3.com", 30, 42, "call back"],
    [4, "Company 4", "www.c4.com", 40, 42, ""],
    [5, "Company 5", "www.c5.com", 50, 42, ""],
  ]);
  assert.equal(sheet.peek(4, 0)?.value ?? "", "", "the leftover row is cleared");
  assert.equal(sheet.peek(0, 8)?.value, "not mine");
  assert.deepEqual(excel.tableValues("Other"), [["A"], [1]]);
});

test("refresh refuses a table whose columns were changed, and a table that is gone", async () => {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook({ run: excel.run });
  excel.addTable("Sheet1", "Changed", 0, 0, [
    ["Something else", "B"],
    [1, 2],
  ]);
  await assert.rejects(workbook.refreshTable("Changed", columns), (e: unknown) => e instanceof WorkbookError && e.kind === "tableChanged");
  assert.deepEqual(excel.tableValues("Changed"), [
    ["Something else", "B"],
    [1, 2],
  ]);
  await assert.rejects(workbook.refreshTable("Gone", columns), (e: unknown) => e instanceof WorkbookError && e.kind === "notFound");
});

test("saved searches live in workbook settings and read back", async () => {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook({ run: excel.run });
  assert.deepEqual(await workbook.loadSavedSearches(), []);
  const saved = [
    {
      id: "1",
      name: "Texas SaaS",
      kind: "company" as const,
      filters: { state: "Texas" },
      sort: "-revenue",
      columns: ["id", "name"],
      savedAt: "2026-01-01T00:00:00Z",
    },
  ];
  await workbook.storeSavedSearches(saved);
  assert.deepEqual(await workbook.loadSavedSearches(), saved);
  assert.ok(!String(excel.settings.get("bizdata.savedSearches")).toLowerCase().includes("token"));
});

test("every column of the company search has a header from the contract", () => {
  for (const c of COMPANY_SEARCH_COLUMNS) assert.ok(c.header.length > 0 && !/^[a-z]+[A-Z]/.test(c.header), c.header);
  const row: CellValue[] = itemsToRows(companies(1), COMPANY_SEARCH_COLUMNS)[0]!;
  assert.equal(row.length, COMPANY_SEARCH_COLUMNS.length);
});
