// Send to an audience against the real sandbox over HTTP, through the client, in both profiles
// (the production one through the client's production edge, under /gtm/studio): 1,100 leads
// into a new audience while the sandbox answers some requests 503 and the answers of two bulk
// upserts are lost after the sandbox applied them (the connection dropped on the way back); no
// row is created twice, a second send updates, an enrichment job matches the rows, and the
// enriched columns come back beside the rows they belong to.
import { strict as assert } from "node:assert";
import { before, describe, it } from "node:test";
import { createServiceClient, fetchTransport, type ServiceClient, type Transport } from "../../../src/core/api/index.js";
import { productionTransport } from "../../../src/core/api/production/index.js";
import { bringBack, inferMapping, planSend, resultWrites, sendSummary, sendToAudience, type AudienceChoice } from "../../../src/core/audiences/index.js";
import { BrowserWorkbook } from "../../../src/office/browserWorkbook.js";
import { browserAudienceSheet } from "../../../src/office/browserAudienceSheet.js";
import type { CellValue, ColumnSpec } from "../../../src/core/sheet/index.js";
import { clientTimeOn, manualClock, useSandbox } from "../../helpers/sandbox.js";
import { ALL_SCOPES } from "../../vendor/productionProfile.js";

const LEADS = 1100;
const spec = (key: string, header: string, type: ColumnSpec["type"]): ColumnSpec => ({ key, header, type, path: key, byDefault: true });

/** The transport, losing the answers of the bulk upserts numbered in `lose` after the sandbox applied them. */
function lossyTransport(lose: Set<number>): { transport: Transport; upserts: () => number } {
  const inner = fetchTransport();
  let upserts = 0;
  return {
    upserts: () => upserts,
    transport: async (url, init) => {
      const response = await inner(url, init);
      if (url.includes("/rows/actions/bulk/upsert") && lose.has(++upserts)) throw new TypeError("fetch failed: the connection was reset");
      return response;
    },
  };
}

for (const profile of ["default", "production"] as const)
  describe(`send to an audience, against the sandbox (${profile} profile)`, () => {
    const clock = manualClock();
    const sandbox = useSandbox({ clock, jobRowsPerSecond: 5000, profile });
    const lost = new Set([2, 4]);
    const lossy = lossyTransport(lost);
    let client: ServiceClient;
    const ids: number[] = [];
    const workbook = new BrowserWorkbook();
    const sheet = browserAudienceSheet(workbook);

    before(async () => {
      const token = await sandbox.token(profile === "production" ? { scopes: ALL_SCOPES } : {});
      const where =
        profile === "production"
          ? { baseUrl: `${sandbox.url}/gtm`, audiencesBaseUrl: `${sandbox.url}/gtm/studio`, fetch: productionTransport(lossy.transport) }
          : { baseUrl: sandbox.url, fetch: lossy.transport };
      client = createServiceClient({ ...where, getAccessToken: async () => token, rateLimit: { perSecond: 2000 }, ...clientTimeOn(clock) });
      const rows: CellValue[][] = [];
      for await (const page of client.iterateCompanies({}, { pageSize: 100, maxResults: LEADS, sort: "name" })) {
        for (const c of page.items) {
          ids.push(Number(c.id));
          rows.push([String(c.attributes.website ?? ""), String(c.attributes.name ?? ""), `note ${rows.length + 1}`]);
        }
      }
      const writer = await workbook.createTable({
        target: { kind: "newSheet", sheetName: "Leads" },
        tableName: "Leads",
        columns: [spec("website", "Website", "text"), spec("company", "Company", "text"), spec("notes", "Notes", "text")],
        expectedRows: rows.length,
      });
      await writer.append(rows);
      await writer.finish();
      workbook.selectColumn("Leads", 0);
    });

    async function send(choice: AudienceChoice) {
      const read = await sheet.readTable();
      assert.ok(read.ok);
      const mapping = inferMapping(read.table);
      const plan = planSend(read.table, mapping, choice.kind === "existing" ? choice.audienceId : undefined);
      const { target, result, criteriaError } = await sendToAudience(client, choice, mapping, plan, { runKey: `run${Math.random().toString(36).slice(2, 8)}` });
      assert.equal(criteriaError, undefined);
      await sheet.writeColumns(read.table.address, resultWrites(read.table, result));
      return { plan, result, target };
    }

    async function rowCount(audienceId: string): Promise<number> {
      return (await client.getAudienceRows(audienceId, { page: 1, size: 1 })).totalResults;
    }

    it("creates no row twice when answers are lost after the sandbox applied them, or 503s come back", async () => {
      await sandbox.setFaults({ failRate: 0.15, seed: 7 });
      const { plan, result, target } = await send({ kind: "new", name: "Trade show leads" });
      await sandbox.setFaults({ failRate: 0 });
      assert.equal(plan.requests, 3);
      assert.equal(sendSummary(result), "1,100 created, 0 updated.");
      assert.ok(result.lookups >= 2, `looked up ${result.lookups} times`);
      assert.equal(await rowCount(target.audienceId), LEADS);
      const links = workbook.table("Leads")!.rows.map((r) => r[3]);
      assert.equal(new Set(links).size, LEADS);

      // A second send updates the linked rows.
      const second = await send({ kind: "existing", audienceId: target.audienceId });
      assert.equal(second.plan.updates, LEADS);
      assert.equal(sendSummary(second.result), "0 created, 1,100 updated.");
      assert.equal(await rowCount(target.audienceId), LEADS);

      // The enrichment job matches the rows by website and name; the results come back by link.
      const jobId = await client.startAudienceEnrichment(target.audienceId, { scope: "AUDIENCE" });
      assert.ok(jobId);
      for (let i = 0; ; i++) {
        const status = await client.getJob(target.audienceId, jobId);
        if (status.terminal) break;
        assert.ok(i < 500, "the job never ended");
        await clock.advance(100);
      }
      const back = await bringBack(client, sheet, "Leads", target.audienceId);
      assert.equal(back.totalPages, 3);
      assert.equal(back.resumeFrom, undefined);
      const table = workbook.table("Leads")!;
      const nameAt = table.headers.indexOf("Company name");
      assert.ok(nameAt > 4, `brought back: ${back.columns.join(", ")}`);
      table.rows.forEach((row, i) => assert.equal(row[nameAt], row[1], `row ${i + 2}`));
    });
  });
