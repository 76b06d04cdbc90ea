// Sandbox figures, side by side with their aims: company search throughput and p50/p95 latency
// for a mix of filters and of the partition planner's count probes on 20,000 and on 1,000,000
// companies, and start-up time after the first seeding. The sandbox runs as one process of its
// own (as `npm run sandbox` does; one thread answers the searches) and is driven over loopback
// by a fixed number of concurrent clients on keep-alive connections, so latency includes waiting
// behind the other clients' requests.
// SANDBOX_BENCH_SIZES=20000 skips the large set (its first seeding takes minutes).
import { spawn, type ChildProcess } from "node:child_process";
import { Agent, request } from "node:http";
import { availableParallelism } from "node:os";
import { createInterface } from "node:readline";
import { dimensionsFor, narrow, splitPoint } from "../src/core/search/partition.js";

interface Size {
  companies: number;
  requests: number;
  concurrency: number;
  /** Whether the varying queries change their value on every request (cold counts). */
  vary: boolean;
  label: string;
}

const SIZES: Size[] = [
  { companies: 20_000, requests: 3000, concurrency: 8, vary: true, label: "20,000 (values vary)" },
  { companies: 20_000, requests: 3000, concurrency: 8, vary: false, label: "20,000 (filters repeat)" },
  { companies: 1_000_000, requests: 1400, concurrency: 8, vary: true, label: "1,000,000 (values vary)" },
];
const WARMUP = 60;
/** Aims by size: 20,000 from the sandbox's first figures; 1,000,000 from issue 15 (searches and count probes). */
const AIMS: Record<number, { p95Ms: number; throughput?: number }> = { 20_000: { p95Ms: 20, throughput: 1000 }, 1_000_000: { p95Ms: 100 } };
const STARTUP_AIM_S = 3;

/**
 * The filter mix: common form searches, a radius, list filters, text, a deep page. Several
 * queries take a value that changes with every request, so their counts are not cached.
 */
const NAME_WORDS = ["Harbor", "Summit", "Granite", "Cedar", "Falcon", "Beacon", "Orion", "Cobalt", "Ridge", "Forge", "Valley", "Stream"];
const ZIPS = ["94105", "10001", "60601", "02108", "98101", "78701", "30303", "80202"];
const RADII = [10, 25, 50, 100];
/**
 * Count probes as the partition planner sends them (src/core/search/partition.ts): page size 1,
 * the search's own sort, its filters narrowed by a range of the sort's first splitting dimension,
 * the range being a node of the planner's split tree (depth and branch vary with the request).
 */
const TERRITORIES: { name: string; filters: Record<string, unknown>; sort: string }[] = [
  { name: "United States, -revenue", filters: { country: "United States" }, sort: "-revenue" },
  { name: "Europe, certified, -revenue", filters: { continent: "Europe", certified: 1 }, sort: "-revenue" },
  { name: "software, 50-1,000 employees, name", filters: { industryCodes: "software", employeeRangeMin: "50", employeeRangeMax: "1000" }, sort: "name" },
  { name: "50+ employees, not defunct, employeeCount", filters: { employeeRangeMin: "50", excludeDefunctCompanies: true }, sort: "employeeCount" },
];

function probe(t: (typeof TERRITORIES)[number], round: number): Record<string, unknown> {
  const dims = dimensionsFor("company", t.sort);
  const d = dims[0]!;
  const read = (v: unknown) => (v === undefined ? undefined : Number(v));
  let lo = Math.max(d.floor, read(t.filters[d.minFilter]) ?? d.floor);
  let hi = Math.min(d.ceiling, read(t.filters[d.maxFilter]) ?? d.ceiling);
  const depth = round % 12;
  let path = Math.imul(round + 1, 2654435761) >>> 0;
  for (let level = 0; level < depth && lo < hi; level++, path >>>= 1) {
    const mid = splitPoint(lo, hi);
    if (path & 1) lo = mid + 1;
    else hi = mid;
  }
  return narrow(t.filters, [{ dimension: 0, lo, hi }], dims);
}

const MIX: { name: string; query: string; probe?: boolean; attributes: (i: number) => Record<string, unknown> }[] = [
  { name: "no filter, -revenue", query: "", attributes: () => ({}) },
  { name: "state", query: "", attributes: () => ({ state: "California" }) },
  { name: "industry + revenueMin (varies)", query: "", attributes: (i) => ({ industryCodes: "software", revenueMin: 1000 + (i % 9973) * 3 }) },
  {
    name: "zip radius (varies)",
    query: "",
    attributes: (i) => ({ zipCode: ZIPS[i % ZIPS.length], zipCodeRadiusMiles: RADII[Math.floor(i / ZIPS.length) % RADII.length] }),
  },
  {
    name: "country + employees (varies)",
    query: "",
    attributes: (i) => ({ country: "United States", employeeRangeMin: String(50 + (i % 4999)), employeeRangeMax: "5000", certified: 1 }),
  },
  { name: "tech tags, not defunct", query: "", attributes: () => ({ techAttributeTagList: "snowflake,databricks", excludeDefunctCompanies: true }) },
  { name: "recent funding round", query: "", attributes: () => ({ recentFundingRoundTypes: ["series-a", "series-b"] }) },
  { name: "metro, sort name", query: "?sort=name", attributes: () => ({ metroRegion: "usa.new_york.new_york" }) },
  { name: "company name word (varies)", query: "", attributes: (i) => ({ companyName: NAME_WORDS[i % NAME_WORDS.length] }) },
  { name: "page 40 of 100", query: "?page[number]=40&page[size]=100", attributes: () => ({}) },
  ...TERRITORIES.map((t) => ({
    name: `probe: ${t.name}`,
    query: `?page[size]=1&sort=${encodeURIComponent(t.sort)}`,
    probe: true,
    attributes: (i: number) => probe(t, i),
  })),
];

interface Started {
  child: ChildProcess;
  url: string;
  startupMs: number;
}

function startSandboxProcess(companies: number): Promise<Started> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "src/sandbox/main.ts",
      "--http",
      "--port",
      "0",
      "--companies",
      String(companies),
      "--data-dir",
      `.sandbox/bench-${companies}`,
      "--rate-per-second",
      "1000000",
      "--rate-per-hour",
      "100000000",
      "--rate-per-day",
      "1000000000",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", (line) => {
      const match = /^Sandbox listening on (\S+)$/.exec(line);
      if (!match) reject(new Error(`unexpected first line: ${line}`));
      else resolve({ child, url: match[1]!, startupMs: performance.now() - started });
    });
    child.once("exit", (code) => reject(new Error(`sandbox exited with ${code}: ${stderr}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

function post(agent: Agent, url: URL, path: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ agent, host: url.hostname, port: url.port, path, method: "POST", headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(body);
  });
}

interface Measured {
  throughput: number;
  p50: number;
  p95: number;
  p99: number;
  searches: number[];
  probes: number[];
  perQuery: Map<string, number[]>;
  errors: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function drive(baseUrl: string, total: number, concurrency: number, vary: boolean): Promise<Measured> {
  const url = new URL(baseUrl);
  const tokenRes = await fetch(`${baseUrl}/__sandbox/token`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  const token = ((await tokenRes.json()) as { access_token: string }).access_token;
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const headers = (body: string) => ({
    authorization: `Bearer ${token}`,
    "content-type": "application/vnd.api+json",
    "content-length": String(Buffer.byteLength(body)),
  });
  const one = async (i: number) => {
    const k = i % MIX.length;
    const body = JSON.stringify({ data: { type: "CompanySearch", attributes: MIX[k]!.attributes(vary ? Math.floor(i / MIX.length) : 0) } });
    const t = performance.now();
    const status = await post(agent, url, `/data/v1/companies/search${MIX[k]!.query}`, headers(body), body);
    return { k, ms: performance.now() - t, ok: status === 200 };
  };
  for (let i = 0; i < WARMUP; i++) await one(i);
  const latencies: number[] = [];
  const searches: number[] = [];
  const probes: number[] = [];
  const perQuery = new Map<string, number[]>();
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const r = await one(next++);
        latencies.push(r.ms);
        (MIX[r.k]!.probe ? probes : searches).push(r.ms);
        const list = perQuery.get(MIX[r.k]!.name) ?? [];
        list.push(r.ms);
        perQuery.set(MIX[r.k]!.name, list);
        if (!r.ok) errors++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  for (const l of [latencies, searches, probes]) l.sort((a, b) => a - b);
  return {
    throughput: total / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    searches,
    probes,
    perQuery,
    errors,
  };
}

const pad = (s: string, n: number) => s.padEnd(n);
// "values vary": the varying queries of the mix take a new value on every request, so their
// counts are computed cold; "filters repeat": the same ten filter sets again and again, as a
// client paging through results does (counts cached, pages read).
const ms = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? "-" : `${n.toFixed(1)} ms`);

export async function benchSandbox(): Promise<void> {
  const only = (process.env.SANDBOX_BENCH_SIZES ?? "").split(",").filter(Boolean).map(Number);
  const sizes = only.length ? SIZES.filter((s) => only.includes(s.companies)) : SIZES;
  const results: { size: Size; startup: number; firstStart: number; m: Measured }[] = [];
  for (const size of sizes) {
    // The first start may seed (minutes for 1,000,000); the second shows the start-up time.
    const first = await startSandboxProcess(size.companies);
    await stop(first.child);
    const second = await startSandboxProcess(size.companies);
    try {
      const m = await drive(second.url, size.requests, size.concurrency, size.vary);
      results.push({ size, startup: second.startupMs, firstStart: first.startupMs, m });
    } finally {
      await stop(second.child);
    }
  }
  const cols = results.map((r) => r.size.label);
  const line = (label: string, values: string[]) => console.log(`${pad(label, 52)}${values.map((v) => pad(v, 30)).join("")}`);
  const aim = (r: (typeof results)[number]) => AIMS[r.size.companies];
  const beside = (measured: string, aimed: string | undefined) => (aimed ? `${measured} (aim ${aimed})` : measured);
  console.log(
    `One sandbox process (one thread answers searches) on this machine's ${availableParallelism()} cores, driven over loopback by concurrent keep-alive clients; latency includes waiting behind the other clients.`,
  );
  line("company search (companies)", cols);
  line(
    "requests (concurrent clients)",
    results.map((r) => `${r.size.requests} (${r.size.concurrency})`),
  );
  line(
    "throughput",
    results.map((r) => beside(`${r.m.throughput.toFixed(0)} req/s`, aim(r)?.throughput ? `> ${aim(r)!.throughput}` : undefined)),
  );
  line(
    "p50 latency, all",
    results.map((r) => ms(r.m.p50)),
  );
  line(
    "p95 latency, all",
    results.map((r) => beside(ms(r.m.p95), `< ${aim(r)?.p95Ms} ms`)),
  );
  line(
    "p99 latency, all",
    results.map((r) => ms(r.m.p99)),
  );
  line(
    "p95 latency, searches",
    results.map((r) => beside(ms(percentile(r.m.searches, 95)), `< ${aim(r)?.p95Ms} ms`)),
  );
  line(
    "p95 latency, count probes",
    results.map((r) => beside(ms(percentile(r.m.probes, 95)), `< ${aim(r)?.p95Ms} ms`)),
  );
  line(
    "non-200 answers",
    results.map((r) => beside(String(r.m.errors), "0")),
  );
  line(
    "start-up after first seeding",
    results.map((r) => beside(`${(r.startup / 1000).toFixed(2)} s`, `< ${STARTUP_AIM_S} s`)),
  );
  line(
    "first start (seeds if new)",
    results.map((r) => `${(r.firstStart / 1000).toFixed(1)} s`),
  );
  console.log("\np50 / p95 by query of the mix");
  for (const q of MIX) {
    line(
      `  ${q.name}`,
      results.map((r) => {
        const l = [...(r.m.perQuery.get(q.name) ?? [])].sort((a, b) => a - b);
        return `${ms(percentile(l, 50))} / ${ms(percentile(l, 95))}`;
      }),
    );
  }
}
