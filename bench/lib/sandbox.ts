// The sandbox the enrichment benches measure against, and what they do with it: the service's
// pace (RATE requests a second, LATENCY_MS per answer), accounts with credits, development
// tokens, clients, the first company ids, and the credits an account has spent.
import { createServiceClient, type ServiceClient, type ServiceClientOptions } from "../../src/core/api/index.js";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server.js";

export const RATE = 25;
export const LATENCY_MS = 40;

/** An in-process sandbox over HTTP at the bench pace, with 2,000 companies. */
export function startBenchSandbox(options: { contacts: number }): Promise<RunningSandbox> {
  return startSandbox({
    companies: 2000,
    contacts: options.contacts,
    http: true,
    port: 0,
    host: "127.0.0.1",
    rateLimit: { perSecond: RATE },
    faults: { latencyMs: LATENCY_MS },
  });
}

export async function post(sandbox: RunningSandbox, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${sandbox.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return response.json();
}

/** Creates `account` with 100,000 credits, or resets it: full balance, nothing under management. */
export async function resetAccount(sandbox: RunningSandbox, account: string): Promise<void> {
  await post(sandbox, "/__sandbox/accounts", { id: account, credits: 100_000 });
}

/** Creates `account` with 100,000 credits and returns a development token for it. */
export async function devToken(sandbox: RunningSandbox, account: string): Promise<string> {
  await post(sandbox, "/__sandbox/accounts", { id: account, credits: 100_000 });
  const answer = (await post(sandbox, "/__sandbox/token", { account, expiresIn: 3600 })) as { access_token: string };
  return answer.access_token;
}

/** A client for a new `account`, at the bench's rate. */
export async function clientFor(sandbox: RunningSandbox, account: string, options: Partial<ServiceClientOptions> = {}): Promise<ServiceClient> {
  const token = await devToken(sandbox, account);
  return createServiceClient({ baseUrl: sandbox.url, getAccessToken: async () => token, rateLimit: { perSecond: RATE }, ...options });
}

/** The first `count` company ids by name. */
export async function companyIds(sandbox: RunningSandbox, count: number): Promise<number[]> {
  const client = await clientFor(sandbox, "bench-setup");
  const ids: number[] = [];
  for await (const page of client.iterateCompanies({}, { pageSize: 100, maxResults: count, sort: "name" })) {
    ids.push(...page.items.map((item) => Number(item.id)));
  }
  return ids.slice(0, count);
}

export async function creditsUsed(sandbox: RunningSandbox, account: string): Promise<number> {
  const summary = (await (await fetch(`${sandbox.url}/__sandbox/accounts/${account}`)).json()) as { credits: number; initialCredits: number };
  return summary.initialCredits - summary.credits;
}

/** Runs `work` with the sandbox's counters reset: the requests the sandbox received on `route`, the credits `account` spent, the wall time. */
export async function metered<T>(
  sandbox: RunningSandbox,
  account: string,
  route: string | RegExp,
  work: () => Promise<T>,
): Promise<{ value: T; requests: number; credits: number; wallMs: number }> {
  sandbox.ctx.stats.reset();
  const before = await creditsUsed(sandbox, account);
  const started = performance.now();
  const value = await work();
  const wallMs = performance.now() - started;
  return { value, requests: requestsOn(sandbox, route), credits: (await creditsUsed(sandbox, account)) - before, wallMs };
}

/** Requests the sandbox received on one route, or on every route a pattern matches. */
function requestsOn(sandbox: RunningSandbox, route: string | RegExp): number {
  if (typeof route === "string") return sandbox.ctx.stats.requests.get(route) ?? 0;
  let n = 0;
  for (const [name, count] of sandbox.ctx.stats.requests) if (route.test(name)) n += count;
  return n;
}
