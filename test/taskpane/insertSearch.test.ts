import { test } from "node:test";
import assert from "node:assert/strict";
import { insertSearch } from "../../src/taskpane/insert/insertSearch.js";
import { BrowserWorkbook } from "../../src/office/browserWorkbook.js";
import { ExcelWorkbook } from "../../src/office/excelWorkbook.js";
import { columnsFor } from "../../src/core/sheet/index.js";
import { FakeExcel } from "../office/excelFake.js";
import type { IteratedPage, IterateOptions } from "../../src/core/api/index.js";
import type { CompanyItem } from "../../src/core/contract/index.js";

// A client whose iterator yields pages of a fixed result set, as the real client's does.
function pagedClient(total: number, reachable = total, failAtPage?: number) {
  const calls: IterateOptions[] = [];
  async function* iterate(_filters: unknown, options: IterateOptions = {}): AsyncGenerator<IteratedPage<CompanyItem>> {
    calls.push(options);
    const size = options.pageSize ?? 100;
    const pagesTotal = Math.max(1, Math.ceil(reachable / size));
    for (let p = 1; p <= pagesTotal; p++) {
      if (options.signal?.aborted) throw Object.assign(new Error("cancelled"), { kind: "cancelled" });
      if (p === failAtPage) throw Object.assign(new Error("x"), { kind: "server", userMessage: "The service had a problem." });
      const start = (p - 1) * size;
      const items = Array.from({ length: Math.min(size, reachable - start) }, (_, i) => ({
        id: String(start + i + 1),
        type: "Company" as const,
        attributes: { name: `Co ${start + i + 1}` },
      }));
      yield { items, pageNumber: p, progress: { pagesFetched: p, pagesTotal, itemsYielded: start + items.length, totalResults: total, reachableResults: reachable } };
    }
  }
  const client = { iterateCompanies: iterate, iterateContacts: iterate as any };
  return { client, calls };
}

const columns = columnsFor("company", ["id", "name"]);
const base = { search: { kind: "company" as const, filters: { state: "Texas" }, sort: "-revenue" }, columns, target: { kind: "newSheet" as const, sheetName: "Companies" }, tableName: "Companies" };

test("inserts every reachable result and says when the total exceeds the service's maximum", async () => {
  const workbook = new BrowserWorkbook();
  const { client, calls } = pagedClient(12_345, 1_000);
  const seen: number[] = [];
  const outcome = await insertSearch({ ...base, client, workbook, onProgress: (p) => seen.push(p.rowsWritten) });
  assert.equal(outcome.status, "complete");
  assert.equal(outcome.rowsWritten, 1000);
  assert.equal(workbook.table(outcome.table!.tableName)!.rows.length, 1000);
  assert.match(outcome.message, /Inserted 1,000 companies/);
  assert.match(outcome.message, /matches 12,345 companies/);
  assert.equal(calls[0]!.sort, "-revenue");
  assert.equal(calls[0]!.pageSize, 100);
  assert.ok(seen.length >= 2);
});

test("cancel halfway: a consistent table of the rows written, and a message that says so", async () => {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook({ run: excel.run, blockRows: 200 });
  const { client } = pagedClient(2_500);
  const controller = new AbortController();
  const outcome = await insertSearch({
    ...base,
    client,
    workbook,
    signal: controller.signal,
    onProgress: (p) => {
      if (p.rowsWritten >= 1000) controller.abort();
    },
  });
  assert.equal(outcome.status, "cancelled");
  assert.equal(outcome.rowsWritten, 1000);
  const values = excel.tableValues(outcome.table!.tableName);
  assert.equal(values.length, 1001);
  assert.equal(values[1000]![0], 1000);
  assert.match(outcome.message, /Stopped\. 1,000 of 2,500 companies were written/);
});

test("a service error midway keeps the rows written and reports the error in the user's words", async () => {
  const workbook = new BrowserWorkbook();
  const { client } = pagedClient(500, 500, 3);
  const outcome = await insertSearch({ ...base, client, workbook });
  assert.equal(outcome.status, "failed");
  assert.equal(outcome.rowsWritten, 200);
  assert.match(outcome.message, /^The service had a problem\. 200 companies were written/);
  assert.equal(workbook.table(outcome.table!.tableName)!.complete, true);
});

test("a declined overwrite writes nothing and says why", async () => {
  const excel = new FakeExcel();
  excel.sheet("Sheet1").cell(1, 0).value = "keep";
  const workbook = new ExcelWorkbook({ run: excel.run });
  const { client } = pagedClient(10);
  const outcome = await insertSearch({ ...base, client, workbook, target: { kind: "selection" }, confirmOverwrite: async () => false });
  assert.equal(outcome.status, "failed");
  assert.equal(outcome.table, undefined);
  assert.match(outcome.message, /not empty/);
  assert.equal(excel.sheet("Sheet1").peek(1, 0)?.value, "keep");
});

test("refresh re-runs into the same table", async () => {
  const workbook = new BrowserWorkbook();
  const first = await insertSearch({ ...base, client: pagedClient(30).client, workbook });
  const again = await insertSearch({ ...base, client: pagedClient(7).client, workbook, refreshTableName: first.table!.tableName });
  assert.equal(again.status, "complete");
  assert.equal(again.table!.tableName, first.table!.tableName);
  assert.equal(workbook.listTables().length, 1);
  assert.equal(workbook.table(first.table!.tableName)!.rows.length, 7);
});
