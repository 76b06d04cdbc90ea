// `npm run bench -- signals`: signals for a list of companies, side by side with one request per
// company, against a sandbox of 20,000 companies at the service's pace (25 requests a second,
// 40 ms per answer). Intent score on 3 topics for 1,000 and for 20 companies (the plan chooser:
// per-company intent enrich or the intent search's pages joined locally, whichever needs fewer
// requests), the latest scoop for 1,000 companies (scoop enrich in batches of 25), and the same
// cells recalculated. Requests are counted at the sandbox. Goals: requests <= 1.10 x the cheaper
// plan's floor; 0 on recalculation.
import { SIGNAL_PATHS } from "../src/core/contract/index.js";
import type { ServiceClient } from "../src/core/api/index.js";
import { intentScore, latestScoop, prepareIntentPlan, scoopsForCompanies, SCOOP_BATCH } from "../src/core/signals/index.js";
import { startSandbox, type RunningSandbox } from "../src/sandbox/server.js";
import { LATENCY_MS, RATE, clientFor } from "./lib/sandbox.js";
import { signalCells, timed, type BenchRow } from "./lib/signalCells.js";

const COMPANIES = 20_000;
const TOPICS = ["Cloud Security", "CRM Software", "Machine Learning"];
const INTENT_SEARCH = `POST ${SIGNAL_PATHS.intentSearch}`;
const INTENT_ENRICH = `POST ${SIGNAL_PATHS.intentEnrich}`;
const SCOOP_ENRICH = `POST ${SIGNAL_PATHS.scoopEnrich}`;
const GOAL = 1.1;

const ACCOUNT = "bench-signals";
const measure = (sandbox: RunningSandbox, work: () => Promise<unknown>) => timed(sandbox, ACCOUNT, work);

/** The search plan's floor: its pages, counted once outside the measurement. */
async function searchPages(client: ServiceClient): Promise<number> {
  const first = await client.searchIntent({ topics: TOPICS, findRecommendedContacts: false }, { page: 1, size: 100 });
  return Math.ceil(first.totalResults / 100);
}

async function intentCase(sandbox: RunningSandbox, client: ServiceClient, ids: number[], pages: number, rows: BenchRow[]): Promise<void> {
  const label = `intent score, ${TOPICS.length} topics, ${ids.length.toLocaleString("en-US")} companies`;
  const floor = Math.min(ids.length, pages);
  const scores: number[] = [];
  const naive = await measure(sandbox, () =>
    Promise.all(
      ids.map(async (companyId) =>
        scores.push(intentScore(await client.enrichIntent({ companyId, topics: TOPICS, findRecommendedContacts: false }), TOPICS[0]!)),
      ),
    ),
  );
  rows.push({ case: label, approach: "one intent enrich per company", ...naive, floor });
  let summary = "";
  const planned = await measure(sandbox, async () => {
    const prepared = await prepareIntentPlan(client, { companyIds: ids, topics: TOPICS });
    summary = prepared.plan.summary;
    await prepared.run();
  });
  rows.push({ case: label, approach: "plan chooser", ...planned, floor, note: summary });
}

export async function benchSignals(): Promise<void> {
  console.log(`Seeding a sandbox of ${COMPANIES.toLocaleString("en-US")} companies…`);
  const sandbox = await startSandbox({
    companies: COMPANIES,
    contacts: 40_000,
    http: true,
    port: 0,
    host: "127.0.0.1",
    rateLimit: { perSecond: RATE },
    faults: { latencyMs: LATENCY_MS },
  });
  try {
    const client = await clientFor(sandbox, ACCOUNT);
    const ids = Array.from({ length: 1000 }, (_, i) => i + 1);
    const pages = await searchPages(client);
    console.log(`The intent search on ${TOPICS.join(", ")} has ${pages} pages of 100; the sandbox answers ${RATE}/s with ${LATENCY_MS} ms latency.`);
    const rows: BenchRow[] = [];
    await intentCase(sandbox, client, ids, pages, rows);
    await intentCase(sandbox, client, ids.slice(0, 20), pages, rows);

    const scoopLabel = "latest scoop, 1,000 companies";
    const scoopFloor = Math.ceil(ids.length / SCOOP_BATCH);
    const naive = await measure(sandbox, () => Promise.all(ids.map(async (id) => latestScoop(await client.enrichScoops({ companyId: String(id) })))));
    rows.push({ case: scoopLabel, approach: "one scoop enrich per company", ...naive, floor: scoopFloor });
    const batched = await measure(sandbox, () => scoopsForCompanies(client, ids));
    rows.push({ case: scoopLabel, approach: `scoop enrich, ${SCOOP_BATCH} companies a request`, ...batched, floor: scoopFloor });

    rows.push(...(await signalCells(sandbox, ACCOUNT, client, ids, TOPICS, pages)));
    print(rows);
  } finally {
    await sandbox.close();
  }
}

function print(rows: BenchRow[]): void {
  const table = rows.map((r) => ({
    case: r.case,
    approach: r.approach,
    requests: r.requests,
    floor: r.floor,
    credits: r.credits,
    "requests / floor": r.floor > 0 ? (r.requests / r.floor).toFixed(2) : r.requests === 0 ? "0 (goal 0)" : "—",
    "wall (s)": (r.wallMs / 1000).toFixed(2),
    "floor wall (s)": (r.floor / RATE).toFixed(2),
    goal: r.approach.startsWith("one ") ? "baseline" : r.floor === 0 ? (r.requests === 0 ? "met" : "MISSED") : r.requests <= GOAL * r.floor ? "met" : "MISSED",
  }));
  console.table(table);
  for (const r of rows) if (r.note) console.log(`${r.case}, ${r.approach}: ${r.note}`);
}

export { INTENT_ENRICH, INTENT_SEARCH, SCOOP_ENRICH };
