import { test } from "node:test";
import assert from "node:assert/strict";
import { BrowserWorkbook } from "../../../src/office/browserWorkbook.js";
import { openCsvAsTable } from "../../../src/office/openCsv.js";
import { parseCsv, toCsv } from "../../../src/core/sheet/index.js";

test("a CSV file reads as a spreadsheet opens it: quotes, separators and line ends inside fields, numbers, text kept text", () => {
  const text =
    '\uFEFFCompany,Website,Employees,Note\r\n"Acme, Inc.",acme.com,50,"said ""hi""\r\nthen left"\r\nZed,zed.io,01234,=1+1\r\n\r\n,,,\r\nLast,last.org,-2.5';
  assert.deepEqual(parseCsv(text), {
    headers: ["Company", "Website", "Employees", "Note"],
    rows: [
      ["Acme, Inc.", "acme.com", 50, 'said "hi"\r\nthen left'],
      ["Zed", "zed.io", "01234", "=1+1"],
      ["Last", "last.org", -2.5, ""],
    ],
  });
});

test("the separator is the header line's own (';' where the decimal mark is a comma); short rows are filled, unnamed columns named", () => {
  assert.deepEqual(parseCsv("Name;Score;\nA;1,5\nB\n"), {
    headers: ["Name", "Score", "Column 3"],
    rows: [
      ["A", "1,5", ""],
      ["B", "", ""],
    ],
  });
  assert.deepEqual(parseCsv(toCsv([{ header: "Name", type: "text" }], [["x;y"]], { separator: ";" })).rows, [["x;y"]]);
});

test("a CSV file opens as a table of its own, its first column picked; a file without a header row opens nothing", async () => {
  const workbook = new BrowserWorkbook();
  const opened = await openCsvAsTable(workbook, "trade show leads.csv", "Website,Email\nacme.com,jo@acme.com\n");
  assert.deepEqual(opened, { tableName: "trade_show_leads", rows: 1 });
  const table = workbook.table(opened.tableName)!;
  assert.deepEqual(
    [table.sheetName, table.headers, table.rows, table.complete],
    ["trade show leads", ["Website", "Email"], [["acme.com", "jo@acme.com"]], true],
  );
  assert.equal(workbook.selectedColumn()?.table.name, opened.tableName);
  await assert.rejects(openCsvAsTable(workbook, "empty.csv", "\r\n"), /empty\.csv holds no header row: nothing was opened\./);
  assert.equal(workbook.listTables().length, 1);
});
