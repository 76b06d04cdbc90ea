// A team on one organization's bucket, on the fake clock: a service that counts every client's
// requests in fixed one-second windows (as the sandbox and the real gateway do) and answers
// after a fixed latency, and N clients of one account sending at once.
import { createServiceClient, type RequestPriority, type ServiceClient } from "../../../src/core/api/index.js";
import { answer, companyPage, FakeClock, scriptedTransport, tokenSource } from "./scripted.js";

export interface TenantOptions {
  perSecond: number;
  latencyMs: number;
}

/** The service side: one per-second bucket for the whole organization. */
export function simulatedTenant(clock: FakeClock, options: TenantOptions) {
  let window = -1;
  let used = 0;
  const stats = { accepted: 0, refused: 0, perWindow: new Map<number, { accepted: number; refused: number }>() };
  const handler = async () => {
    await clock.sleep(options.latencyMs);
    const now = clock.now();
    const current = Math.floor(now / 1000);
    if (current !== window) {
      window = current;
      used = 0;
    }
    const headers: Record<string, string> = { "X-RateLimit-Limit-Second": String(options.perSecond), "X-RateLimit-Reset-Second": String(current + 1) };
    const w = stats.perWindow.get(current) ?? { accepted: 0, refused: 0 };
    stats.perWindow.set(current, w);
    if (used >= options.perSecond) {
      w.refused += 1;
      stats.refused += 1;
      headers["X-RateLimit-Remaining-Second"] = "0";
      headers["Retry-After"] = String(Math.max(1, Math.ceil(((current + 1) * 1000 - now) / 1000)));
      headers["X-RateLimit-Rejected-Bucket"] = "second";
      return answer(429, { errors: [{ status: "429", code: "RATE_LIMITED", title: "Too many requests" }] }, headers);
    }
    used += 1;
    w.accepted += 1;
    stats.accepted += 1;
    headers["X-RateLimit-Remaining-Second"] = String(options.perSecond - used);
    return answer(200, companyPage([1], 1, 1, 1), headers);
  };
  return { handler, stats };
}

/** A small deterministic generator, one seed per client, so runs repeat exactly. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 4294967296;
  };
}

export function teamClient(clock: FakeClock, tenant: ReturnType<typeof simulatedTenant>, seed: number): ServiceClient {
  return createServiceClient({
    baseUrl: "https://api.test",
    getAccessToken: tokenSource().getAccessToken,
    fetch: scriptedTransport(clock, tenant.handler),
    clock,
    random: seeded(seed),
    rateLimit: { perSecond: 25 },
  });
}

/** `requests` one-result searches at once, as a client's batch of work; resolves with its end time. */
export async function burst(client: ServiceClient, clock: FakeClock, requests: number, priority: RequestPriority = "bulk"): Promise<number> {
  await Promise.all(Array.from({ length: requests }, (_, i) => client.searchCompanies({}, { page: i + 1, size: 1, priority })));
  return clock.now();
}
