// Sending a table to an audience and bringing the enrichment back, through the audience
// operations' public interface (an in-memory service with injected faults) and the browser
// workbook's sheet adapter: links make a second send update, a request whose answer was lost
// never creates rows twice, refused cells are reported on their rows, and results come back
// beside the right rows (by link, not position) without touching typed cells.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import {
  bringBack,
  inferMapping,
  LINK_HEADER,
  parseLink,
  planSend,
  resultWrites,
  SEND_STATUS_HEADER,
  sendSummary,
  sendToAudience,
  type AudienceChoice,
  type AudienceMapping,
  type SendResult,
  type SheetTable,
} from "../../../src/core/audiences/index.js";
import { BrowserWorkbook } from "../../../src/office/browserWorkbook.js";
import { browserAudienceSheet } from "../../../src/office/browserAudienceSheet.js";
import type { CellValue, ColumnSpec } from "../../../src/core/sheet/index.js";
import { FakeAudienceService } from "./fakeService.js";

const spec = (key: string, header: string, type: ColumnSpec["type"]): ColumnSpec => ({ key, header, type, path: key, byDefault: true });

async function leadsWorkbook(count: number) {
  const workbook = new BrowserWorkbook();
  const writer = await workbook.createTable({
    target: { kind: "newSheet", sheetName: "Leads" },
    tableName: "Leads",
    columns: [spec("website", "Website", "text"), spec("company", "Company", "text"), spec("employees", "Employees", "integer")],
    expectedRows: count,
  });
  await writer.append(Array.from({ length: count }, (_, i): CellValue[] => [`lead${i + 1}.com`, `Lead ${i + 1}`, 10 + i]));
  await writer.finish();
  workbook.selectColumn("Leads", 0);
  return { workbook, sheet: browserAudienceSheet(workbook) };
}

/** Sends the table; one request at a time unless told (so the calls' order is the test's to check). */
async function send(
  service: FakeAudienceService,
  sheet: ReturnType<typeof browserAudienceSheet>,
  runKey: string,
  options: { signal?: AbortSignal; concurrency?: number } = {},
) {
  const read = await sheet.readTable();
  assert.ok(read.ok);
  const table: SheetTable = read.table;
  const existing = service.audienceId || undefined;
  const mapping: AudienceMapping = inferMapping(table, { kind: "COMPANY" });
  const plan = planSend(table, mapping, existing);
  const choice: AudienceChoice = existing ? { kind: "existing", audienceId: existing } : { kind: "new", name: "Leads" };
  const { result }: { result: SendResult } = await sendToAudience(service, choice, mapping, plan, { runKey, concurrency: 1, ...options });
  await sheet.writeColumns(table.address, resultWrites(table, result));
  return { plan, result };
}

const column = (workbook: BrowserWorkbook, header: string) => {
  const table = workbook.table("Leads")!;
  const at = table.headers.indexOf(header);
  assert.ok(at >= 0, `no column ${header} in ${table.headers.join(", ")}`);
  return table.rows.map((r) => r[at]);
};

function assertNoDuplicates(service: FakeAudienceService, expected: number) {
  assert.equal(service.rows.length, expected, "audience rows");
  for (const [website, n] of service.countsBy("Website")) assert.equal(n, 1, `${String(website)} is in the audience ${n} times`);
}

describe("sending a table to an audience", () => {
  it("creates an audience with its columns and criteria, sends 500 rows a request, and links every row", async () => {
    const { workbook, sheet } = await leadsWorkbook(1200);
    const service = new FakeAudienceService();
    const { plan, result } = await send(service, sheet, "run1");
    assert.equal(plan.requests, 3);
    assert.deepEqual(
      service.calls.filter((c) => c.startsWith("upsert")),
      ["upsert:500", "upsert:500", "upsert:200"],
    );
    assert.deepEqual(
      service.columns.map((c) => `${c.name}:${c.dataType}`),
      ["Website:URL", "Company:TEXT", "Employees:INTEGER", "Sheet row key:TEXT"],
    );
    assert.deepEqual(service.criteria, [
      { columnId: "col-1", criterion: "COMPANY_WEBSITE" },
      { columnId: "col-2", criterion: "COMPANY_NAME" },
    ]);
    assert.equal(sendSummary(result), "1,200 created, 0 updated.");
    assertNoDuplicates(service, 1200);
    const links = column(workbook, LINK_HEADER).map((l) => parseLink(l));
    assert.deepEqual(links[0], { audienceId: "aud-1", rowId: "row-1" });
    assert.deepEqual(links[1199], { audienceId: "aud-1", rowId: "row-1200" });
    assert.equal(column(workbook, SEND_STATUS_HEADER)[5], "Created");
  });

  it("updates the linked rows on a second send instead of adding them again", async () => {
    const { workbook, sheet } = await leadsWorkbook(600);
    const service = new FakeAudienceService();
    await send(service, sheet, "run1");
    const table = workbook.table("Leads")!;
    table.rows[3]![2] = 999;
    const { plan, result } = await send(service, sheet, "run2");
    assert.equal(plan.updates, 600);
    assert.equal(sendSummary(result), "0 created, 600 updated.");
    assertNoDuplicates(service, 600);
    assert.equal(service.rows[3]!.cells.get("col-3"), 999);
    assert.equal(column(workbook, SEND_STATUS_HEADER)[3], "Updated");
  });

  it("links every row beside itself when an empty row sits between rows, so the next send updates the right audience rows", async () => {
    const { workbook, sheet } = await leadsWorkbook(5);
    const rows = workbook.table("Leads")!.rows;
    rows[2] = rows[2]!.map(() => "");
    const service = new FakeAudienceService();
    const first = await send(service, sheet, "run1");
    assert.deepEqual(first.plan.emptyRows, [2]);
    const websiteOf = (value: unknown) => {
      const link = parseLink(value);
      return link && "rowId" in link ? service.rows.find((r) => r.id === link.rowId)?.cells.get("col-1") : undefined;
    };
    const links = column(workbook, LINK_HEADER);
    assert.deepEqual(
      [0, 1, 3, 4].map((i) => websiteOf(links[i])),
      ["lead1.com", "lead2.com", "lead4.com", "lead5.com"],
      "each row's link names the audience row of its own website",
    );
    assert.equal(parseLink(links[2]), undefined, "the empty row has no link");
    rows[3]![2] = 999;
    const { result } = await send(service, sheet, "run2");
    assert.equal(sendSummary(result), "0 created, 4 updated.");
    assertNoDuplicates(service, 4);
    assert.equal(service.rows.find((r) => r.cells.get("col-1") === "lead4.com")!.cells.get("col-3"), 999, "the change went to its own row");
  });

  for (const fault of ["appliedThen5xx", "timeoutAfterApply"] as const) {
    it(`never duplicates rows when a batch was applied and its answer lost (${fault})`, async () => {
      const { workbook, sheet } = await leadsWorkbook(1200);
      const service = new FakeAudienceService();
      service.upsertFaults.set(2, fault);
      service.upsertFaults.set(4, "5xxBefore");
      const { result } = await send(service, sheet, "run1");
      assertNoDuplicates(service, 1200);
      // The second batch's rows were found by their keys and resent as updates: reported as created.
      assert.equal(sendSummary(result), "1,200 created, 0 updated.");
      assert.equal(result.lookups, 2);
      assert.deepEqual(
        service.calls.filter((c) => c.startsWith("upsert") || c.startsWith("find")),
        ["upsert:500", "upsert:500", "find:500", "upsert:500", "upsert:200", "find:200", "upsert:200"],
      );
      assert.equal(new Set(column(workbook, LINK_HEADER)).size, 1200);
    });
  }

  it("sends three requests at a time and still creates no row twice when answers are lost", async () => {
    const { workbook, sheet } = await leadsWorkbook(5000);
    const service = new FakeAudienceService();
    for (const call of [2, 3, 7]) service.upsertFaults.set(call, "appliedThen5xx");
    service.upsertFaults.set(5, "5xxBefore");
    const { result } = await send(service, sheet, "run1", { concurrency: 3 });
    assertNoDuplicates(service, 5000);
    assert.equal(sendSummary(result), "5,000 created, 0 updated.");
    assert.equal(result.requests, 14);
    const websites = workbook.table("Leads")!.rows.map((r) => r[0]);
    // Each row's link names the audience row holding its own website.
    column(workbook, LINK_HEADER).forEach((link, i) => {
      const rowId = (parseLink(link) as { rowId: string }).rowId;
      assert.equal(service.rows.find((r) => r.id === rowId)?.cells.get("col-1"), websites[i]);
    });
  });

  it("keeps the key of rows whose fate is unknown after a cancel, and the next send finds them instead of adding them", async () => {
    const { workbook, sheet } = await leadsWorkbook(1000);
    const service = new FakeAudienceService();
    const controller = new AbortController();
    // The second batch reaches the service, then the user cancels before its answer.
    service.onUpsert = (call) => {
      if (call === 2) controller.abort();
    };
    const first = await send(service, sheet, "run1", { signal: controller.signal });
    assert.equal(first.result.cancelled, true);
    assert.match(sendSummary(first.result), /^Cancelled: 500 created, 0 updated, 500 not confirmed\./);
    assert.deepEqual(parseLink(column(workbook, LINK_HEADER)[700]), { audienceId: "aud-1", key: "run1-701" });
    service.onUpsert = undefined;
    const second = await send(service, sheet, "run2");
    assert.equal(second.plan.unconfirmed, 500);
    assertNoDuplicates(service, 1000);
    assert.equal(sendSummary(second.result), "500 created, 500 updated.");
  });

  it("reports a value the column refuses on its row, with the service's reason, and writes the rest", async () => {
    // Nine cells in ten are whole numbers: the column is a number column, and the stray text is that cell's problem.
    const { workbook, sheet } = await leadsWorkbook(10);
    workbook.table("Leads")!.rows[2]![2] = "about fifty";
    const service = new FakeAudienceService();
    const { result } = await send(service, sheet, "run1");
    assert.equal(sendSummary(result), "10 created, 0 updated. 1 row has a cell the service refused; its status says which and why.");
    assert.equal(column(workbook, SEND_STATUS_HEADER)[2], 'Created; Employees refused: This column (INTEGER) takes a whole number; "about fifty" is not one.');
    assert.equal(column(workbook, SEND_STATUS_HEADER)[1], "Created");
  });

  it("refuses, before writing, to send a column into one the service fills in an existing audience", async () => {
    const { sheet } = await leadsWorkbook(3);
    const service = new FakeAudienceService();
    service.audienceId = "aud-1";
    service.enrich("Company", "TEXT", () => "");
    await assert.rejects(send(service, sheet, "run1"), {
      message: "The audience's Company column is filled by the service: rename that column in the sheet, or leave it out.",
    });
    assert.equal(service.rows.length, 0);
  });

  it("stops at a 403: the rows from there are not sent and get no link, and the reason keeps its reference", async () => {
    const { workbook, sheet } = await leadsWorkbook(1200);
    const service = new FakeAudienceService();
    service.upsertFaults.set(2, "forbidden");
    const { result } = await send(service, sheet, "run1");
    assert.equal(sendSummary(result), "500 created, 0 updated, 700 not sent. Send again to finish: rows already sent are updated, never added twice.");
    assert.equal(column(workbook, SEND_STATUS_HEADER)[600], "Not sent: Access denied: You cannot write audiences. (Reference: req-403)");
    assert.equal(column(workbook, SEND_STATUS_HEADER)[1100], "Not sent");
    assert.equal(column(workbook, LINK_HEADER)[600], "");
    assert.deepEqual(
      service.calls.filter((c) => c.startsWith("upsert")),
      ["upsert:500", "upsert:500"],
    );
    assertNoDuplicates(service, 500);
  });

  it("reports a refused request on its rows and goes on with the next batch", async () => {
    const { workbook, sheet } = await leadsWorkbook(700);
    const service = new FakeAudienceService();
    service.upsertFaults.set(1, "validation");
    const { result } = await send(service, sheet, "run1");
    assert.equal(sendSummary(result), "200 created, 0 updated, 500 refused.");
    assert.equal(column(workbook, SEND_STATUS_HEADER)[0], "Refused: The service refused the request: The request was refused. (Reference: req-400)");
    assert.equal(column(workbook, LINK_HEADER)[0], "");
    assertNoDuplicates(service, 200);
  });
});

describe("bringing the results back", () => {
  it("takes a sheet of 10,000 rows up in 20 requests of 500 and back in 20 pages of 500, each value on its own row", async () => {
    const { workbook, sheet } = await leadsWorkbook(10_000);
    const service = new FakeAudienceService();
    const { plan, result } = await send(service, sheet, "run1", { concurrency: 6 });
    assert.equal(plan.requests, 20);
    assert.deepEqual(
      service.calls.filter((c) => c.startsWith("upsert")),
      Array(20).fill("upsert:500"),
    );
    assert.equal(sendSummary(result), "10,000 created, 0 updated.");
    service.enrich("Revenue ($K)", "DECIMAL", (cells) => 1000 + Number(String(cells.get("col-1")).replace(/\D/g, "")));
    const back = await bringBack(service, sheet, "Leads", "aud-1");
    assert.equal(back.totalPages, 20);
    assert.deepEqual(
      service.calls.filter((c) => c.startsWith("rows")).sort((a, b) => Number(a.slice(5)) - Number(b.slice(5))),
      Array.from({ length: 20 }, (_, i) => `rows:${i + 1}`),
    );
    const revenue = column(workbook, "Revenue ($K)");
    revenue.forEach((v, i) => assert.equal(v, 1001 + i, `row ${i + 2}`));
  });

  it("writes enriched columns beside the rows they belong to, keeps typed cells, and resumes after a failed page", async () => {
    const { workbook, sheet } = await leadsWorkbook(1200);
    const service = new FakeAudienceService();
    await send(service, sheet, "run1");
    service.enrich("Revenue ($K)", "DECIMAL", (cells) => 1000 + Number(String(cells.get("col-1")).replace(/\D/g, "")));
    service.enrich("Website", "URL", (cells) => `https://www.${String(cells.get("col-1"))}`);
    const table = workbook.table("Leads")!;
    // The user typed a revenue on row 5 after the send: it stays.
    table.headers.push("Revenue ($K)");
    table.columns.push(spec("rev", "Revenue ($K)", "number"));
    table.rows.forEach((r, i) => r.push(i === 4 ? "ask Bob" : ""));
    service.failingPages.add(2);
    const first = await bringBack(service, sheet, "Leads", "aud-1", { concurrency: 1 });
    assert.equal(first.resumeFrom, 2);
    assert.equal(first.pagesDone, 1);
    assert.ok(first.error);
    const resumed = await bringBack(service, sheet, "Leads", "aud-1", { fromPage: first.resumeFrom!, concurrency: 1 });
    assert.equal(resumed.resumeFrom, undefined);
    assert.equal(resumed.totalPages, 3);
    assert.deepEqual(resumed.columns, ["Revenue ($K)", "Website (audience)"]);
    const revenue = column(workbook, "Revenue ($K)");
    // Rows come back newest first; each value lands on its own row.
    assert.equal(revenue[0], 1001);
    assert.equal(revenue[1199], 2200);
    assert.equal(revenue[4], "ask Bob");
    assert.equal(column(workbook, "Website (audience)")[9], "https://www.lead10.com");
    assert.equal(first.cellsWritten + resumed.cellsWritten, 2399);
    assert.equal(first.cellsKept + resumed.cellsKept, 1);
    assert.deepEqual(
      service.calls.filter((c) => c.startsWith("rows")),
      ["rows:1", "rows:2", "rows:2", "rows:3"],
    );
    // Bringing back again writes nothing over what is there.
    const again = await bringBack(service, sheet, "Leads", "aud-1");
    assert.equal(again.cellsWritten, 0);
    assert.equal(again.cellsKept, 1);
    assert.equal(column(workbook, "Revenue ($K)")[4], "ask Bob");
  });
});
