// Inserting a large search into a worksheet table: 10,000 results from the sandbox (40 ms
// latency, 25 requests per second) into the browser workbook and into the office-addin-mock
// workbook, against the rate-limit floor; and the task pane's production bundle size. Then Excel's
// side of a 100,000-row × 20-column insert: its calls and bytes beside the 5 MB floor.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { SANDBOX_ENVIRONMENT } from "../src/core/settings/environment.js";
import { COMPANY_SEARCH_COLUMNS, columnsFor, defaultColumnKeys, itemsToRows, type ColumnSpec } from "../src/core/sheet/index.js";
import { createExcelAudienceSheet } from "../src/office/audienceSheet.js";
import { BrowserWorkbook } from "../src/office/browserWorkbook.js";
import { ExcelWorkbook } from "../src/office/excelWorkbook.js";
import type { WorkbookAdapter } from "../src/office/workbook.js";
import { createRuntime, devTokenSource } from "../src/runtime.js";
import { insertSearch } from "../src/taskpane/insert/insertSearch.js";
import { buildTaskPane } from "../test/e2e/helpers.js";
import { startTestSandbox } from "../test/helpers/sandbox.js";
import { FakeExcel } from "../test/office/excelFake.js";
import { CALL_HEADER, callRows, measured } from "./lib/excelCalls.js";
import { printTable } from "./lib/table.js";

const RESULTS = 10_000;
const PAGE_SIZE = 100;
const PER_SECOND = 25;
const LATENCY_MS = 40;
/** Target for the task pane's initial JavaScript (the same goal the production build prints). */
const BUNDLE_TARGET_KB = 85;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Samples memory while a task runs; returns the peaks. */
async function withPeakMemory<T>(task: () => Promise<T>): Promise<{ result: T; peakHeap: number; peakRss: number }> {
  let peakHeap = 0;
  let peakRss = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakRss = Math.max(peakRss, m.rss);
  };
  sample();
  const timer = setInterval(sample, 20);
  try {
    const result = await task();
    sample();
    return { result, peakHeap, peakRss };
  } finally {
    clearInterval(timer);
  }
}

export async function benchInsert(): Promise<void> {
  const sandbox = await startTestSandbox({
    // Exactly the results one search reaches: a larger set would be imported in parts (a
    // partition bench of its own), and this one measures the plain path.
    companies: RESULTS,
    contacts: 100,
    rateLimit: { perSecond: PER_SECOND },
    faults: { latencyMs: LATENCY_MS },
  });
  try {
    const environment = { ...SANDBOX_ENVIRONMENT, apiBaseUrl: sandbox.url, audiencesBaseUrl: sandbox.url };
    const pages = RESULTS / PAGE_SIZE;
    // The client may send at most PER_SECOND requests a second: the last page cannot leave
    // before (pages - 1) / PER_SECOND seconds, and it still takes one latency to answer.
    const floorMs = ((pages - 1) / PER_SECOND) * 1000 + LATENCY_MS;
    const columns = columnsFor("company", defaultColumnKeys("company"));
    console.log(
      `${RESULTS.toLocaleString("en-US")} companies, ${pages} pages of ${PAGE_SIZE}, sandbox latency ${LATENCY_MS} ms, ${PER_SECOND} requests/s, ${columns.length} columns`,
    );
    console.log(`rate-limit floor: ${(floorMs / 1000).toFixed(2)} s`);
    console.log("(memory: peak during the insert, and its rise over the process before it, which holds the sandbox)");
    console.log("workbook              wall (s)  x floor  pages  rows    blocks  context.sync()  peak heap (+rise)     peak RSS (+rise)");

    const targets: { name: string; make(): { workbook: WorkbookAdapter; syncs(): number } }[] = [
      { name: "browser workbook", make: () => ({ workbook: new BrowserWorkbook(), syncs: () => 0 }) },
      {
        name: "office-addin-mock",
        make: () => {
          const excel = new FakeExcel();
          return { workbook: new ExcelWorkbook({ run: excel.run }), syncs: () => excel.syncs };
        },
      },
    ];
    for (const target of targets) {
      // A fresh runtime each time: its own rate limiter and token.
      const runtime = createRuntime({ environment, tokenSource: (env) => devTokenSource(env), requestsPerSecond: PER_SECOND });
      await runtime.tokens.getAccessToken();
      await new Promise((r) => setTimeout(r, 1100)); // let the sandbox's one-second window empty
      const { workbook, syncs } = target.make();
      sandbox.resetStats();
      const before = process.memoryUsage();
      const started = performance.now();
      const { result, peakHeap, peakRss } = await withPeakMemory(() =>
        insertSearch({
          client: runtime.client,
          workbook,
          search: { kind: "company", filters: {}, sort: "-revenue" },
          columns,
          target: { kind: "newSheet", sheetName: "Bench" },
          tableName: "Bench",
        }),
      );
      const wall = performance.now() - started;
      if (result.status !== "complete") throw new Error(`insert ended ${result.status}: ${result.message}`);
      const searchRequests = sandbox.requests("POST /data/v1/companies/search");
      console.log(
        `${target.name.padEnd(20)}  ${(wall / 1000).toFixed(2).padStart(8)}  ${(wall / floorMs).toFixed(2).padStart(7)}  ${String(searchRequests).padStart(5)}  ${String(result.rowsWritten).padStart(6)}  ${String(result.table?.stats.blocks ?? 0).padStart(6)}  ${String(syncs()).padStart(14)}  ${`${mb(peakHeap)} (+${mb(peakHeap - before.heapUsed)})`.padStart(19)}  ${`${mb(peakRss)} (+${mb(peakRss - before.rss)})`.padStart(19)}`,
      );
    }
  } finally {
    await sandbox.close();
  }
  await measureBundleSize();
}

/** Initial JavaScript of the task pane page (production build), gzip -9, against the target. */
export async function measureBundleSize(): Promise<void> {
  const dir = await buildTaskPane("release");
  const html = readFileSync(join(dir, "taskpane.html"), "utf8");
  const scripts = [...html.matchAll(/<script[^>]*\ssrc=["']?([^"'\s>]+)/g)]
    .map((m) => m[1]!)
    .filter((src) => !src.startsWith("assets/") && !/^https?:/.test(src));
  let raw = 0;
  let gz = 0;
  console.log("\ninitial JavaScript of taskpane.html (production; office.js, from Microsoft's CDN, not counted):");
  for (const src of scripts) {
    const bytes = readFileSync(join(dir, src.replace(/^\.?\//, "")));
    const zipped = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gz += zipped;
    console.log(`  ${src.padEnd(40)} ${(bytes.length / 1024).toFixed(1).padStart(8)} KB  ${(zipped / 1024).toFixed(1).padStart(7)} KB gzip`);
  }
  console.log(
    `  total ${(raw / 1024).toFixed(1)} KB, ${(gz / 1024).toFixed(1)} KB gzip (target <= ${BUNDLE_TARGET_KB} KB gzip: ${gz / 1024 <= BUNDLE_TARGET_KB ? "met" : "not met"})`,
  );
}

const BIG_ROWS = 100_000;

/** The company columns and nine more of text and numbers: 20 columns, as a wide insert has. */
function twentyColumns(): ColumnSpec[] {
  const extra = Array.from({ length: 9 }, (_, i): ColumnSpec => ({
    key: `extra${i}`,
    header: `Extra ${i + 1}`,
    type: i % 3 ? "text" : "integer",
    path: `extra${i}`,
    byDefault: false,
  }));
  return [...COMPANY_SEARCH_COLUMNS, ...extra];
}

function bigCompanies(start: number, count: number) {
  return Array.from({ length: count }, (_, k) => {
    const i = start + k;
    const attributes: Record<string, unknown> = {
      name: `Company number ${i}`,
      website: `www.company-${i}.com`,
      city: ["Austin", "Boston", "Chicago", "Denver"][i % 4],
      state: ["Texas", "Massachusetts", "Illinois", "Colorado"][i % 4],
      country: "United States",
      revenue: 1000 + ((i * 37) % 900_000),
      employeeCount: 10 + (i % 5000),
      logo: `https://logos.example.com/${i}.png`,
      managementStatus: { underManagement: i % 3 === 0, purchaseDate: "2024-05-01T00:00:00Z" },
    };
    for (let e = 0; e < 9; e++) attributes[`extra${e}`] = e % 3 ? `value ${e} of ${i}` : i * e;
    return { id: String(i), attributes };
  });
}

/**
 * `npm run bench -- insert`, Excel's side: a 100,000-row × 20-column insert into the fake Excel
 * that refuses what Excel on the web refuses (over 5 MB a call), and the table read back, each
 * with its Excel calls and bytes beside the floor (total bytes ÷ 5 MB, rounded up).
 */
export async function benchInsertExcelCalls(): Promise<void> {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook({ run: excel.run });
  const columns = twentyColumns();
  let address = "";
  const insert = await measured(excel, "insert (header, blocks, table)", async () => {
    const writer = await workbook.createTable({ target: { kind: "newSheet", sheetName: "Big" }, tableName: "Big", columns, expectedRows: BIG_ROWS });
    for (let page = 0; page < BIG_ROWS / 100; page++) await writer.append(itemsToRows(bigCompanies(page * 100 + 1, 100), columns));
    address = (await writer.finish()).address;
  });
  const read = await measured(excel, "read back (header, body)", () => createExcelAudienceSheet(excel.run).readTableAt(address));
  console.log(`${BIG_ROWS.toLocaleString("en-US")} rows x ${columns.length} columns into Excel (values, formats, links); every call under 5 MB`);
  printTable(CALL_HEADER, callRows([insert, read]));
}
