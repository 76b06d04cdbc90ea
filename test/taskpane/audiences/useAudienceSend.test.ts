// "Send to an audience" read from the pane's one run hook (driven without a browser by
// test/helpers/hooks.ts), over an in-memory audience service and the browser workbook: the plan,
// the send's phases (the audience made, then rows sent) and its outcome, which stays shown while
// the results are brought back; a send that fails before any row went up leaves no outcome and
// says why.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { CellValue, ColumnSpec } from "../../../src/core/sheet/index.js";
import { browserAudienceSheet } from "../../../src/office/browserAudienceSheet.js";
import { BrowserWorkbook } from "../../../src/office/browserWorkbook.js";
import { useAudienceSend, type AudienceClient, type BackPhase, type SendPhase } from "../../../src/taskpane/audiences/useAudienceSend.js";
import { FakeAudienceService } from "../../core/audiences/fakeService.js";
import { renderHook } from "../../helpers/hooks.js";

const spec = (key: string, header: string, type: ColumnSpec["type"]): ColumnSpec => ({ key, header, type, path: key, byDefault: true });

async function leads(count: number) {
  const workbook = new BrowserWorkbook();
  const writer = await workbook.createTable({
    target: { kind: "newSheet", sheetName: "Leads" },
    tableName: "Leads",
    columns: [spec("website", "Website", "text"), spec("company", "Company", "text")],
    expectedRows: count,
  });
  await writer.append(Array.from({ length: count }, (_, i): CellValue[] => [`lead${i + 1}.com`, `Lead ${i + 1}`]));
  await writer.finish();
  workbook.selectColumn("Leads", 0);
  const service = new FakeAudienceService();
  const client: AudienceClient = Object.assign(service, { listAudiences: async () => [], listFolders: async () => [] });
  return { workbook, service, client, sheet: browserAudienceSheet(workbook) };
}

describe("useAudienceSend", () => {
  it("plans, sends with its phases, and keeps the send's outcome shown while the results come back", async () => {
    const { service, client, sheet } = await leads(3);
    const host = renderHook(() => useAudienceSend({ client, sheet, newRunKey: () => "run1" }));
    // Read through calls: each step's state is read anew (an assertion narrows no later read).
    const phase = (): SendPhase => host.current.phase;
    const back = (): BackPhase => host.current.back;
    await host.current.readTable();
    assert.equal(phase().name, "idle");
    await host.current.plan();
    assert.equal(phase().name, "planned");
    const sending = host.current.send();
    assert.deepEqual(phase(), { name: "busy", what: "Creating the audience..." });
    await sending;
    const sent = phase();
    if (sent.name !== "sent") return assert.fail(`sent, not ${sent.name}`);
    assert.equal(sent.intent, "success", sent.summary);
    assert.equal(host.current.sentTo, "aud-1");
    service.enrich("Industry", "text", () => "Software");
    const bringing = host.current.bringResults();
    assert.equal(back().name, "running");
    assert.equal(phase().name, "sent", "the send's outcome stays while its results come back");
    await bringing;
    const done = back();
    if (done.name !== "done") return assert.fail(`done, not ${done.name}`);
    assert.match(done.text, /^Brought back Industry: 3 cells written/);
    assert.equal(phase().name, "sent");
    await host.current.readTable();
    assert.equal(back().name, "idle", "reading the table again starts over");
    assert.equal(phase().name, "idle");
  });

  it("a send that fails before any row went up leaves no outcome, and says why", async () => {
    const { client, sheet } = await leads(2);
    const locked = { ...sheet, writeColumns: async () => Promise.reject(new Error("The sheet is protected.")) };
    const host = renderHook(() => useAudienceSend({ client, sheet: locked, newRunKey: () => "run1" }));
    await host.current.readTable();
    await host.current.plan();
    await host.current.send();
    assert.equal(host.current.phase.name, "idle");
    assert.match(host.current.problem ?? "", /^Nothing was sent: /);
  });
});
