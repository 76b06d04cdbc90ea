// The Research sections' state without a browser (test/helpers/hooks.ts runs the hooks): Cancel
// of "Briefings for the selection" stops the list (nothing more fetched or paid), and lookalikes
// leave out the companies already in every table of the sheet, not only the seeds.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { createEnrichmentEngine } from "../../src/core/enrich/index.js";
import { createResearch } from "../../src/core/research/index.js";
import { COMPANY_SEARCH_COLUMNS } from "../../src/core/sheet/index.js";
import { memoryKeyValueStorage } from "../../src/core/storage/keyValue.js";
import { browserSelectionSource } from "../../src/office/browserSelection.js";
import { BrowserWorkbook } from "../../src/office/browserWorkbook.js";
import { browserCompanyIdsInTables } from "../../src/office/companyIdsInTables.js";
import { useBriefings } from "../../src/taskpane/research/useBriefings.js";
import { useLookalikes } from "../../src/taskpane/research/useLookalikes.js";
import { FakeEnrichClient } from "../core/enrich/fakeClient.js";
import { FakeResearchClient } from "../core/research/fakeResearchClient.js";
import { renderHook } from "../helpers/hooks.js";

function setup() {
  const client = new FakeResearchClient();
  const research = createResearch({ client, storage: memoryKeyValueStorage(), scope: () => "sandbox|user-a", clock: { now: () => 0 } });
  const engine = createEnrichmentEngine({ client: new FakeEnrichClient(), windowMs: 2 });
  return { client, research, engine };
}

async function table(workbook: BrowserWorkbook, name: string, ids: number[]) {
  const columns = COMPANY_SEARCH_COLUMNS.filter((c) => ["id", "name"].includes(c.key));
  const writer = await workbook.createTable({ target: { kind: "newSheet", sheetName: name }, tableName: name, columns, expectedRows: ids.length });
  await writer.append(ids.map((id) => [id, `Company ${id}`]));
  await writer.finish();
}

describe("Research sections", () => {
  it("Cancel of briefings for the selection stops the list: what is not fetched yet is neither sent nor paid", async () => {
    const { client, research, engine } = setup();
    const section = renderHook(() => useBriefings(research, engine));
    await section.current.estimate({ ids: ["1", "2", "3", "4", "5", "6"], toMatch: [], invalid: [] });
    assert.equal(section.current.step.kind, "estimate");
    let release: () => void = () => undefined;
    client.gate = new Promise<void>((resolve) => (release = resolve));
    const running = section.current.confirm();
    // The first briefings are on their way (held by the service) when the user presses Cancel.
    for (let turn = 0; turn < 100 && client.calls.accountBriefing === 0; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    assert.ok(client.calls.accountBriefing > 0, "the first briefings were asked after Confirm");
    assert.equal(section.current.step.kind, "running");
    section.current.cancel();
    release();
    await running;
    assert.match(section.current.message?.text ?? "", /^Cancelled: 0 briefings\./);
    assert.ok(client.calls.accountBriefing < 6, `${client.calls.accountBriefing} briefings were asked after Cancel`);
    assert.equal(client.aiActions.used, 10, "nothing was paid");
  });

  it("lookalikes leave out the companies of every table in the sheet, not only the seeds", async () => {
    const { research, engine } = setup();
    const workbook = new BrowserWorkbook();
    await table(workbook, "Earlier", [101, 103]);
    await table(workbook, "Seeds", [100, 104]);
    workbook.selectColumn("Seeds", 0);
    const section = renderHook(() => useLookalikes(research, engine));
    await section.current.start(browserSelectionSource(workbook), async () => browserCompanyIdsInTables(workbook), 10, {});
    const ids = (section.current.found ?? []).map((c) => c.companyId);
    assert.equal(ids.length, 10, section.current.message?.text);
    for (const id of ["100", "104"]) assert.ok(!ids.includes(id), `the seed ${id} is left out`);
    for (const id of ["101", "103"]) assert.ok(!ids.includes(id), `${id}, in the other table, is left out`);
    assert.match(section.current.message?.text ?? "", /from 2 seed companies, the seeds and 4 companies already in the sheet left out\./);
  });
});
