import { test } from "node:test";
import assert from "node:assert/strict";
import { BrowserWorkbook, memoryStorage } from "../../src/office/browserWorkbook.js";
import { columnLetter } from "../../src/core/sheet/index.js";
import { WorkbookError } from "../../src/office/workbook.js";
import { columnsFor, itemsToRows } from "../../src/core/sheet/index.js";

const columns = columnsFor("company", ["id", "name", "revenue"]);
const items = (n: number, start = 1) =>
  Array.from({ length: n }, (_, i) => ({ id: String(start + i), attributes: { name: i === 0 ? "=1+1" : `Co ${start + i}`, revenue: "10" } }));

test("the browser workbook keeps tables on new sheets, notifies views, exports CSV", async () => {
  const workbook = new BrowserWorkbook();
  let notified = 0;
  const stop = workbook.subscribe(() => notified++);
  const writer = await workbook.createTable({ target: { kind: "newSheet", sheetName: "Companies" }, tableName: "Companies", columns, expectedRows: 3 });
  await writer.append(itemsToRows(items(3), columns));
  const result = await writer.finish();
  stop();
  assert.equal(result.address, "Companies!A1:C4");
  assert.equal(result.rowsWritten, 3);
  assert.ok(notified >= 2);
  const table = workbook.table("Companies")!;
  assert.equal(table.complete, true);
  assert.deepEqual(table.rows[0], [1, "=1+1", 10]);
  const csv = workbook.csv("Companies");
  assert.ok(csv.startsWith("\uFEFFCompany ID,Company name,Revenue ($K)\r\n1,'=1+1,10\r\n"));
});

test("the browser workbook refuses the selection target and refreshes a table in place", async () => {
  const workbook = new BrowserWorkbook();
  await assert.rejects(workbook.createTable({ target: { kind: "selection" }, tableName: "T", columns, expectedRows: 1 }), WorkbookError);
  const w = await workbook.createTable({ target: { kind: "newSheet", sheetName: "S" }, tableName: "T", columns, expectedRows: 2 });
  await w.append(itemsToRows(items(2), columns));
  await w.finish();
  const r = await workbook.refreshTable("T", columns);
  await r.append(itemsToRows(items(1, 9), columns));
  await r.finish();
  assert.equal(workbook.listTables().length, 1);
  assert.equal(workbook.table("T")!.rows.length, 1);
  await assert.rejects(workbook.refreshTable("Nope", columns), (e: unknown) => e instanceof WorkbookError && e.kind === "notFound");
});

test("saved searches persist in the given storage", async () => {
  const storage = memoryStorage();
  const a = new BrowserWorkbook(storage);
  await a.storeSavedSearches([{ id: "1", name: "n", kind: "contact", filters: {}, columns: [], savedAt: "x" }]);
  const b = new BrowserWorkbook(storage);
  assert.equal((await b.loadSavedSearches())[0]!.name, "n");
  storage.setItem("bizdata.savedSearches", "not json");
  assert.deepEqual(await b.loadSavedSearches(), []);
});

test("a damaged saved search is dropped and the others are kept", async () => {
  const storage = memoryStorage();
  const good = { id: "1", name: "Kept", kind: "company", filters: { country: ["DE"] }, columns: ["name"], savedAt: "2026-01-01" };
  const resumable = {
    ...good,
    id: "3",
    name: "Resumable",
    pendingImport: {
      kind: "company",
      tableName: "T",
      columns: ["name"],
      pageSize: 100,
      parts: [{ filters: {}, count: 250 }],
      missing: [{ part: 0, page: 2 }],
      total: 250,
    },
  };
  storage.setItem(
    "bizdata.savedSearches",
    JSON.stringify([
      good,
      { ...good, id: "2", kind: "people" },
      { ...good, id: 4 },
      { ...resumable, id: "5", pendingImport: { ...resumable.pendingImport, missing: "all" } },
      null,
      resumable,
    ]),
  );
  const loaded = await new BrowserWorkbook(storage).loadSavedSearches();
  assert.deepEqual(
    loaded.map((s) => s.name),
    ["Kept", "Resumable"],
  );
  assert.deepEqual(loaded[1]!.pendingImport?.missing, [{ part: 0, page: 2 }]);
});

test("column letters", () => {
  assert.equal(columnLetter(0), "A");
  assert.equal(columnLetter(25), "Z");
  assert.equal(columnLetter(26), "AA");
  assert.equal(columnLetter(701), "ZZ");
});

test("refresh keeps columns added to the right (enrichment), following records by id", async () => {
  const workbook = new BrowserWorkbook();
  const w = await workbook.createTable({ target: { kind: "newSheet", sheetName: "S" }, tableName: "T", columns, expectedRows: 3 });
  await w.append(itemsToRows(items(3), columns));
  await w.finish();
  workbook.setColumns("T", 3, ["Note"], [["one"], ["two"], ["three"]]);
  const r = await workbook.refreshTable("T", columns);
  await r.append(itemsToRows(items(2, 2), columns));
  await r.finish();
  const t = workbook.table("T")!;
  assert.deepEqual(t.headers, ["Company ID", "Company name", "Revenue ($K)", "Note"]);
  assert.deepEqual(
    t.rows.map((row) => [row[0], row[3]]),
    [
      [2, "two"],
      [3, "three"],
    ],
  );
  await assert.rejects(workbook.refreshTable("T", columnsFor("company", ["name"])), (e: unknown) => e instanceof WorkbookError && e.kind === "tableChanged");
});

test("a new table's sheet becomes the active one, as in Excel, also after the user picked another sheet", async () => {
  const workbook = new BrowserWorkbook();
  assert.equal(workbook.activeTable(), undefined);
  const first = await workbook.createTable({ target: { kind: "newSheet", sheetName: "Seeds" }, tableName: "Seeds", columns, expectedRows: 1 });
  await first.finish();
  await (await workbook.createTable({ target: { kind: "newSheet", sheetName: "Other" }, tableName: "Other", columns, expectedRows: 1 })).finish();
  assert.equal(workbook.activeTable()?.name, "Other");
  workbook.activate("Seeds");
  assert.equal(workbook.activeTable()?.name, "Seeds", "the sheet the user picked");
  const lookalikes = await workbook.createTable({ target: { kind: "newSheet", sheetName: "Lookalikes" }, tableName: "Lookalikes", columns, expectedRows: 1 });
  await lookalikes.finish();
  assert.equal(workbook.activeTable()?.name, "Lookalikes", "the inserted table is shown, not the sheet picked before");
});
