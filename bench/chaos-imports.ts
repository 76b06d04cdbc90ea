// Imports under faults: 48 imports of 48 pages (4,800 companies each) from a sandbox that answers
// 20% of requests 503 and drops 2% of connections (a fixed fault seed), with the client's default
// retries and a page's patience. Prints imports completed, rows missing or repeated, page
// requests against the floor (48 x 48) and wall time.
import { createServiceClient } from "../src/core/api/index.js";
import { columnsFor } from "../src/core/sheet/index.js";
import { BrowserWorkbook } from "../src/office/browserWorkbook.js";
import { insertSearch } from "../src/taskpane/insert/insertSearch.js";
import { startTestSandbox } from "../test/helpers/sandbox.js";

const IMPORTS = 48;
const PAGES = 48;
const AT_ONCE = 8;

export async function benchChaosImports(): Promise<void> {
  const sandbox = await startTestSandbox({ companies: PAGES * 100, contacts: 100 });
  try {
    const token = await sandbox.token();
    await sandbox.setFaults({ failRate: 0.2, resetRate: 0.02, seed: 4848 });
    sandbox.resetStats();
    const started = performance.now();
    let complete = 0;
    let missing = 0;
    let repeated = 0;
    const failures: string[] = [];
    for (let batch = 0; batch < IMPORTS / AT_ONCE; batch++) {
      await Promise.all(
        Array.from({ length: AT_ONCE }, async () => {
          // Each import its own client, as each user's pane has one.
          const client = createServiceClient({ baseUrl: sandbox.url, getAccessToken: async () => token, rateLimit: { perSecond: 1000 } });
          const workbook = new BrowserWorkbook();
          const outcome = await insertSearch({
            client,
            workbook,
            search: { kind: "company", filters: {}, sort: "name" },
            columns: columnsFor("company", ["id", "name"]),
            target: { kind: "newSheet", sheetName: "Chaos" },
            tableName: "Chaos",
          });
          const ids = outcome.table ? workbook.table(outcome.table.tableName)!.rows.map((r) => r[0]) : [];
          const unique = new Set(ids).size;
          missing += PAGES * 100 - unique;
          repeated += ids.length - unique;
          if (outcome.status === "complete" && unique === PAGES * 100) complete++;
          else failures.push(outcome.message);
        }),
      );
    }
    const wall = (performance.now() - started) / 1000;
    const requests = sandbox.requests("POST /data/v1/companies/search");
    console.log(`${IMPORTS} imports of ${PAGES} pages at 20% 503s and 2% dropped connections (seed 4848), ${AT_ONCE} at a time`);
    console.log("completed  rows missing  rows repeated  requests  floor  x floor  wall (s)");
    console.log(
      `${`${complete}/${IMPORTS}`.padStart(9)}  ${String(missing).padStart(12)}  ${String(repeated).padStart(13)}  ${String(requests).padStart(8)}  ${String(IMPORTS * PAGES).padStart(5)}  ${(requests / (IMPORTS * PAGES)).toFixed(2).padStart(7)}  ${wall.toFixed(1).padStart(8)}`,
    );
    for (const f of failures) console.log(`  not complete: ${f}`);
  } finally {
    await sandbox.close();
  }
}
