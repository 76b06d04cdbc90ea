// Table.resize is ExcelApi 1.13: a refresh or an append resizes the table where the host has it,
// and elsewhere grows the table by rows.add before each block and deletes its surplus rows at the
// end; the table ends over the same cells either way.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { columnsFor, itemsToRows } from "../../src/core/sheet/index.js";
import { ExcelWorkbook } from "../../src/office/excelWorkbook.js";
import { FakeExcel } from "./excelFake.js";

const columns = columnsFor("company", ["id", "name", "revenue"]);

function companies(n: number, start = 1) {
  return Array.from({ length: n }, (_, i) => ({
    id: String(start + i),
    type: "Company",
    attributes: { name: `Company ${start + i}`, revenue: String(start + i) },
  }));
}

/** A table of `before` rows refreshed to `after`, then `appended` more, with Table.resize or without. */
async function refreshAndAppend(resize: boolean, before: number, after: number, appended: number) {
  const excel = new FakeExcel();
  excel.tableResize = resize;
  const workbook = new ExcelWorkbook({ run: excel.run, tableResize: resize, blockRows: 2 });
  const first = await workbook.createTable({ target: { kind: "newSheet", sheetName: "T" }, tableName: "T", columns, expectedRows: before });
  await first.append(itemsToRows(companies(before), columns));
  await first.finish();
  excel.sheet("T").cell(20, 0).value = "below";
  const refresh = await workbook.refreshTable("T", columns);
  await refresh.append(itemsToRows(companies(after, 100), columns));
  await refresh.finish();
  const more = await workbook.appendToTable("T", columns);
  await more.append(itemsToRows(companies(appended, 200), columns));
  await more.finish();
  const ops = new Set(excel.journal.map((e) => e.op));
  return { values: excel.tableValues("T"), ops, table: excel.table("T")! };
}

describe("Table.resize only where ExcelApi 1.13 is", () => {
  const office = (globalThis as { Office?: unknown }).Office;
  afterEach(() => ((globalThis as { Office?: unknown }).Office = office));

  it("resizes with 1.13, and without it adds rows and deletes the surplus: the same table", async () => {
    for (const [before, after] of [
      [2, 5],
      [6, 3],
    ] as const) {
      const withResize = await refreshAndAppend(true, before, after, 3);
      const without = await refreshAndAppend(false, before, after, 3);
      assert.deepEqual(without.values, withResize.values);
      assert.equal(withResize.values.length, 1 + after + 3);
      assert.equal(withResize.values[after + 3]![0], 202);
      assert.ok(withResize.ops.has("tableResize") && !withResize.ops.has("tableRowsAdd"));
      assert.ok(!without.ops.has("tableResize") && without.ops.has("tableRowsAdd"));
      assert.equal(without.ops.has("delete"), after < before, "rows deleted only when the table shrinks");
      assert.equal(without.table.rows, 1 + after + 3);
    }
  });

  it("asks the host for ExcelApi 1.13 when not told", async () => {
    const asked: string[] = [];
    (globalThis as { Office?: unknown }).Office = {
      context: { requirements: { isSetSupported: (set: string, version: string) => (asked.push(`${set} ${version}`), false) } },
    };
    const excel = new FakeExcel();
    excel.tableResize = false;
    const workbook = new ExcelWorkbook({ run: excel.run });
    const first = await workbook.createTable({ target: { kind: "newSheet", sheetName: "T" }, tableName: "T", columns, expectedRows: 1 });
    await first.append(itemsToRows(companies(1), columns));
    await first.finish();
    const more = await workbook.appendToTable("T", columns);
    await more.append(itemsToRows(companies(2, 10), columns));
    await more.finish();
    assert.deepEqual(asked, ["ExcelApi 1.13"]);
    assert.equal(excel.table("T")!.rows, 4);
  });
});
