// `npm run bench -- accounts`: corporate families and buying committees (docs/accounts.md) against
// the twin's routes over HTTP (a sandbox on a local port, test/helpers/accountsTwin.ts), through
// the real client and the one enrichment pipeline; requests counted at the sandbox. Families of 1,000 companies take 40 requests (25 a request); a roll-up of 10,000 rows
// naming 2,000 distinct companies takes 80, and 0 on a second run (cached); committees for 100
// accounts in 3 departments take one request per account at the floor of pages (100 people a
// page), and 0 again for accounts already kept.
import { createServiceClient } from "../src/core/api/index.js";
import { createCommitteeStore, familySummaries, fetchCommittees } from "../src/core/accounts/index.js";
import { CORPORATE_HIERARCHY_PATH, ORG_CHART_PATH } from "../src/core/contract/index.js";
import { createEnrichmentEngine } from "../src/core/enrich/index.js";
import { memoryKeyValueStorage } from "../src/core/storage/keyValue.js";
import { accountsTwinOn, type AccountsTwin } from "../test/helpers/accountsTwin.js";
import { startTestSandbox } from "../test/helpers/sandbox.js";
import { printTable } from "./lib/table.js";

interface Row {
  case: string;
  run: string;
  requests: number;
  goal: number;
  wallMs: number;
  note: string;
}

type Twin = AccountsTwin;

/** New records per day the user allows (the default, 1,000, would stop the roll-up halfway). */
const CAP = 5000;

async function measure(twin: Twin, path: string, work: () => Promise<string>): Promise<Omit<Row, "case" | "run" | "goal">> {
  const before = twin.count(path);
  const started = performance.now();
  const note = await work();
  return { requests: twin.count(path) - before, wallMs: performance.now() - started, note };
}

async function families(twin: Twin, client: ReturnType<typeof createServiceClient>, rows: Row[]): Promise<void> {
  const engine = createEnrichmentEngine({ client, windowMs: 2, dailyNewRecordCap: CAP });
  const ids = Array.from({ length: 1000 }, (_, i) => i + 1);
  const work = async () => {
    const answers = await engine.enrichInputs("hierarchy", ids, ["ultimateParentId", "ultimateParentName"]);
    return `${answers.filter((a) => a.result.ok).length} companies with their ultimate parent`;
  };
  rows.push({ case: "families, 1,000 companies", run: "first", goal: 40, ...(await measure(twin, CORPORATE_HIERARCHY_PATH, work)) });
  rows.push({ case: "families, 1,000 companies", run: "second", goal: 0, ...(await measure(twin, CORPORATE_HIERARCHY_PATH, work)) });
}

async function rollUp(twin: Twin, client: ReturnType<typeof createServiceClient>, rows: Row[]): Promise<void> {
  const engine = createEnrichmentEngine({ client, windowMs: 2, dailyNewRecordCap: CAP });
  const list = Array.from({ length: 10_000 }, (_, i) => (i % 2000) + 1);
  const work = async () => {
    const answers = await engine.enrichInputs("hierarchy", list, ["ultimateParentId", "ultimateParentName"]);
    const summary = familySummaries(
      answers.map((a, i) => {
        const [id, name] = a.result.ok ? a.result.values : ["", ""];
        return { ultimateParentId: id, ultimateParentName: name, values: [i % 7] };
      }),
      1,
    );
    return `${summary.length} families summed`;
  };
  rows.push({ case: "roll-up, 10,000 rows / 2,000 companies", run: "first", goal: 80, ...(await measure(twin, CORPORATE_HIERARCHY_PATH, work)) });
  rows.push({ case: "roll-up, 10,000 rows / 2,000 companies", run: "second", goal: 0, ...(await measure(twin, CORPORATE_HIERARCHY_PATH, work)) });
}

async function committees(twin: Twin, client: ReturnType<typeof createServiceClient>, rows: Row[]): Promise<void> {
  const store = createCommitteeStore(memoryKeyValueStorage(), () => "specification|bench");
  const accounts = Array.from({ length: 100 }, (_, i) => i + 1);
  const departments = ["Sales", "Finance", "Information Technology"];
  let floor = 0;
  const work = async () => {
    const result = await fetchCommittees(client, store, accounts, departments);
    let people = 0;
    for (const outcome of result.outcomes.values()) {
      const n = outcome.status === "done" ? outcome.value.length : 0;
      people += n;
      floor += Math.max(1, Math.ceil(n / 100));
    }
    return `${people} people at ${result.outcomes.size} accounts; ${result.plan.credits} credits estimated`;
  };
  const first = await measure(twin, ORG_CHART_PATH, work);
  rows.push({ case: "committees, 100 accounts x 3 departments", run: "first", goal: floor, ...first });
  rows.push({ case: "committees, 100 accounts x 3 departments", run: "second", goal: 0, ...(await measure(twin, ORG_CHART_PATH, work)) });
}

export async function benchAccounts(): Promise<void> {
  const sandbox = await startTestSandbox({ companies: 2000, contacts: 20_000 });
  try {
    const twin = await accountsTwinOn(sandbox);
    const client = createServiceClient({ ...twin.clientOptions, rateLimit: { perSecond: 100_000 } });
    console.log("The twin's families and org charts of 2,000 companies and 20,000 contacts, over HTTP on this machine.");
    const rows: Row[] = [];
    await families(twin, client, rows);
    await rollUp(twin, client, rows);
    await committees(twin, client, rows);
    printTable(
      ["case", "run", "requests", "goal", "wall (ms)", "note"],
      rows.map((r) => [r.case, r.run, String(r.requests), String(r.goal), r.wallMs.toFixed(0), r.note]),
      2,
    );
  } finally {
    await sandbox.close();
  }
}
