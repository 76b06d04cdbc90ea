// A team of one organization through the broker's relay with central pacing (`npm run bench --
// team-relay`): N users of one account (N = 1, 5, 20), each enriching 1,000 distinct company
// ids at once, against the sandbox at 25 requests/s with 40 ms latency. The relay paces the
// tenant at its package rate; the figures set beside the tenant floor (N x 40 requests at
// 25/s) are failures, requests sent vs useful, the share the service refused (goal 0), the
// team's wall time and the slowest user against the fastest.
import { buildBroker } from "../src/broker/app.js";
import { createServiceClient, fetchTransport } from "../src/core/api/index.js";
import { createEnrichmentEngine } from "../src/core/enrich/index.js";
import { companyIds, LATENCY_MS, post, RATE, startBenchSandbox } from "./lib/sandbox.js";

const TEAM_SIZES = [1, 5, 20];
const IDS_PER_USER = 1000;
const BATCH = 25;
const ENRICH = "POST /data/v1/companies/enrich";
const OUTPUT_FIELDS = ["name", "revenue", "website", "country"];
const ORIGIN = "https://addin.example.com";

interface TeamRow {
  users: number;
  failed: number;
  sent: number;
  useful: number;
  refusedByService: number;
  /** 429s the users' clients received from the relay. */
  refusedToUsers: number;
  /** Slots the pacer let pass because its timer fired too late to keep the spacing. */
  lateSlots: number;
  wallMs: number;
  slowestMs: number;
  fastestMs: number;
}

async function enrichRequests(sandboxUrl: string): Promise<number> {
  const stats = (await (await fetch(`${sandboxUrl}/__sandbox/stats`)).json()) as { requests: Record<string, number> };
  return stats.requests[ENRICH] ?? 0;
}

async function userToken(sandboxUrl: string, account: string, subject: string): Promise<string> {
  const answer = (await (
    await fetch(`${sandboxUrl}/__sandbox/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ account, subject, expiresIn: 3600 }),
    })
  ).json()) as {
    access_token: string;
  };
  return answer.access_token;
}

export async function benchTeamRelay(): Promise<void> {
  const sandbox = await startBenchSandbox({ contacts: 100 });
  // What the service answered the relay, counted at the broker's upstream edge.
  const upstreamStatuses = new Map<number, number>();
  let lateSlots = 0;
  const counting = (async (...args: Parameters<typeof fetch>) => {
    const response = await fetch(...args);
    upstreamStatuses.set(response.status, (upstreamStatuses.get(response.status) ?? 0) + 1);
    return response;
  }) as typeof fetch;
  const { app } = await buildBroker(
    {
      upstream: `${sandbox.url}/oauth/token`,
      clientId: "bench",
      clientSecret: "bench-secret",
      allowOrigins: [ORIGIN],
      relay: sandbox.url,
      pacing: { perSecond: RATE },
    },
    { log: false, fetch: counting, onPacingEvent: (event) => void (event === "late" ? (lateSlots += 1) : undefined) },
  );
  const relayUrl = await app.listen({ port: 0, host: "127.0.0.1" });
  // A browser adds the page's origin; the bench's clients say it themselves.
  let refusedToUsers = 0;
  const fromAddin = fetchTransport(async (url, init) => {
    const response = await fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), origin: ORIGIN } });
    if (response.status === 429) refusedToUsers += 1;
    return response;
  });
  try {
    const ids = await companyIds(sandbox, IDS_PER_USER);
    console.log(
      `Sandbox: ${RATE} requests/s per account, ${LATENCY_MS} ms latency; relay pacing at ${RATE}/s per tenant (in memory, one instance); each user enriches ${IDS_PER_USER} distinct ids.`,
    );
    const rows: TeamRow[] = [];
    for (const users of TEAM_SIZES) {
      const account = `team-relay-${users}`;
      await post(sandbox, "/__sandbox/accounts", { id: account, credits: 100_000 });
      const clients = await Promise.all(
        Array.from({ length: users }, async (_, i) => {
          const token = await userToken(sandbox.url, account, `user-${i}@${account}`);
          return createServiceClient({ baseUrl: relayUrl, getAccessToken: async () => token, rateLimit: { perSecond: RATE }, fetch: fromAddin });
        }),
      );
      // Let the service's one-second window start empty, so each team size is measured alike.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const sentBefore = await enrichRequests(sandbox.url);
      upstreamStatuses.clear();
      refusedToUsers = 0;
      lateSlots = 0;
      const started = performance.now();
      const outcomes = await Promise.all(
        clients.map(async (client) => {
          const t0 = performance.now();
          try {
            // Through the enrichment pipeline (25 ids a request), as a user's Enrich selection does.
            const results = await createEnrichmentEngine({ client, dailyNewRecordCap: IDS_PER_USER, companionFields: "none" }).enrichIds(
              "company",
              ids,
              OUTPUT_FIELDS,
              { concurrency: 64 },
            );
            const matched = [...results.values()].filter((r) => r.ok).length;
            return { ok: matched === IDS_PER_USER, ms: performance.now() - t0 };
          } catch {
            return { ok: false, ms: performance.now() - t0 };
          }
        }),
      );
      const wallMs = performance.now() - started;
      const times = outcomes.map((o) => o.ms);
      rows.push({
        users,
        failed: outcomes.filter((o) => !o.ok).length,
        sent: (await enrichRequests(sandbox.url)) - sentBefore,
        useful: users * Math.ceil(IDS_PER_USER / BATCH),
        refusedByService: upstreamStatuses.get(429) ?? 0,
        refusedToUsers,
        lateSlots,
        wallMs,
        slowestMs: Math.max(...times),
        fastestMs: Math.min(...times),
      });
    }
    print(rows);
  } finally {
    await app.close();
    await sandbox.close();
  }
}

function print(rows: TeamRow[]): void {
  console.table(
    rows.map((r) => {
      const floorMs = ((r.users * Math.ceil(IDS_PER_USER / BATCH)) / RATE) * 1000;
      return {
        users: r.users,
        "enrichments failed": `${r.failed} of ${r.users}`,
        "requests sent / useful": `${r.sent} / ${r.useful}`,
        "refused by the service": `${r.refusedByService} (${((100 * r.refusedByService) / Math.max(1, r.sent)).toFixed(1)}%)`,
        "refused to users": r.refusedToUsers,
        "slots lost to late timers": r.lateSlots,
        "team wall s": (r.wallMs / 1000).toFixed(2),
        "tenant floor s": (floorMs / 1000).toFixed(2),
        "wall / floor": (r.wallMs / floorMs).toFixed(3),
        "slowest / fastest": (r.slowestMs / r.fastestMs).toFixed(2),
      };
    }),
  );
  console.log(
    "Goals: 0 failures; refused 0 (the relay paces the tenant); wall / floor <= 1.10 (the pacing's 2% margin makes 1.02 the best); slowest / fastest <= 1.5.",
  );
}
