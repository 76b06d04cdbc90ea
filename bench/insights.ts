// `npm run bench -- insights`: insights (docs/signals.md, Insights) against the twin's route over
// HTTP (a sandbox on a local port), through the real client; requests counted at the sandbox. A
// list of 1,000 companies takes 20 requests (50 a request) and 0 when asked again before the
// insights expire; 1,000 BIZ.INSIGHT cells take 20 (gathered by the one pipeline) and a
// recalculation 0.
import { createServiceClient } from "../src/core/api/index.js";
import { INSIGHTS_PATH } from "../src/core/contract/index.js";
import { MemoryCacheStore, createEnrichmentEngine } from "../src/core/enrich/index.js";
import { INSIGHT_KIND, createInsights, insightKind } from "../src/core/insights/index.js";
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

const COMPANIES = 1000;
const ids = Array.from({ length: COMPANIES }, (_, i) => i + 1);

async function measure(twin: AccountsTwin, work: () => Promise<string>): Promise<Omit<Row, "case" | "run" | "goal">> {
  const before = twin.count(INSIGHTS_PATH);
  const started = performance.now();
  const note = await work();
  return { requests: twin.count(INSIGHTS_PATH) - before, wallMs: performance.now() - started, note };
}

async function list(twin: AccountsTwin, client: ReturnType<typeof createServiceClient>, rows: Row[]): Promise<void> {
  const store = new MemoryCacheStore();
  const insights = createInsights({ client, cache: () => store, now: () => Date.now() });
  const work = async () => {
    const result = await insights.forCompanies({ companies: ids, types: ["zi.funding", "zi.cxochange", "zi.account-level-intent.spike", "zi.scoop"] });
    return `${result.items.length} insights for ${result.companies} companies`;
  };
  rows.push({ case: "list, 1,000 companies", run: "first", goal: 20, ...(await measure(twin, work)) });
  rows.push({ case: "list, 1,000 companies", run: "again (cached)", goal: 0, ...(await measure(twin, work)) });
}

async function cells(twin: AccountsTwin, client: ReturnType<typeof createServiceClient>, rows: Row[]): Promise<void> {
  const engine = createEnrichmentEngine({ client, kinds: [insightKind], windowMs: 2 });
  const work = async () => {
    const answers = await Promise.all(ids.map((id) => engine.getRecords(INSIGHT_KIND, id, ["insights"])));
    const withInsight = answers.filter((a) => a.ok && Array.isArray(a.values[0]) && a.values[0].length > 0).length;
    return `${withInsight} of ${answers.length} cells show an insight`;
  };
  rows.push({ case: "BIZ.INSIGHT, 1,000 cells", run: "calculation", goal: 20, ...(await measure(twin, work)) });
  rows.push({ case: "BIZ.INSIGHT, 1,000 cells", run: "recalculation", goal: 0, ...(await measure(twin, work)) });
}

export async function benchInsights(): Promise<void> {
  const sandbox = await startTestSandbox({ companies: 2000, contacts: 5000 });
  try {
    const twin = await accountsTwinOn(sandbox);
    const client = createServiceClient({ ...twin.clientOptions, rateLimit: { perSecond: 100_000 } });
    console.log("The twin's insights of 1,000 companies, over HTTP on this machine.");
    const rows: Row[] = [];
    await list(twin, client, rows);
    await cells(twin, client, rows);
    printTable(
      ["case", "run", "requests", "goal", "wall (ms)", "note"],
      rows.map((r) => [r.case, r.run, String(r.requests), String(r.goal), r.wallMs.toFixed(0), r.note]),
      2,
    );
  } finally {
    await sandbox.close();
  }
}
