// Excel's size limits: the fake Excel refuses what Excel on the web refuses (a request or a
// response over 5 MB, a get over 5 million cells), and the adapters read and write tables of
// 100,000 rows through it in calls under those limits.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createExcelAudienceSheet } from "../../src/office/audienceSheet.js";
import { excelCompanyIdsInTables } from "../../src/office/companyIdsInTables.js";
import { createExcelSelectionSource, type ExcelRun } from "../../src/office/enrichSelection.js";
import { blocksUnderLimits, readRowsInBlocks } from "../../src/office/excelLimits.js";
import { readSelectedCellValues } from "../../src/office/jobsSelection.js";
import { FakeExcel, FakeRichApiError, PAYLOAD_LIMIT_BYTES } from "./excelFake.js";

const ROWS = 100_000;
const COLS = 4;
const LAST = "A1:D100001";

/** A 100,000 x 4 table on Sheet1 (about 10 MB as JSON): an id, a name, a number, a note. */
function bigTable(excel: FakeExcel): (string | number)[][] {
  const rows = Array.from({ length: ROWS }, (_, r) => [r + 1, `Company number ${r + 1}`, r * 7, `a note of a few words on row ${r + 1}`]);
  excel.addTable("Sheet1", "Big", 0, 0, [["Company id", "Name", "Score", "Notes"], ...rows]);
  return rows;
}

/** More than one call (the data is over 5 MB), each within the limits or refused once and read again. */
function assertBlocked(excel: FakeExcel, minCalls: number): void {
  const done = excel.calls.filter((call) => call.requestBytes <= PAYLOAD_LIMIT_BYTES && call.responseBytes <= PAYLOAD_LIMIT_BYTES);
  assert.ok(done.length >= minCalls, `${done.length} calls`);
  assert.ok(excel.calls.length - done.length <= 1, "at most one block refused for its size");
}

describe("the fake Excel enforces Excel on the web's limits", () => {
  it("refuses a request over 5 MB and writes none of it", async () => {
    const excel = new FakeExcel();
    const values = Array.from({ length: 60_000 }, (_, r) => [`a line of text long enough to make 60,000 rows weigh over 5 MB, row ${r}`, r, r * 2]);
    const refused = excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRangeByIndexes(0, 0, values.length, 3).values = values;
      await context.sync();
    });
    await assert.rejects(refused, (error: FakeRichApiError) => error.name === "RichApi.Error" && error.code === "RequestPayloadSizeLimitExceeded");
    assert.equal(excel.sheet("Sheet1").peek(0, 0), undefined);
    // The same rows in two requests are written.
    await excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      sheet.getRangeByIndexes(0, 0, 30_000, 3).values = values.slice(0, 30_000);
      await context.sync();
      sheet.getRangeByIndexes(30_000, 0, 30_000, 3).values = values.slice(30_000);
      await context.sync();
    });
    assert.equal(excel.sheet("Sheet1").peek(59_999, 1)?.value, 59_999);
  });

  it("refuses a response over 5 MB, a get over 5 million cells, and a read without a load", async () => {
    const excel = new FakeExcel();
    const rows = bigTable(excel);
    const load = (rowCount: number, cols: number) =>
      excel.run(async (context) => {
        const range = context.workbook.worksheets.getItem("Sheet1").getRangeByIndexes(1, 0, rowCount, cols).load("values");
        await context.sync();
        return range.values;
      });
    await assert.rejects(load(ROWS, COLS), { code: "ResponsePayloadSizeLimitExceeded", message: /response payload/ });
    assert.equal((await load(ROWS / 4, COLS)).length, ROWS / 4);
    await assert.rejects(load(1_000_000, 6), { code: "ResponsePayloadSizeLimitExceeded", message: /5000000 a get may read/ });
    assert.deepEqual((await load(10, COLS))[9], rows[9]);
    await assert.rejects(
      excel.run(async (context) => context.workbook.worksheets.getItem("Sheet1").getRangeByIndexes(0, 0, 1, 1).values),
      { code: "PropertyNotLoaded" },
    );
  });
});

describe("blocks under Excel's limits", () => {
  it("cuts rows by their measured bytes and by cells, never by a fixed count", () => {
    const sizes = [3_000_000, 1_000_000, 1_000_000, 10, 10];
    assert.deepEqual(
      blocksUnderLimits(sizes.length, (i) => sizes[i]!, 1),
      [
        [0, 2],
        [2, 5],
      ],
    );
    // 1,000 cells a row: at most 5,000 rows a block, however small the bytes.
    assert.deepEqual(
      blocksUnderLimits(12_000, () => 10, 1_000),
      [
        [0, 5_000],
        [5_000, 10_000],
        [10_000, 12_000],
      ],
    );
  });

  it("reads again in halves a block Excel refuses", async () => {
    const excel = new FakeExcel();
    const rows = bigTable(excel);
    // A first row far shorter than the others: the first block sized on it is too large.
    let syncs = 0;
    const read = await excel.run((context) => {
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      return readRowsInBlocks({
        rows: ROWS,
        width: COLS,
        range: (start, count) => sheet.getRangeByIndexes(1 + start, 0, count, COLS),
        sync: () => (syncs++, context.sync()),
        first: [[1, ""]],
      });
    });
    assert.equal(read.length, ROWS);
    assert.deepEqual(read[ROWS - 1], rows[ROWS - 1]);
    assert.ok(
      excel.calls.some((call) => call.responseBytes > PAYLOAD_LIMIT_BYTES),
      "a block was refused and read again",
    );
    assert.equal(syncs, excel.syncs);
  });
});

describe("the adapters under the limits", () => {
  it("reads a 100,000-row table: the audience sheet, the id columns, the selection's used range", async () => {
    const excel = new FakeExcel();
    const rows = bigTable(excel);
    const read = await createExcelAudienceSheet(excel.run).readTableAt(`Sheet1!${LAST}`);
    assert.ok(read.ok);
    assert.equal(read.table.rows.length, ROWS);
    assert.deepEqual(read.table.rows[ROWS - 1], rows[ROWS - 1]);
    assertBlocked(excel, 2);
    excel.calls.length = 0;
    const ids = await excelCompanyIdsInTables(excel.run);
    assert.equal(ids.length, ROWS);
    assert.equal(ids[ROWS - 1], String(ROWS));
    excel.calls.length = 0;
    excel.selection = { sheet: "Sheet1", row: 0, col: 0 };
    const selected: ExcelRun = (batch) =>
      excel.run((context) => {
        const range = context.workbook.worksheets.getItem("Sheet1").getRangeByIndexes(0, 0, ROWS + 1, COLS);
        (context.workbook as unknown as { getSelectedRange(): unknown }).getSelectedRange = () => range;
        return batch(context);
      });
    const cells = await readSelectedCellValues(selected);
    assert.equal(cells.length, ROWS + 1);
    assert.deepEqual(cells[ROWS], rows[ROWS - 1]);
    assertBlocked(excel, 3);
  });

  it("enriches a 50,000-row selection with 20 columns: the write-back is cut under 5 MB", async () => {
    const excel = new FakeExcel();
    const source = createExcelSelectionSource({ run: excel.run });
    const headers = Array.from({ length: 20 }, (_, c) => `Enriched ${c + 1}`);
    const enriched = Array.from({ length: 50_000 }, (_, r) => headers.map((_, c) => (c % 3 ? `value ${r}.${c}` : r * c)));
    const result = await source.writeColumns({ address: "Sheet1!A1:A50001", headers, rows: enriched, overwrite: false });
    assert.equal(result.status, "written");
    assertBlocked(excel, 3);
    assert.deepEqual(excel.sheet("Sheet1").read(50_000, 1, 1, 20)[0], enriched[49_999]);
    assert.equal(excel.sheet("Sheet1").peek(50_000, 2)?.format, "@");
  });

  it("sends a 100,000-row table to an audience and brings its columns back, on the sheet side", async () => {
    const excel = new FakeExcel();
    const rows = bigTable(excel);
    const sheet = createExcelAudienceSheet(excel.run);
    const address = `Sheet1!${LAST}`;
    const link = (r: number) => `https://app.example.com/audiences/a1/rows/${r}`;
    await sheet.writeColumns(address, [
      { column: COLS, header: "Audience row", cells: rows.map((_, r) => ({ row: r, value: link(r) })) },
      { column: COLS + 1, header: "Audience send status", cells: rows.map((_, r) => ({ row: r, value: r % 10 ? "Created" : "Updated" })) },
    ]);
    const back = Array.from({ length: 3 }, (_, k) => ({
      column: COLS + 2 + k,
      header: `Enriched ${k + 1}`,
      cells: rows.map((_, r) => ({ row: r, value: k % 2 ? r * k : `=enriched text ${r}` })),
    }));
    await sheet.writeColumns(address, back);
    const read = await sheet.readTableAt(address);
    assert.ok(read.ok);
    assert.equal(read.table.headers.length, COLS + 5);
    assert.deepEqual(read.table.rows[ROWS - 1]!.slice(COLS), [link(ROWS - 1), "Created", `=enriched text ${ROWS - 1}`, ROWS - 1, `=enriched text ${ROWS - 1}`]);
    assert.equal(excel.sheet("Sheet1").peek(ROWS, COLS + 2)?.formula, undefined, "text stays text");
    assertBlocked(excel, 6);
  });
});
