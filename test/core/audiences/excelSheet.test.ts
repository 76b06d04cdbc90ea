// The Excel side of Send to an audience (src/office/audienceSheet.ts), on the office-addin-mock
// workbook of test/office/excelFake.ts: the selected range read with its header and formats, the
// columns written beside it found again on the next read, strings written as text, and only the
// cells given written (a formula the user put in that column stays).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createExcelAudienceSheet, parseArea } from "../../../src/office/audienceSheet.js";
import type { ExcelRun } from "../../../src/office/enrichSelection.js";
import { FakeExcel } from "../../office/excelFake.js";

/** The fake with a range selected (outside any Excel table). */
function withSelection(fake: FakeExcel, row: number, col: number, rows: number, cols: number): ExcelRun {
  return (batch) =>
    fake.run((context) => {
      (context.workbook as any).getSelectedRange = () => {
        const range = (context.workbook.worksheets.getItem("Sheet1") as any).getRangeByIndexes(row, col, rows, cols);
        range.getTables = () => ({ getCount: () => ({ value: 0 }) });
        range.getUsedRange = () => range;
        range.getSurroundingRegion = () => range;
        return range;
      };
      return batch(context);
    });
}

function fill(fake: FakeExcel, rows: (string | number)[][]): void {
  rows.forEach((r, i) => r.forEach((v, j) => (fake.sheet("Sheet1").cell(i, j).value = v)));
}

describe("the Excel audience sheet", () => {
  it("reads the selected range: the header, the rows and the first row's formats", async () => {
    const fake = new FakeExcel();
    fill(fake, [
      ["Website", "Employees", "Met on"],
      ["acme.com", 120, 45200],
      ["globex.com", 40, 45201],
    ]);
    fake.sheet("Sheet1").cell(1, 2).format = "yyyy-mm-dd";
    const sheet = createExcelAudienceSheet(withSelection(fake, 0, 0, 3, 3));
    const read = await sheet.readTable();
    assert.ok(read.ok);
    assert.equal(read.table.address, "Sheet1!A1:C3");
    assert.deepEqual(read.table.headers, ["Website", "Employees", "Met on"]);
    assert.deepEqual(read.table.rows, [
      ["acme.com", 120, 45200],
      ["globex.com", 40, 45201],
    ]);
    assert.deepEqual(read.table.formats, ["General", "General", "yyyy-mm-dd"]);
  });

  it("refuses a range without a row below its header", async () => {
    const fake = new FakeExcel();
    fill(fake, [["Website"]]);
    const read = await createExcelAudienceSheet(withSelection(fake, 0, 0, 1, 1)).readTable();
    assert.ok(!read.ok);
    assert.match(read.message, /header row and at least one row below it/);
  });

  it("writes only the cells given, strings as text, and finds the new columns again", async () => {
    const fake = new FakeExcel();
    fill(fake, [
      ["Website", "Employees"],
      ["acme.com", 120],
      ["globex.com", 40],
      ["initech.com", 7],
    ]);
    // A results column from before, with the user's own formula on a row that gets nothing now.
    fake.sheet("Sheet1").cell(0, 2).value = "Revenue";
    fake.sheet("Sheet1").cell(3, 2).formula = "=B4*2";
    const sheet = createExcelAudienceSheet(fake.run);
    await sheet.writeColumns("Sheet1!A1:B4", [
      {
        column: 2,
        header: "Revenue",
        cells: [
          { row: 0, value: 1200 },
          { row: 1, value: '=HYPERLINK("x")' },
        ],
      },
      { column: 3, header: "Audience send status", cells: [{ row: 2, value: "Created" }] },
    ]);
    const c = (row: number, col: number) => fake.sheet("Sheet1").peek(row, col);
    assert.equal(c(0, 2)?.value, "Revenue");
    assert.equal(c(1, 2)?.value, 1200);
    assert.equal(c(2, 2)?.value, '=HYPERLINK("x")');
    assert.equal(c(2, 2)?.formula, undefined, "a string from the service stays text");
    assert.equal(c(2, 2)?.format, "@");
    assert.equal(c(3, 2)?.formula, "=B4*2", "a cell not given is not written");
    assert.equal(c(3, 3)?.value, "Created");
    const again = await sheet.readTableAt("Sheet1!A1:B4");
    assert.ok(again.ok);
    assert.deepEqual(again.table.headers, ["Website", "Employees", "Revenue", "Audience send status"]);
    assert.equal(again.table.address, "Sheet1!A1:B4");
  });

  it("never writes a new column over cells someone typed below an empty header", async () => {
    const fake = new FakeExcel();
    fill(fake, [
      ["Website", "Employees"],
      ["acme.com", 120],
      ["globex.com", 40],
    ]);
    fake.sheet("Sheet1").cell(2, 2).value = "call back";
    const sheet = createExcelAudienceSheet(fake.run);
    await assert.rejects(sheet.writeColumns("Sheet1!A1:B3", [{ column: 2, header: "Audience row", cells: [{ row: 0, value: "a/r1" }] }]), {
      message:
        "Column C holds data below an empty header beside the table, where the results go; nothing was written. Give it a header or move it, then try again.",
    });
    assert.equal(fake.sheet("Sheet1").peek(2, 2)?.value, "call back");
    assert.equal(fake.sheet("Sheet1").peek(0, 2)?.value ?? "", "");
  });

  it("reads sheet addresses with quotes", () => {
    assert.deepEqual(parseArea("'My leads'!B2:D9"), { sheet: "My leads", row: 1, col: 1, rows: 8, cols: 3 });
  });
});
