// `npm run bench -- cells`: 10,000 enrichment cells (1,000 company ids x 10 fields) against the
// sandbox (40 ms latency, 25 requests/s) calculated in four orders: all at once, row by row
// (a 20 ms pause every 100 rows), column by column (50 ms between columns) and random waves
// (2-10% of the cells per wave, 0-100 ms apart, seeded). Each order with fields recently asked
// riding along (the default) and without; then under faults (20% 503s, 2% dropped connections).
// Requests and wall time beside the rate-limit floor; then the recalculation (0 requests).
import { RequestHooks } from "../src/core/api/hooks.js";
import { PATHS } from "../src/core/contract/index.js";
import { createEnrichmentEngine } from "../src/core/enrich/index.js";
import type { RunningSandbox } from "../src/sandbox/server.js";
import { CALC_ORDERS, calculate, seededRandom, type CalcOrder } from "../test/helpers/cellOrders.js";
import { clientFor, companyIds, LATENCY_MS, post, RATE, startBenchSandbox } from "./lib/sandbox.js";
import { printTable } from "./lib/table.js";
const IDS = 1000;
const FIELDS = ["name", "website", "country", "city", "revenue", "employeeRange", "certified", "foundedYear", "companyStatus", "ticker"];
const ENRICH_ROUTE = `POST ${PATHS.enrichCompanies}`;
const FLOOR_REQUESTS = Math.ceil(IDS / 25);
const FLOOR_MS = (FLOOR_REQUESTS / RATE) * 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Row {
  order: CalcOrder;
  variant: string;
  logical: number;
  http: number;
  wallMs: number;
  /** Credits spent beyond one per record now under management (a record charged twice). */
  doubleCharges: number;
  settled: number;
  ok: number;
  recalcRequests: number;
}

export async function benchCells(): Promise<void> {
  const sandbox = await startBenchSandbox({ contacts: 100 });
  const rows: Row[] = [];
  try {
    const ids = await companyIds(sandbox, IDS);
    let run = 0;
    for (const variant of [
      "recent fields ride along",
      "every field rides along",
      "no companion fields",
      "faults, recent fields ride along",
      "faults, every field rides along",
    ]) {
      if (variant.startsWith("faults")) await post(sandbox, "/__sandbox/faults", { failRate: 0.2, resetRate: 0.02, seed: 99 });
      for (const order of CALC_ORDERS) {
        run += 1;
        rows.push(await measure(sandbox, `bench-cells-${run}`, order, variant, ids));
        await sleep(1100); // let the sandbox's one-second window empty between runs
      }
    }
  } finally {
    await sandbox.close();
  }
  print(rows);
}

async function measure(sandbox: RunningSandbox, account: string, order: CalcOrder, variant: string, ids: number[]): Promise<Row> {
  const hooks = new RequestHooks();
  let logical = 0;
  hooks.wrap((send, spec) => {
    if (spec.operation === ENRICH_ROUTE) logical += 1;
    return send(spec);
  });
  const client = await clientFor(sandbox, account, { hooks });
  const engine = createEnrichmentEngine({
    client,
    dailyNewRecordCap: 100_000,
    companionFields: variant.includes("every") ? "all" : variant.startsWith("no ") ? "none" : "recent",
  });
  const random = seededRandom(11);
  const gap = order === "column by column" ? () => 50 : order === "row by row" ? () => 20 : () => Math.round(random() * 100);
  sandbox.ctx.stats.reset();
  const started = performance.now();
  const outcome = await calculate(
    order,
    ids,
    FIELDS,
    (cell) => engine.getCells("company", cell.id, cell.field).then((r) => r.ok),
    async () => void (await sleep(gap())),
  );
  const wallMs = performance.now() - started;
  await engine.whenIdle();
  const http = sandbox.ctx.stats.requests.get(ENRICH_ROUTE) ?? 0;
  // The same sheet again: answered from the cache (cells in error are asked again).
  const before = logical;
  await calculate(
    "all at once",
    ids,
    FIELDS,
    (cell) => engine.getCells("company", cell.id, cell.field).then((r) => r.ok),
    async () => undefined,
  );
  await engine.whenIdle();
  const summary = (await (await fetch(`${sandbox.url}/__sandbox/accounts/${account}?page[size]=1`)).json()) as {
    credits: number;
    initialCredits: number;
    underManagement: { company: number };
  };
  const doubleCharges = summary.initialCredits - summary.credits - summary.underManagement.company;
  return { order, variant, logical: before, http, wallMs, settled: outcome.settled, ok: outcome.ok, recalcRequests: logical - before, doubleCharges };
}

function print(rows: Row[]): void {
  console.log(
    `10,000 cells = ${IDS} company ids x ${FIELDS.length} fields; sandbox latency ${LATENCY_MS} ms, ${RATE} requests/s; ` +
      `floor: ${FLOOR_REQUESTS} requests, ${(FLOOR_MS / 1000).toFixed(2)} s`,
  );
  const header = [
    "variant",
    "order",
    "requests",
    "x floor",
    "HTTP",
    "wall time",
    "x floor",
    "cells settled",
    "with a value",
    "double charges",
    "recalc requests",
  ];
  const table = rows.map((r) => [
    r.variant,
    r.order,
    String(r.logical),
    (r.logical / FLOOR_REQUESTS).toFixed(2),
    String(r.http),
    `${(r.wallMs / 1000).toFixed(2)} s`,
    (r.wallMs / FLOOR_MS).toFixed(2),
    `${((r.settled / (IDS * FIELDS.length)) * 100).toFixed(0)}%`,
    String(r.ok),
    String(r.doubleCharges),
    String(r.recalcRequests),
  ]);
  printTable(header, table, 2);
  console.log("requests: logical requests the engine sent (a retry is the same request); HTTP: requests the sandbox received, retries included.");
  console.log("The runtime ships 'every field rides along' (credits are per record, so the next columns come free).");
  console.log(
    "Aim: requests <= 1.10 x floor in every order, 0 double charges, 0 on recalculation. Wall time counts from the first cell to the last answer, pauses of the order included.",
  );
}
