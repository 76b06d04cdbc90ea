// `npm run bench -- match`: a list of 1,000 websites in mixed spellings (about 10% of rows are a
// company already in the list, written differently; 10 websites no company has) enriched with
// one field, as cells do: the enrichment pipeline (dedup on the normalized website, 25 inputs a
// request, fields with the match, key -> id cached) beside one request per row. Then the same list
// recalculated, and reopened on the same cache store. Requests are counted at the sandbox;
// credits come from its ledger.
import { PATHS } from "../src/core/contract/index.js";
import { createEnrichmentEngine, MemoryCacheStore, type CacheStore } from "../src/core/enrich/index.js";
import { normalizeWebsite } from "../src/core/enrich/resolver.js";
import type { RunningSandbox } from "../src/sandbox/server.js";
import { clientFor, metered, startBenchSandbox } from "./lib/sandbox.js";
import { printTable } from "./lib/table.js";

const ROWS = 1000;
const REPEATED_SHARE = 0.1;
const UNKNOWN = 10;
const NAIVE_SLICE = 100;
const ROUTE = `POST ${PATHS.enrichCompanies}`;

/** Deterministic spellings of one domain, as lists from different sources write it. */
const SPELLINGS = [
  (d: string) => d,
  (d: string) => `https://www.${d}/about`,
  (d: string) => d.toUpperCase(),
  (d: string) => `http://${d}./`,
  (d: string) => `www.${d}`,
  (d: string) => `https://${d}/contact?ref=list`,
];

interface Row {
  approach: string;
  requests: number;
  credits: number;
  wallMs: number;
  matched: number;
  note?: string;
}

export async function benchMatch(): Promise<void> {
  const sandbox = await startBenchSandbox({ contacts: 2000 });
  try {
    const list = websites(sandbox);
    const unique = new Set(list.map((w) => (normalizeWebsite(w) as { value: string }).value)).size;
    const expectedMatched = unique - UNKNOWN;
    console.log(`${list.length} rows, ${unique} distinct websites once normalized (${expectedMatched} companies the sandbox has, ${UNKNOWN} it has not)`);
    console.log(`expected: requests = ceil(${unique} / 25) = ${Math.ceil(unique / 25)}, credits = ${expectedMatched}`);
    const rows: Row[] = [];

    const store: CacheStore = new MemoryCacheStore();
    const client = await clientFor(sandbox, "bench-match");
    const open = (cacheStore: CacheStore) => {
      const engine = createEnrichmentEngine({ client, cache: cacheStore, dailyNewRecordCap: 100_000 });
      return (label: string) => measure(sandbox, "bench-match", label, list, async (website) => (await engine.getCells("company", website, "name")).ok);
    };
    const workbook = open(store);
    rows.push(await workbook("pipeline, first calculation"));
    rows.push(await workbook("pipeline, recalculation"));
    rows.push(await open(store)("pipeline, workbook reopened (same cache store)"));

    const naiveClient = await clientFor(sandbox, "bench-match-naive");
    const slice = list.slice(0, NAIVE_SLICE);
    const measured = await measure(sandbox, "bench-match-naive", "naive", slice, async (website) => {
      const [record] = await naiveClient.enrichCompanies([{ companyWebsite: website }], ["name"]);
      return record?.outcome === "matched";
    });
    const scale = list.length / slice.length;
    rows.push({
      approach: "naive: one request per row",
      requests: Math.round(measured.requests * scale),
      credits: expectedMatched,
      wallMs: measured.wallMs * scale,
      matched: Math.round(measured.matched * scale),
      note: `measured on ${slice.length} rows, x${scale} extrapolated; credits the same (a company is charged once), recalculation asks all again`,
    });
    print(rows);
  } finally {
    await sandbox.close();
  }
}

/** 1,000 rows: 890 distinct companies' websites, 100 rows of them again in another spelling, 10 unknown. */
function websites(sandbox: RunningSandbox): string[] {
  const repeated = Math.round(ROWS * REPEATED_SHARE);
  const distinct = ROWS - repeated - UNKNOWN;
  const domains = (
    sandbox.ctx.db.prepare("SELECT domain FROM companies WHERE domain IS NOT NULL ORDER BY id LIMIT ?").all(distinct) as Array<{ domain: string }>
  ).map((r) => r.domain);
  const list = domains.map((d, i) => SPELLINGS[i % SPELLINGS.length]!(d));
  for (let i = 0; i < repeated; i++) list.push(SPELLINGS[(i + 1) % SPELLINGS.length]!(domains[(i * 7) % domains.length]!));
  for (let i = 0; i < UNKNOWN; i++) list.push(`https://www.no-company-${i}.example/`);
  // Mixed order, deterministically, so repeats are far from their first spelling.
  return list
    .map((w, i) => ({ w, k: (i * 7919) % list.length }))
    .sort((a, b) => a.k - b.k)
    .map((e) => e.w);
}

async function measure(
  sandbox: RunningSandbox,
  account: string,
  approach: string,
  list: string[],
  evaluate: (website: string) => Promise<boolean>,
): Promise<Row> {
  const {
    value: outcomes,
    requests,
    credits,
    wallMs,
  } = await metered(sandbox, account, ROUTE, () => Promise.all(list.map((w) => evaluate(w).catch(() => false))));
  return { approach, requests, credits, wallMs, matched: outcomes.filter(Boolean).length };
}

function print(rows: Row[]): void {
  const header = ["approach", "requests", "credits", "wall s", "rows matched"];
  const table = rows.map((r) => [r.approach, String(r.requests), String(r.credits), (r.wallMs / 1000).toFixed(2), String(r.matched)]);
  printTable(header, table);
  for (const r of rows) if (r.note) console.log(`  ${r.approach}: ${r.note}`);
}
