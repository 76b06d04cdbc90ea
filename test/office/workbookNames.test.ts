// Both workbooks name new sheets and tables by Excel's rules; the fake Excel refuses what Excel
// refuses (an illegal or taken table name, an illegal sheet name), so a name that slips through
// fails here.
import assert from "node:assert/strict";
import { test } from "node:test";
import { columnsFor } from "../../src/core/sheet/index.js";
import { BrowserWorkbook } from "../../src/office/browserWorkbook.js";
import { ExcelWorkbook } from "../../src/office/excelWorkbook.js";
import type { WorkbookAdapter } from "../../src/office/workbook.js";
import { FakeExcel } from "./excelFake.js";

const columns = columnsFor("company", ["id", "name"]);

async function insert(workbook: WorkbookAdapter, sheetName: string, tableName: string) {
  const writer = await workbook.createTable({ target: { kind: "newSheet", sheetName }, tableName, columns, expectedRows: 0 });
  return writer.finish();
}

function excelWith(definedNames: string[]) {
  const excel = new FakeExcel();
  excel.definedNames.push(...definedNames);
  return { excel, workbook: new ExcelWorkbook({ run: excel.run }) };
}

test("Excel: a table name taken by a defined name, and the names R, C, TRUE, FALSE, are changed before Excel sees them", async () => {
  const { excel, workbook } = excelWith(["Leads", "Quota_2025"]);
  assert.deepEqual(await workbook.definedNames(), ["Leads", "Quota_2025"]);
  const made = [];
  for (const wanted of ["leads", "R", "C", "TRUE", "FALSE", "Quota 2025"]) made.push((await insert(workbook, "Results", wanted)).tableName);
  assert.deepEqual(made, ["leads_2", "T_R", "T_C", "T_TRUE", "T_FALSE", "Quota_2025_2"]);
  assert.deepEqual(
    excel.tables.map((t) => t.name),
    made,
  );
});

test("Excel: the fake refuses what Excel refuses (so the test above can fail)", () => {
  const { excel } = excelWith(["Leads"]);
  const own = excel.addTable("Sheet1", "Table1", 0, 0, [["Company ID"]]);
  for (const name of ["LEADS", "R", "c", "TRUE", "A1", "R1C1", "My table", "1st"]) {
    assert.throws(() => excel.checkTableName(name, own), /InvalidArgument/, name);
  }
  assert.equal(excel.checkTableName("Leads_2", own), "Leads_2");
});

test("Excel: sheet names cut at 31 characters end on no apostrophe and no half emoji, and History is not used", async () => {
  const { excel, workbook } = excelWith([]);
  const sheets = [];
  for (const wanted of [`${"a".repeat(30)}'b`, `${"b".repeat(30)}😀`, "History", "'Q3'"]) sheets.push((await insert(workbook, wanted, "Results")).sheetName);
  assert.deepEqual(sheets, ["a".repeat(30), "b".repeat(30), "History (2)", "Q3"]);
  assert.deepEqual(
    excel.sheets.slice(1).map((s) => s.name),
    sheets,
  );
});

test("browser: defined names share the table names' namespace", async () => {
  const workbook = new BrowserWorkbook();
  workbook.defineName("Leads");
  assert.deepEqual(await workbook.definedNames(), ["Leads"]);
  assert.equal((await insert(workbook, "Leads", "Leads")).tableName, "Leads_2");
  assert.equal((await insert(workbook, "R", "R")).tableName, "T_R");
  assert.throws(() => workbook.defineName("leads_2"), /already used/);
});
