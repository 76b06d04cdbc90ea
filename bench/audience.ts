// `npm run bench -- audience`: a sheet of 10,000 rows up into a new audience (bulk upserts of
// 500) and, after an enrichment job, the enriched columns back (pages of 500), against the
// sandbox at the benches' pace (25 requests a second, 40 ms an answer), run in a process of its
// own as the service is remote (its work does not share the add-in's thread). Printed beside the floor:
// 20 upserts and 20 pages, and the wall time the rate limit allows for the requests made. Then
// the same send under faults: the sandbox answers 10% of requests 503 and the answers of one
// upsert in five are lost after the sandbox applied it; the audience must hold each row once.
// Then the sheet side at 100,000 rows in the fake Excel that refuses what Excel on the web
// refuses: the table read, each row's link and status written, the enriched columns brought
// back and the table read again, each step's Excel calls and bytes beside the 5 MB floor.
import { createServiceClient, fetchTransport, type ServiceClient, type Transport } from "../src/core/api/index.js";
import { bringBack, inferMapping, planSend, resultWrites, sendToAudience, type SendResult } from "../src/core/audiences/index.js";
import { BrowserWorkbook } from "../src/office/browserWorkbook.js";
import { browserAudienceSheet } from "../src/office/browserAudienceSheet.js";
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import type { CellValue, ColumnSpec } from "../src/core/sheet/index.js";
import { LATENCY_MS, RATE } from "./lib/sandbox.js";
import { printTable } from "./lib/table.js";
import { createExcelAudienceSheet } from "../src/office/audienceSheet.js";
import { FakeExcel } from "../test/office/excelFake.js";
import { CALL_HEADER, callRows, measured } from "./lib/excelCalls.js";

const ROWS = 10_000;
const ACCOUNT = "bench-audience";
const UPSERTS = /bulk\/upsert$/;
const PAGES = /rows\/actions\/search$/;

interface Sandbox {
  url: string;
  child: ChildProcess;
}

/** The sandbox as a process of its own, at the benches' pace; resolves once it listens. */
function startSandboxProcess(): Promise<Sandbox> {
  const args = ["--import", "tsx", "src/sandbox/main.ts", "--http", "--port", "0", "--companies", String(ROWS), "--contacts", "1000"];
  args.push("--data-dir", ".sandbox/bench-audience", "--latency", String(LATENCY_MS), "--rate-per-second", String(RATE), "--job-rows-per-second", "100000");
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", (line) => {
      const match = /^Sandbox listening on (\S+)$/.exec(line);
      if (match) resolve({ url: match[1]!, child });
      else reject(new Error(`unexpected first line: ${line}`));
    });
    child.once("exit", (code) => reject(new Error(`the sandbox exited with ${code}`)));
  });
}

async function post(sandbox: Sandbox, path: string, body: unknown): Promise<any> {
  const response = await fetch(`${sandbox.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return response.json();
}

/** Runs `work` with the sandbox's counters reset: its requests by route, and the wall time. */
async function metered<T>(sandbox: Sandbox, work: () => Promise<T>): Promise<{ value: T; requests: number; byRoute: Record<string, number>; wallMs: number }> {
  await post(sandbox, "/__sandbox/stats/reset", {});
  const started = performance.now();
  const value = await work();
  const wallMs = performance.now() - started;
  const stats = (await (await fetch(`${sandbox.url}/__sandbox/stats`)).json()) as { requests: Record<string, number>; total: number };
  return { value, requests: stats.total, byRoute: stats.requests, wallMs };
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 1500));

const on = (byRoute: Record<string, number>, route: RegExp) => Object.entries(byRoute).reduce((n, [name, count]) => n + (route.test(name) ? count : 0), 0);

const spec = (key: string, header: string, type: ColumnSpec["type"]): ColumnSpec => ({ key, header, type, path: key, byDefault: true });

/** A workbook with one table of leads: website, company name, a number and a note per row. */
async function leads(client: ServiceClient): Promise<{ workbook: BrowserWorkbook; sheet: ReturnType<typeof browserAudienceSheet> }> {
  const rows: CellValue[][] = [];
  for await (const page of client.iterateCompanies({}, { pageSize: 100, maxResults: ROWS, sort: "name" })) {
    for (const c of page.items) rows.push([String(c.attributes.website ?? ""), String(c.attributes.name ?? ""), rows.length % 97, `lead ${rows.length + 1}`]);
  }
  const workbook = new BrowserWorkbook();
  const writer = await workbook.createTable({
    target: { kind: "newSheet", sheetName: "Leads" },
    tableName: "Leads",
    columns: [spec("website", "Website", "text"), spec("company", "Company", "text"), spec("score", "Score", "integer"), spec("note", "Notes", "text")],
    expectedRows: rows.length,
  });
  await writer.append(rows);
  await writer.finish();
  workbook.selectColumn("Leads", 0);
  return { workbook, sheet: browserAudienceSheet(workbook) };
}

/** Sends the selected table to a new audience; answers the audience and the send's result. */
/**
 * Reads the selected table and plans its send (what the pane does at Check plan, before the user
 * confirms); answers the send itself, from the confirm to the results written beside the table.
 */
async function plannedSend(client: ServiceClient, sheet: ReturnType<typeof browserAudienceSheet>, name: string) {
  const read = await sheet.readTable();
  if (!read.ok) throw new Error(read.message);
  const mapping = inferMapping(read.table);
  const plan = planSend(read.table, mapping);
  return async (): Promise<{ audienceId: string; result: SendResult }> => {
    const { target, result } = await sendToAudience(client, { kind: "new", name }, mapping, plan, { runKey: name.replace(/\W/g, "") });
    await sheet.writeColumns(read.table.address, resultWrites(read.table, result));
    return { audienceId: target.audienceId, result };
  };
}

async function followJob(client: ServiceClient, audienceId: string): Promise<void> {
  const jobId = await client.startAudienceEnrichment(audienceId, { scope: "AUDIENCE" });
  if (!jobId) throw new Error("the enrichment found nothing to do");
  for (;;) {
    const status = await client.getJob(audienceId, jobId);
    if (status.terminal) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Distinct rows and rows in all, by their key cells. */
async function audienceRows(client: ServiceClient, audienceId: string): Promise<{ rows: number; distinct: number }> {
  const columns = await client.listAudienceColumns(audienceId);
  const key = columns.find((c) => c.name === "Sheet row key")?.columnId;
  const keys: unknown[] = [];
  for (let page = 1; ; page++) {
    const answer = await client.getAudienceRows(audienceId, { page, size: 500 });
    for (const row of answer.rows) keys.push(row.attributes.values.find((v) => v.columnId === key)?.value);
    if (page >= answer.totalPages) break;
  }
  return { rows: keys.length, distinct: new Set(keys).size };
}

/** The fetch transport, losing the answer of one bulk upsert in `every` after the sandbox applied it. */
function losing(every: number): Transport {
  const inner = fetchTransport();
  let upserts = 0;
  return async (url, init) => {
    const response = await inner(url, init);
    if (UPSERTS.test(url) && ++upserts % every === 0) throw new TypeError("fetch failed: the connection was reset");
    return response;
  };
}

export async function benchAudience(): Promise<void> {
  const sandbox = await startSandboxProcess();
  try {
    await post(sandbox, "/__sandbox/accounts", { id: ACCOUNT, credits: 100_000 });
    const token = ((await post(sandbox, "/__sandbox/token", { account: ACCOUNT, expiresIn: 3600 })) as { access_token: string }).access_token;
    const options = { baseUrl: sandbox.url, getAccessToken: async () => token, rateLimit: { perSecond: RATE } };
    const client = createServiceClient(options);
    const { workbook, sheet } = await leads(client);
    const send = await plannedSend(client, sheet, "Bench leads");
    // The user reads the plan before Send: the rate limit is not still spent on reading the leads.
    await pause();
    const up = await metered(sandbox, send);
    await followJob(client, up.value.audienceId);
    await pause();
    const back = await metered(sandbox, () => bringBack(client, sheet, "Leads", up.value.audienceId));
    const upsertCount = on(up.byRoute, UPSERTS);
    const pages = on(back.byRoute, PAGES);
    const table = workbook.table("Leads")!;
    // The service's company name, right of the table's own columns, its link and its status.
    const nameAt = table.headers.findIndex((h, i) => i > 5 && /^Company name/.test(h));
    const right = table.rows.filter((r) => nameAt >= 0 && r[nameAt] === r[1]).length;
    const floor = (requests: number) => (requests / RATE) * 1000;
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    // Every request counts towards the floor, the setup ones too: the rate limit paces them all.
    // The audience's creation must answer before its rows go (they need its id); the match
    // criteria cannot be set at creation (the service's create takes custom columns only), and
    // go beside the first upserts. The fewest requests are 22 up and 21 back.
    console.log(`${ROWS.toLocaleString("en-US")} rows, ${RATE} requests/s, ${LATENCY_MS} ms an answer; floor = every request made (setup ones too) / rate`);
    console.log("up: from Send (the plan made before it) to each row's link and status written; back: from Bring the results back to the last page written");
    printTable(
      ["step", "requests", "of which 500-row", "the others", "wall", "floor wall", "x floor"],
      [
        [
          "up (create, criteria, upserts)",
          String(up.requests),
          String(upsertCount),
          `${up.requests - upsertCount} (create, criteria)`,
          s(up.wallMs),
          s(floor(up.requests)),
          (up.wallMs / floor(up.requests)).toFixed(2),
        ],
        [
          "back (columns, pages)",
          String(back.requests),
          String(pages),
          `${back.requests - pages} (column list)`,
          s(back.wallMs),
          s(floor(back.requests)),
          (back.wallMs / floor(back.requests)).toFixed(2),
        ],
      ],
    );
    console.log(`Rows back beside the right row (enriched company name = the row's own): ${right.toLocaleString("en-US")} of ${ROWS.toLocaleString("en-US")}`);

    // Under faults: 10% 503s from the sandbox, and one upsert answer in five lost after it was applied.
    await post(sandbox, "/__sandbox/faults", { failRate: 0.1, seed: 11 });
    const faulty = createServiceClient({ ...options, fetch: losing(5) });
    const second = await leads(client);
    const sent = await metered(sandbox, await plannedSend(faulty, second.sheet, "Bench leads under faults"));
    await post(sandbox, "/__sandbox/faults", { failRate: 0 });
    const held = await audienceRows(client, sent.value.audienceId);
    const created = sent.value.result.rows.filter((r) => r.status === "created").length;
    printTable(
      ["under faults", "rows created", "rows in audience", "distinct rows", "duplicated", "upsert tries", "key look-ups"],
      [
        [
          "10% 503, 1 in 5 answers lost",
          created.toLocaleString("en-US"),
          held.rows.toLocaleString("en-US"),
          held.distinct.toLocaleString("en-US"),
          String(held.rows - held.distinct),
          String(sent.value.result.requests),
          String(sent.value.result.lookups),
        ],
      ],
    );
    console.log("Aim: 20 upserts (+ create, criteria) and 20 pages (+ the column list); wall <= 1.10 x the floor; 0 duplicated under faults.");
  } finally {
    sandbox.child.kill();
  }
}

const SHEET_ROWS = 100_000;

/** A leads table of 100,000 rows and 20 columns: website, company, then text and numbers. */
function bigLeads(excel: FakeExcel): void {
  const header = ["Website", "Company", ...Array.from({ length: 18 }, (_, c) => `Field ${c + 1}`)];
  const rows = Array.from({ length: SHEET_ROWS }, (_, r) => [
    `www.lead-${r + 1}.com`,
    `Lead company ${r + 1}`,
    ...Array.from({ length: 18 }, (_, c) => (c % 2 ? r * c : `note ${c} on lead ${r + 1}`)),
  ]);
  excel.addTable("Sheet1", "Leads", 0, 0, [header, ...rows]);
}

/** `npm run bench -- audience`, Excel's side: a 100,000-row audience sent and brought back. */
export async function benchAudienceSheet(): Promise<void> {
  const excel = new FakeExcel();
  bigLeads(excel);
  const sheet = createExcelAudienceSheet(excel.run);
  const address = `Sheet1!A1:T${SHEET_ROWS + 1}`;
  const every = <T>(value: (row: number) => T) => Array.from({ length: SHEET_ROWS }, (_, row) => ({ row, value: value(row) as CellValue }));
  const figures = [
    await measured(excel, "read the table", () => sheet.readTableAt(address)),
    await measured(excel, "write link and status", () =>
      sheet.writeColumns(address, [
        { column: 20, header: "Audience row", cells: every((r) => `https://app.example.com/audiences/a1/rows/${r + 1}`) },
        { column: 21, header: "Audience send status", cells: every((r) => (r % 10 ? "Created" : "Updated")) },
      ]),
    ),
    await measured(excel, "bring back 5 columns", () =>
      sheet.writeColumns(
        address,
        Array.from({ length: 5 }, (_, k) => ({
          column: 22 + k,
          header: `Enriched ${k + 1}`,
          cells: every((r) => (k % 2 ? r * k : `enriched ${k} of ${r + 1}`)),
        })),
      ),
    ),
    await measured(excel, "read it again", () => sheet.readTableAt(address)),
  ];
  console.log(`${SHEET_ROWS.toLocaleString("en-US")}-row audience, the sheet side in Excel (20 columns, 7 written beside them); every call under 5 MB`);
  printTable(CALL_HEADER, callRows(figures));
}
