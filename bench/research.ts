// `npm run bench -- research`: research for many companies against a sandbox at the service's
// pace (25 requests a second, 40 ms per answer), requests counted at the sandbox and AI action
// credits read from the account's usage. Lookalikes for 50 seed companies take one request per
// seed (the floor: the service takes one reference company a call), merged and deduplicated;
// recommended contacts for 100 accounts take one per account; briefings for 10 companies cost
// one AI action credit each; a second run, and briefings after a reload, cost nothing
// (goal: 0 requests, 0 AI credits).
import type { ServiceClient } from "../src/core/api/index.js";
import { createResearch, type Research } from "../src/core/research/index.js";
import { memoryKeyValueStorage } from "../src/core/storage/keyValue.js";
import type { RunningSandbox } from "../src/sandbox/server.js";
import { clientFor, companyIds, metered, RATE, startBenchSandbox } from "./lib/sandbox.js";
import { printTable } from "./lib/table.js";

const ACCOUNT = "bench-research";
const RESEARCH_ROUTES = /lookalikes|recommendations|research|account-summary/;

interface Row {
  case: string;
  run: string;
  requests: number;
  floor: number;
  aiCredits: number;
  wallMs: number;
  note: string;
}

async function measure(sandbox: RunningSandbox, client: ServiceClient, work: () => Promise<string>): Promise<Omit<Row, "case" | "run" | "floor">> {
  const aiBefore = (await client.usage()).aiActions?.used ?? 0;
  const { value, requests, wallMs } = await metered(sandbox, ACCOUNT, RESEARCH_ROUTES, work);
  const aiCredits = ((await client.usage()).aiActions?.used ?? 0) - aiBefore;
  return { requests, aiCredits, wallMs, note: value };
}

async function twice(sandbox: RunningSandbox, client: ServiceClient, label: string, floor: number, work: () => Promise<string>, rows: Row[]): Promise<void> {
  rows.push({ case: label, run: "first", floor, ...(await measure(sandbox, client, work)) });
  rows.push({ case: label, run: "second", floor: 0, ...(await measure(sandbox, client, work)) });
}

export async function benchResearch(): Promise<void> {
  const sandbox = await startBenchSandbox({ contacts: 20_000 });
  try {
    const client = await clientFor(sandbox, ACCOUNT);
    const ids = (await companyIds(sandbox, 100)).map(String);
    const storage = memoryKeyValueStorage();
    const open = (): Research => createResearch({ client, storage, scope: () => `specification|${ACCOUNT}` });
    const research = open();
    console.log(`A sandbox of 2,000 companies answering ${RATE}/s with 40 ms latency.`);
    const rows: Row[] = [];
    await twice(
      sandbox,
      client,
      "lookalikes, 50 seed companies",
      50,
      async () => {
        const result = await research.lookalikes({ seeds: ids.slice(0, 50), limit: 1000, perSeed: 25 });
        const listed = result.companies.reduce((n, c) => n + c.seeds.length, 0);
        return `${result.companies.length} companies merged from ${listed} seed answers (${listed - result.companies.length} found by several seeds)`;
      },
      rows,
    );
    await twice(
      sandbox,
      client,
      "recommended contacts, 100 accounts",
      100,
      async () => {
        const result = await research.recommendations({ accounts: ids, useCase: "PROSPECTING", size: 5 });
        return `${result.contacts.length} contacts at ${result.accountsAsked} accounts`;
      },
      rows,
    );
    const briefings = async (r: Research) => {
      const result = await r.briefings(ids.slice(0, 10));
      return `${result.fetched} fetched, ${result.reused} reused`;
    };
    rows.push({ case: "briefings, 10 companies", run: "first", floor: 10, ...(await measure(sandbox, client, () => briefings(research))) });
    rows.push({ case: "briefings, 10 companies", run: "after a reload", floor: 0, ...(await measure(sandbox, client, () => briefings(open()))) });
    printTable(
      ["case", "run", "requests", "floor", "AI credits", "wall (s)", "goal", "note"],
      rows.map((r) => [
        r.case,
        r.run,
        String(r.requests),
        String(r.floor),
        String(r.aiCredits),
        (r.wallMs / 1000).toFixed(2),
        r.requests === r.floor && (r.floor > 0 || r.aiCredits === 0) ? "met" : "MISSED",
        r.note,
      ]),
      2,
    );
  } finally {
    await sandbox.close();
  }
}
