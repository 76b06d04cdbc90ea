// Service client figures, side by side with the naive way, against the sandbox with 40 ms
// latency and a 25 requests/second limit: enriching 10,000 unique ids (client: batches of 25,
// paced; naive: one request per id, one after another) and reading 10,000 search results
// (client: pages fetched concurrently within the limit; naive: page by page).
import { createServiceClient, type LogEntry } from "../src/core/api/index.js";
import type { MatchCompanyInput } from "../src/core/contract/index.js";
import { createEnrichmentEngine } from "../src/core/enrich/index.js";
import { startTestSandbox, type TestSandbox } from "../test/helpers/sandbox.js";

const RATE = 25;
const LATENCY_MS = 40;
const N = 10_000;
/** The naive enrichment is run on this many ids and extrapolated to N (it is linear). */
const NAIVE_ENRICH_SAMPLE = 500;
const SEARCH = "POST /data/v1/companies/search";
const ENRICH = "POST /data/v1/companies/enrich";
const OUTPUT_FIELDS = ["name", "revenue", "website", "country"];

interface Row {
  what: string;
  requests: number;
  wallMs: number;
  refused429: number;
  note?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Lets the sandbox's one-second window start empty, so each run is measured alike. */
const nextWindow = () => sleep(1100);

/** One plain request; on a 429 it waits Retry-After and tries again (what a careful naive caller does). */
async function plainPost(sb: TestSandbox, token: string, path: string, body: unknown, counts: { refused: number }): Promise<unknown> {
  for (;;) {
    const res = await fetch(`${sb.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/vnd.api+json" },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status === 429) {
      counts.refused += 1;
      await sleep(Number(res.headers.get("retry-after") ?? "1") * 1000);
      continue;
    }
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${text.slice(0, 200)}`);
    return JSON.parse(text) as unknown;
  }
}

function print(rows: Row[]): void {
  const floor = (r: Row) => (r.requests / RATE) * 1000;
  const table = rows.map((r) => ({
    scenario: r.what,
    requests: r.requests,
    "wall s": (r.wallMs / 1000).toFixed(2),
    "floor s (requests / 25/s)": (floor(r) / 1000).toFixed(2),
    "wall / floor": (r.wallMs / floor(r)).toFixed(3),
    "429s": r.refused429,
    note: r.note ?? "",
  }));
  console.table(table);
}

export async function benchClient(): Promise<void> {
  const sb = await startTestSandbox({
    companies: N,
    contacts: 1000,
    rateLimit: { perSecond: RATE },
    faults: { latencyMs: LATENCY_MS },
  });
  try {
    await sb.setAccount("default", 10 * N);
    const token = await sb.token();
    const logs: LogEntry[] = [];
    const client = createServiceClient({
      baseUrl: sb.url,
      getAccessToken: async () => token,
      rateLimit: { perSecond: RATE },
      log: (e) => logs.push(e),
    });
    const refusedByClient = () => logs.filter((e) => e.message.includes("(rateLimited")).length;
    console.log(`Sandbox: ${N} companies, ${LATENCY_MS} ms latency, ${RATE} requests/s per account; client: default settings (25/s, 6 in flight).`);

    // ---- search: 10,000 results ----
    await nextWindow();
    sb.resetStats();
    let t0 = performance.now();
    const ids: number[] = [];
    for await (const page of client.iterateCompanies({}, { pageSize: 100 })) ids.push(...page.items.map((c) => Number(c.id)));
    const iterateRow: Row = {
      what: `iterate ${ids.length} results: client`,
      requests: sb.requests(SEARCH),
      wallMs: performance.now() - t0,
      refused429: refusedByClient(),
    };
    if (ids.length !== N || new Set(ids).size !== N) throw new Error(`iteration gave ${ids.length} results, ${new Set(ids).size} unique`);

    await nextWindow();
    sb.resetStats();
    const naiveSearch = { refused: 0 };
    t0 = performance.now();
    let seen = 0;
    for (let n = 1; n <= N / 100; n += 1) {
      const doc = (await plainPost(
        sb,
        token,
        `/data/v1/companies/search?page[number]=${n}&page[size]=100`,
        { data: { type: "CompanySearch", attributes: {} } },
        naiveSearch,
      )) as { data: unknown[] };
      seen += doc.data.length;
    }
    const sequentialRow: Row = {
      what: `iterate ${seen} results: page by page`,
      requests: sb.requests(SEARCH),
      wallMs: performance.now() - t0,
      refused429: naiveSearch.refused,
    };

    // ---- enrichment: 10,000 unique ids ----
    await nextWindow();
    sb.resetStats();
    logs.length = 0;
    const inputs: MatchCompanyInput[] = ids.map((companyId) => ({ companyId }));
    t0 = performance.now();
    // The enrichment pipeline batches them (25 a request); the client's concurrency cap paces them.
    const pipeline = createEnrichmentEngine({ client, dailyNewRecordCap: N, companionFields: "none" });
    const results = await pipeline.enrichIds("company", ids, OUTPUT_FIELDS, { concurrency: 64 });
    const enrichRow: Row = {
      what: `enrich ${N} unique ids: pipeline`,
      requests: sb.requests(ENRICH),
      wallMs: performance.now() - t0,
      refused429: refusedByClient(),
    };
    const matched = [...results.values()].filter((r) => r.ok).length;
    if (matched !== N) throw new Error(`only ${matched} of ${N} matched`);

    await nextWindow();
    sb.resetStats();
    const naiveEnrich = { refused: 0 };
    t0 = performance.now();
    for (const input of inputs.slice(0, NAIVE_ENRICH_SAMPLE)) {
      await plainPost(
        sb,
        token,
        "/data/v1/companies/enrich",
        { data: { type: "CompanyEnrich", attributes: { matchCompanyInput: [input], outputFields: OUTPUT_FIELDS } } },
        naiveEnrich,
      );
    }
    const sampleMs = performance.now() - t0;
    const scale = N / NAIVE_ENRICH_SAMPLE;
    const naiveRow: Row = {
      what: `enrich ${N} unique ids: one request per id`,
      requests: sb.requests(ENRICH) * scale,
      wallMs: sampleMs * scale,
      refused429: naiveEnrich.refused * scale,
      note: `measured on ${NAIVE_ENRICH_SAMPLE} ids (${(sampleMs / 1000).toFixed(2)} s), x${scale}`,
    };

    print([enrichRow, naiveRow, iterateRow, sequentialRow]);
    const versus = (a: Row, b: Row) =>
      `${a.requests} vs ${b.requests} requests (${(b.requests / a.requests).toFixed(1)}x fewer), ${(a.wallMs / 1000).toFixed(2)} s vs ${(b.wallMs / 1000).toFixed(2)} s (${(b.wallMs / a.wallMs).toFixed(1)}x faster)`;
    console.log(`Enrichment, client vs one request per id: ${versus(enrichRow, naiveRow)}.`);
    console.log(`Search, client vs page by page: ${versus(iterateRow, sequentialRow)}.`);
    console.log(
      `Aim: client requests = ceil(n/25) = ${Math.ceil(N / 25)} and ceil(n/100) = ${Math.ceil(N / 100)}; wall within 15% of the floor (wall / floor <= 1.15).`,
    );
  } finally {
    await sb.close();
  }
}
