import { test } from "node:test";
import assert from "node:assert/strict";
import { BrowserWorkbook } from "../../src/office/browserWorkbook.js";
import { browserSelectionSource } from "../../src/office/browserSelection.js";
import { columnsFor, itemsToRows, numberFormatOf } from "../../src/core/sheet/index.js";

/** A browser workbook with table C: Company ID and Company name of two companies (7 "A", 9 "B"). */
async function twoCompanies(): Promise<BrowserWorkbook> {
  const workbook = new BrowserWorkbook();
  const columns = columnsFor("company", ["id", "name"]);
  const writer = await workbook.createTable({ target: { kind: "newSheet", sheetName: "C" }, tableName: "Companies", columns, expectedRows: 2 });
  await writer.append(
    itemsToRows(
      [
        { id: "7", attributes: { name: "A" } },
        { id: "9", attributes: { name: "B" } },
      ],
      columns,
    ),
  );
  await writer.finish();
  return workbook;
}

test("the picked table column is the selection; new columns go to the table's right end, nothing is overwritten", async () => {
  const workbook = await twoCompanies();
  const source = browserSelectionSource(workbook);

  const none = await source.readIds();
  assert.equal(none.ok, false);

  workbook.selectColumn("Companies", 0);
  const read = await source.readIds();
  assert.ok(read.ok);
  assert.deepEqual(read.selection, { address: "C!A1:A3", values: ["Company ID", 7, 9] });

  const written = await source.writeColumns({
    address: read.selection.address,
    headers: ["Revenue", "Enrichment status"],
    rows: [
      [100, "ok"],
      ["", "no match"],
    ],
    overwrite: false,
  });
  assert.deepEqual(written, { status: "written", address: "C!C1:D3" });
  const table = workbook.table("Companies")!;
  assert.deepEqual(table.headers, ["Company ID", "Company name", "Revenue", "Enrichment status"]);
  assert.deepEqual(table.rows, [
    [7, "A", 100, "ok"],
    [9, "B", "", "no match"],
  ]);
  assert.match(workbook.csv("Companies"), /Company ID,Company name,Revenue,Enrichment status\r\n7,A,100,ok\r\n/);
});

test("enriched numbers keep their number format in the browser table, as inserted amounts do", async () => {
  const workbook = new BrowserWorkbook();
  const columns = columnsFor("company", ["id"]);
  const writer = await workbook.createTable({ target: { kind: "newSheet", sheetName: "C" }, tableName: "Companies", columns, expectedRows: 1 });
  await writer.append(itemsToRows([{ id: "7", attributes: {} }], columns));
  await writer.finish();
  workbook.selectColumn("Companies", 0);
  const source = browserSelectionSource(workbook);
  await source.writeColumns({
    address: "C!A1:A2",
    headers: ["Revenue ($K)", "Parent ID", "Status"],
    rows: [[1200, 9, "ok"]],
    numberFormats: ["#,##0", "0", "General"],
    overwrite: false,
  });
  const table = workbook.table("Companies")!;
  assert.deepEqual(
    table.columns.slice(1).map((c) => numberFormatOf(c)),
    ["#,##0", "0", "@"],
  );
});

test("a rewrite with overwrite lands on the columns it names (a retry of matching), not after them", async () => {
  const workbook = await twoCompanies();
  workbook.selectColumn("Companies", 1);
  const source = browserSelectionSource(workbook);
  const first = await source.writeColumns({
    address: "C!C1:D3",
    headers: ["Company ID", "Match status"],
    rows: [
      [7, "Matched"],
      ["", "No match"],
    ],
    overwrite: false,
  });
  assert.deepEqual(first, { status: "written", address: "C!C1:D3" });

  const again = await source.writeColumns({
    address: "C!A1:A3",
    at: first.address,
    headers: ["Company ID", "Match status"],
    rows: [
      [7, "Matched"],
      [9, "Matched"],
    ],
    overwrite: true,
  });
  assert.deepEqual(again, { status: "written", address: "C!C1:D3" });
  const table = workbook.table("Companies")!;
  assert.equal(table.headers.length, 4, table.headers.join("|"));
  assert.deepEqual(table.rows, [
    [7, "A", 7, "Matched"],
    [9, "B", 9, "Matched"],
  ]);

  // Without overwrite, even a named address inside the table appends: nothing is written over.
  const third = await source.writeColumns({ address: "C!A1:A3", headers: ["Note"], rows: [["x"], ["y"]], overwrite: false });
  assert.deepEqual(third, { status: "written", address: "C!E1:E3" });
  assert.deepEqual(
    table.rows.map((r) => r[0]),
    [7, 9],
  );
});
