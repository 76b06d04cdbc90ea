import { test } from "node:test";
import assert from "node:assert/strict";
import { insertSearch, resumeInsert } from "../../src/taskpane/insert/insertSearch.js";
import { BrowserWorkbook } from "../../src/office/browserWorkbook.js";
import { ExcelWorkbook } from "../../src/office/excelWorkbook.js";
import { columnsFor } from "../../src/core/sheet/index.js";
import { FakeExcel } from "../office/excelFake.js";
import type { SearchOptions, SearchPage } from "../../src/core/api/index.js";
import type { CompanyItem } from "../../src/core/contract/index.js";

interface Rec {
  id: number;
  employees: number;
  revenue: number;
}

// A client over a fixed record set with the service's semantics: inclusive range filters, at
// most 100 pages, ids in order. `failing` pages (by "employeeMin:page") answer 503 every time.
function fakeClient(records: Rec[], failing = new Set<string>()) {
  const calls: { filters: Record<string, unknown>; options: SearchOptions }[] = [];
  const within = (v: number, min: unknown, max: unknown) => (min === undefined || v >= Number(min)) && (max === undefined || v <= Number(max));
  const searchCompanies = async (filters: Record<string, unknown>, options: SearchOptions = {}): Promise<SearchPage<CompanyItem>> => {
    calls.push({ filters, options });
    if (options.signal?.aborted) throw Object.assign(new Error("cancelled"), { kind: "cancelled" });
    const page = options.page ?? 1;
    const size = options.size ?? 25;
    if (page > 100) throw Object.assign(new Error("page"), { kind: "validation", userMessage: "page[number] above 100" });
    if (failing.has(`${filters.employeeRangeMin ?? ""}:${page}`))
      throw Object.assign(new Error("503"), { kind: "server", userMessage: "The service had a problem." });
    const hits = records.filter(
      (r) => within(r.employees, filters.employeeRangeMin, filters.employeeRangeMax) && within(r.revenue, filters.revenueMin, filters.revenueMax),
    );
    const items = hits.slice((page - 1) * size, page * size).map((r) => ({ id: String(r.id), type: "Company" as const, attributes: { name: `Co ${r.id}` } }));
    return { items, totalResults: hits.length, pageNumber: page, totalPages: Math.ceil(hits.length / size), links: {} };
  };
  return { client: { searchCompanies, searchContacts: searchCompanies as never }, calls };
}

const records = (n: number, same = false): Rec[] =>
  Array.from({ length: n }, (_, i) => ({ id: i + 1, employees: same ? 10 : 1 + ((i * 37) % 997), revenue: same ? 5 : 100 + ((i * 53) % 9001) }));

const columns = columnsFor("company", ["id", "name"]);
const base = {
  search: { kind: "company" as const, filters: { state: "Texas" }, sort: "name" },
  columns,
  target: { kind: "newSheet" as const, sheetName: "Companies" },
  tableName: "Companies",
};

test("a search beyond one search's reach is imported whole, in parts, each record once", async () => {
  const workbook = new BrowserWorkbook();
  const { client, calls } = fakeClient(records(1234));
  const plans: string[] = [];
  const outcome = await insertSearch({ ...base, client, workbook, reach: 300, onProgress: (p) => p.plan && plans.push(p.plan) });
  assert.equal(outcome.status, "complete");
  assert.equal(outcome.rowsWritten, 1234);
  assert.ok(outcome.parts >= 5);
  const ids = workbook.table(outcome.table!.tableName)!.rows.map((r) => r[0]);
  assert.equal(new Set(ids).size, 1234);
  assert.match(outcome.message, new RegExp(`Inserted 1,234 companies .* in ${outcome.parts} parts\\. Every result of the search is there, each once\\.`));
  assert.match(plans[0]!, new RegExp(`^1,234 companies — imported in ${outcome.parts} parts, about \\d+ requests, about \\d+ s at your rate limit$`));
  assert.ok(calls.every((c) => c.options.sort === "name" && c.filters.state === "Texas"));
  assert.ok(
    calls.some((c) => c.options.size === 1),
    "counts are probed with page size 1",
  );
});

test("a search within reach asks each page once: the first page, fetched to learn the total, is written, not asked again", async () => {
  const workbook = new BrowserWorkbook();
  const { client, calls } = fakeClient(records(250));
  const outcome = await insertSearch({ ...base, client, workbook, pageSize: 100 });
  assert.equal(outcome.status, "complete");
  assert.equal(outcome.rowsWritten, 250);
  assert.deepEqual(
    calls.map((c) => c.options.page),
    [1, 2, 3],
  );
  assert.deepEqual(
    workbook
      .table(outcome.table!.tableName)!
      .rows.map((r) => r[0])
      .slice(0, 2),
    [1, 2],
  );
});

test("results that shift between pages with the same total (one repeated, one lost) are not called complete", async () => {
  const workbook = new BrowserWorkbook();
  const original = records(250);
  const { client: before } = fakeClient(original);
  // After the first page a record appears at the front and the last one goes: the total stays 250,
  // page 2 starts with the last record of page 1 again, and record 250 is never seen.
  const { client: after } = fakeClient([{ id: 9999, employees: 1, revenue: 100 }, ...original.slice(0, -1)]);
  let pages = 0;
  const shifting = {
    searchCompanies: (filters: Record<string, unknown>, options?: SearchOptions) => (pages++ === 0 ? before : after).searchCompanies(filters, options),
    searchContacts: before.searchContacts,
  };
  const outcome = await insertSearch({ ...base, client: shifting, workbook, pageSize: 100 });
  const ids = workbook.table(outcome.table!.tableName)!.rows.map((r) => r[0]);
  assert.equal(ids.length, 249, "the repeated record is written once");
  assert.ok(!ids.includes(250), "record 250 was lost between pages");
  assert.equal(outcome.status, "incomplete");
  assert.equal(outcome.rowsWritten, 249);
  assert.match(outcome.message, /The search matches 250 companies; the table is not complete\./);
});

test("cancel halfway: a consistent table of the rows written, and a message that says so", async () => {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook({ run: excel.run, blockRows: 200 });
  const { client } = fakeClient(records(2500));
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

test("a cancelled import can be continued: Continue fetches the rest into the same table, each record once", async () => {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook({ run: excel.run, blockRows: 200 });
  const { client } = fakeClient(records(2500));
  const controller = new AbortController();
  const outcome = await insertSearch({ ...base, client, workbook, signal: controller.signal, onProgress: (p) => p.rowsWritten >= 1000 && controller.abort() });
  assert.equal(outcome.status, "cancelled");
  assert.ok(outcome.resume, "a cancelled import keeps what Continue needs");
  assert.match(outcome.message, /Continue fetches the rest into the same table\.$/);
  const continued = await resumeInsert({ client, workbook, columns, resume: JSON.parse(JSON.stringify(outcome.resume)) });
  assert.equal(continued.status, "complete", continued.message);
  const ids = excel
    .tableValues(outcome.table!.tableName)
    .slice(1)
    .map((r) => r[0]);
  assert.equal(ids.length, 2500);
  assert.equal(new Set(ids).size, 2500);
});

test("above one search's reach, Insert says the plan and writes nothing unless the user agrees", async () => {
  const asked: string[] = [];
  const declinedBook = new BrowserWorkbook();
  const { client, calls } = fakeClient(records(1234));
  const declined = await insertSearch({ ...base, client, workbook: declinedBook, reach: 300, confirmPlan: async (_plan, text) => (asked.push(text), false) });
  assert.equal(asked.length, 1);
  assert.match(asked[0]!, /^1,234 companies — imported in \d+ parts, about \d+ requests, about \d+ s at your rate limit$/);
  assert.equal(declined.status, "cancelled");
  assert.equal(declined.table, undefined);
  assert.equal(declinedBook.listTables().length, 0, "no table when the user says no");
  assert.ok(
    calls.every((c) => c.options.size === 1 || c.options.page === 1),
    "only the plan's probes and first page were asked",
  );
  assert.match(declined.message, /^Not inserted: nothing was written\./);

  const agreed = await insertSearch({ ...base, client, workbook: new BrowserWorkbook(), reach: 300, confirmPlan: async () => true });
  assert.equal(agreed.status, "complete");
  assert.equal(agreed.rowsWritten, 1234);
  // Within reach, nothing is asked.
  let within = 0;
  await insertSearch({
    ...base,
    client: fakeClient(records(250)).client,
    workbook: new BrowserWorkbook(),
    reach: 300,
    confirmPlan: async () => (within++, true),
  });
  assert.equal(within, 0);
});

test("a page that keeps failing does not stop the import; Resume adds just its rows to the same table", async () => {
  const workbook = new BrowserWorkbook();
  const failing = new Set([":3"]);
  const { client } = fakeClient(records(500), failing);
  const outcome = await insertSearch({ ...base, client, workbook });
  assert.equal(outcome.status, "incomplete");
  assert.equal(outcome.rowsWritten, 400);
  assert.match(
    outcome.message,
    /1 page of about 100 companies could not be fetched \(the service kept failing: The service had a problem\.\)\. Resume fetches only those/,
  );
  assert.deepEqual(outcome.resume?.missing, [{ part: 0, page: 3 }]);
  assert.equal(workbook.table(outcome.table!.tableName)!.complete, true);

  failing.clear();
  const resumed = await resumeInsert({ client, workbook, columns, resume: JSON.parse(JSON.stringify(outcome.resume)) });
  assert.equal(resumed.status, "complete", resumed.message);
  assert.equal(resumed.rowsWritten, 100);
  const ids = workbook.table(outcome.table!.tableName)!.rows.map((r) => r[0]);
  assert.equal(ids.length, 500);
  assert.equal(new Set(ids).size, 500);
  assert.match(resumed.message, /Resumed: the 100 missing companies were added/);
});

test("more identical records than one search reaches: what is reachable is imported, and the rest is named", async () => {
  const workbook = new BrowserWorkbook();
  const { client } = fakeClient([...records(200), ...records(450, true).map((r) => ({ ...r, id: r.id + 1000 }))]);
  const outcome = await insertSearch({ ...base, client, workbook, reach: 300 });
  assert.equal(outcome.status, "incomplete");
  assert.equal(outcome.rowsWritten, 650 - 150);
  assert.match(outcome.message, /450 companies are identical on every filter that can split a search \(employees 10, revenue \(\$K\) 5\); one search reaches/);
  assert.doesNotMatch(outcome.message, /Every result/);
});

test("a declined overwrite writes nothing and says why", async () => {
  const excel = new FakeExcel();
  excel.sheet("Sheet1").cell(1, 0).value = "keep";
  const workbook = new ExcelWorkbook({ run: excel.run });
  const { client } = fakeClient(records(10));
  const outcome = await insertSearch({ ...base, client, workbook, target: { kind: "selection" }, confirmOverwrite: async () => false });
  assert.equal(outcome.status, "failed");
  assert.equal(outcome.table, undefined);
  assert.match(outcome.message, /not empty/);
  assert.equal(excel.sheet("Sheet1").peek(1, 0)?.value, "keep");
});

test("refresh of a partitioned search replaces the table's rows", async () => {
  const workbook = new BrowserWorkbook();
  const first = await insertSearch({ ...base, client: fakeClient(records(900)).client, workbook, reach: 300 });
  assert.equal(first.status, "complete");
  const again = await insertSearch({ ...base, client: fakeClient(records(700)).client, workbook, reach: 300, refreshTableName: first.table!.tableName });
  assert.equal(again.status, "complete");
  assert.equal(again.table!.tableName, first.table!.tableName);
  assert.equal(workbook.listTables().length, 1);
  assert.equal(workbook.table(first.table!.tableName)!.rows.length, 700);
  // Refresh ends with a refresh message, not "Inserted".
  assert.match(
    again.message,
    new RegExp(`^Refreshed table ${first.table!.tableName} on sheet .*: 700 companies, in \\d+ parts, every result of the search, each once\\.`),
  );
  assert.doesNotMatch(again.message, /Inserted/);
});

test("Resume into the Excel table appends below the rows already there", async () => {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook({ run: excel.run, blockRows: 150 });
  const failing = new Set([":2"]);
  const { client } = fakeClient(records(350), failing);
  const outcome = await insertSearch({ ...base, client, workbook });
  assert.equal(outcome.rowsWritten, 250);
  failing.clear();
  const resumed = await resumeInsert({ client, workbook, columns, resume: outcome.resume! });
  assert.equal(resumed.status, "complete");
  const values = excel.tableValues(outcome.table!.tableName);
  assert.equal(values.length, 351);
  assert.equal(new Set(values.slice(1).map((r) => r[0])).size, 350);
});

test("a search that cannot fit below the selection says so before writing, and inserts what fits when asked", async () => {
  const excel = new FakeExcel();
  // The header on row 1,048,476: 100 rows fit below it.
  excel.selection = { sheet: "Sheet1", row: 1_048_475, col: 0 };
  const { client } = fakeClient(records(250));
  const asked: string[] = [];
  const target = { kind: "selection" as const };
  const declined = await insertSearch({
    ...base,
    target,
    client,
    workbook: new ExcelWorkbook({ run: excel.run }),
    confirmFit: async (text) => (asked.push(text), false),
  });
  assert.deepEqual(asked, ["A worksheet holds at most 1,048,576 rows, so 100 of the 250 reachable companies fit from row 1,048,476."]);
  assert.equal(declined.status, "cancelled");
  assert.match(declined.message, /^Not inserted: nothing was written\. Narrow the filters, or insert into a new sheet/);
  assert.equal(excel.tables.length, 0);

  const fitted = await insertSearch({
    ...base,
    target,
    client,
    workbook: new ExcelWorkbook({ run: excel.run }),
    confirmFit: async (_text, rows) => rows === 100,
  });
  assert.equal(fitted.rowsWritten, 100);
  assert.equal(fitted.table?.address, "Sheet1!A1048476:B1048576");
  assert.match(fitted.message, /A worksheet holds at most 1,048,576 rows, so 100 of the 250 reachable companies were written from row 1,048,476\./);
});
