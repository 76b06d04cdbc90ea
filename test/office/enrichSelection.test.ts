// The Excel adapter of "enrich selection", on the office-addin-mock workbook of excelFake.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createExcelSelectionSource, parseAddress, type ExcelRun } from "../../src/office/enrichSelection.js";
import { FakeExcel } from "./excelFake.js";
import { buildOutputColumns } from "../../src/core/enrich/index.js";

/** The fake with a multi-cell selection (its own selection is one cell). */
function withSelection(fake: FakeExcel, sheet: string, row: number, col: number, rows: number, cols = 1): ExcelRun {
  return (batch) =>
    fake.run((context) => {
      (context.workbook as any).getSelectedRange = () => (context.workbook.worksheets.getItem(sheet) as any).getRangeByIndexes(row, col, rows, cols);
      return batch(context);
    });
}

function fill(fake: FakeExcel, col: number, values: (string | number)[], sheet = "Sheet1", top = 0): void {
  values.forEach((v, i) => (fake.sheet(sheet).cell(top + i, col).value = v));
}

describe("Excel selection source", () => {
  it("reads the selected column of ids, dropping blank rows at the end", async () => {
    const fake = new FakeExcel();
    fill(fake, 1, ["Company id", 101, "102", "", 103]);
    const source = createExcelSelectionSource({ run: withSelection(fake, "Sheet1", 0, 1, 8) });
    const read = await source.readIds();
    assert.ok(read.ok);
    assert.equal(read.selection.address, "Sheet1!B1:B8");
    assert.deepEqual(read.selection.values, ["Company id", 101, "102", "", 103]);
  });

  it("refuses a selection of several columns", async () => {
    const fake = new FakeExcel();
    const source = createExcelSelectionSource({ run: withSelection(fake, "Sheet1", 0, 0, 3, 2) });
    const read = await source.readIds();
    assert.ok(!read.ok && /Select one column/.test(read.message));
  });

  it("rewrites exactly the columns an earlier run wrote when told where (at), over their data", async () => {
    const fake = new FakeExcel();
    fill(fake, 0, ["Website", "acme.com", "nobody.example"]);
    const source = createExcelSelectionSource({ run: withSelection(fake, "Sheet1", 0, 0, 3) });
    const first = await source.writeColumns({
      address: "Sheet1!A1:A3",
      headers: ["Company ID", "Match status"],
      rows: [
        [7, "Matched"],
        ["", "No match"],
      ],
      overwrite: false,
    });
    assert.deepEqual(first, { status: "written", address: "Sheet1!B1:C3" });
    const again = await source.writeColumns({
      address: "Sheet1!A1:A3",
      at: first.address,
      headers: ["Company ID", "Match status"],
      rows: [
        [7, "Matched"],
        [9, "Matched"],
      ],
      overwrite: true,
    });
    assert.deepEqual(again, { status: "written", address: "Sheet1!B1:C3" });
    const sheet = fake.sheet("Sheet1");
    assert.deepEqual(
      [1, 2].map((r) => [sheet.peek(r, 1)?.value, sheet.peek(r, 2)?.value]),
      [
        [7, "Matched"],
        [9, "Matched"],
      ],
    );
    assert.equal(sheet.peek(0, 3)?.value ?? "", "", "nothing written beyond them");
  });

  it("writes columns to the right, text format before values, in blocks", async () => {
    const fake = new FakeExcel();
    fill(fake, 0, ["Company id", 1, 2, 3, 4, 5]);
    const source = createExcelSelectionSource({ run: withSelection(fake, "Sheet1", 0, 0, 6), blockRows: 4 });
    const result = await source.writeColumns({
      address: "Sheet1!A1:A6",
      headers: ["Company name", "Revenue ($K)"],
      rows: [
        ['=HYPERLINK("x")', 10],
        ["+1 555", 20],
        ["@home", 30],
        ["-minus", 40],
        ["Plain", 50],
      ],
      overwrite: false,
    });
    assert.deepEqual(result, { status: "written", address: "Sheet1!B1:C6" });
    const sheet = fake.sheet("Sheet1");
    assert.deepEqual(sheet.read(0, 1, 6, 2), [
      ["Company name", "Revenue ($K)"],
      ['=HYPERLINK("x")', 10],
      ["+1 555", 20],
      ["@home", 30],
      ["-minus", 40],
      ["Plain", 50],
    ]);
    for (let r = 1; r < 6; r++) {
      assert.equal(sheet.peek(r, 1)?.formula, undefined, `row ${r} stayed text`);
      assert.equal(sheet.peek(r, 1)?.format, "@");
      assert.equal(sheet.peek(r, 2)?.format, "General");
    }
    // Two blocks of at most 4 rows, each formatted before its values are written.
    const writes = fake.journal.filter((e) => e.op === "numberFormat" || e.op === "values").map((e) => `${e.op}@${e.row}x${e.rows}`);
    assert.deepEqual(writes, ["numberFormat@0x4", "values@0x4", "numberFormat@4x2", "values@4x2"]);
  });

  it("numbers keep their field's number format, as a search insert writes them", async () => {
    const fake = new FakeExcel();
    fill(fake, 0, ["Company id", 1, 2]);
    const source = createExcelSelectionSource({ run: withSelection(fake, "Sheet1", 0, 0, 3) });
    const output = buildOutputColumns(
      "company",
      ["revenue", "parentId", "name"],
      [1, 2],
      new Map([
        [0, { id: 1, result: { ok: true as const, fields: ["revenue", "parentId", "name"], values: [1_250_000, 77, "A"] } }],
        [1, { id: 2, result: { ok: true as const, fields: ["revenue", "parentId", "name"], values: [3, 78, "=B"] } }],
      ]),
    );
    await source.writeColumns({ address: "Sheet1!A1:A3", headers: output.headers, rows: output.rows, numberFormats: output.numberFormats, overwrite: false });
    const sheet = fake.sheet("Sheet1");
    const formats = [0, 1, 2].map((r) => [1, 2, 3].map((c) => sheet.peek(r, c)?.format));
    assert.deepEqual(formats, [
      ["@", "@", "@"],
      ["#,##0", "0", "@"],
      ["#,##0", "0", "@"],
    ]);
    assert.deepEqual(sheet.read(1, 1, 1, 3), [[1_250_000, 77, "A"]]);
  });

  it("never writes over data to the right without the user's word", async () => {
    const fake = new FakeExcel();
    fill(fake, 0, [1, 2, 3]);
    fake.sheet("Sheet1").cell(2, 2).value = "my notes";
    const source = createExcelSelectionSource({ run: withSelection(fake, "Sheet1", 0, 0, 3) });
    const request = {
      address: "Sheet1!A1:A3",
      rows: [
        ["a", "b"],
        ["c", "d"],
        ["e", "f"],
      ],
      overwrite: false,
    };
    const refused = await source.writeColumns(request);
    assert.deepEqual(refused, { status: "notEmpty", address: "Sheet1!B1:C3" });
    assert.equal(fake.sheet("Sheet1").peek(2, 2)?.value, "my notes");
    assert.equal(fake.journal.filter((e) => e.op === "values").length, 0);
    const written = await source.writeColumns({ ...request, overwrite: true });
    assert.equal(written.status, "written");
    assert.equal(fake.sheet("Sheet1").peek(2, 2)?.value, "f");
  });

  it("reads sheet names with spaces and quotes in addresses", () => {
    assert.deepEqual(parseAddress("'Q3 ''leads'''!$C$5:$C$9"), { sheet: "Q3 'leads'", row: 4, col: 2, rows: 5 });
    assert.deepEqual(parseAddress("Sheet1!AA10"), { sheet: "Sheet1", row: 9, col: 26, rows: 1 });
  });
});
