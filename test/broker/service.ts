// An in-process stand-in for the service behind the relay, for tests on a hand-stepped clock:
// it answers at once (no network), records when each request reached it, and refuses tokens
// the real service would (unsigned ones, and those whose signature part says "forged").
import type { FakeClock } from "../core/api/scripted.js";

export interface ServiceCall {
  at: number;
  url: string;
  authorization: string;
}

export interface FakeService {
  fetch: typeof fetch;
  calls: ServiceCall[];
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

/** True for a token the service would refuse: unsigned (alg none, empty signature) or marked forged. */
export const refusedToken = (authorization: string) => /\.$/.test(authorization) || authorization.endsWith(".forged") || !/^Bearer \S+$/.test(authorization);

export function fakeService(clock: FakeClock, answer: (call: ServiceCall) => Response | undefined = () => undefined): FakeService {
  const calls: ServiceCall[] = [];
  const fetchFake = (async (input: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    const call = { at: clock.now(), url: String(input), authorization: headers.get("authorization") ?? "" };
    calls.push(call);
    const special = answer(call);
    if (special) return special;
    if (refusedToken(call.authorization))
      return json(401, { errors: [{ status: "401", code: "PFAPI0001", detail: "invalid token" }] }, { "www-authenticate": "Bearer" });
    return json(200, { data: [] }, { "x-ratelimit-remaining-second": "4" });
  }) as typeof fetch;
  return { fetch: fetchFake, calls };
}

export interface Sent {
  label: string;
  sentAt: number;
  answeredAt?: number;
  status?: number;
}

/**
 * Runs a schedule of requests on the fake clock, stepping it `stepMs` at a time, and then long
 * enough for every queue to drain; returns each request's timing and status.
 */
export async function runSchedule(
  clock: FakeClock,
  schedule: { at: number; label: string; send: () => Promise<{ statusCode: number }> }[],
  stepMs = 20,
): Promise<Sent[]> {
  const sorted = [...schedule].sort((a, b) => a.at - b.at);
  const sent: Sent[] = [];
  const pending: Promise<void>[] = [];
  const start = clock.now();
  const end = start + (sorted.at(-1)?.at ?? 0) + 30_000;
  let next = 0;
  for (let t = start; t <= end; t += stepMs) {
    await clock.advanceTo(t);
    for (; next < sorted.length && start + sorted[next]!.at <= t; next += 1) {
      const entry: Sent = { label: sorted[next]!.label, sentAt: clock.now() };
      sent.push(entry);
      pending.push(
        sorted[next]!.send().then((res) => {
          entry.answeredAt = clock.now();
          entry.status = res.statusCode;
        }),
      );
    }
    if (next >= sorted.length && sent.every((s) => s.status !== undefined)) break;
  }
  await Promise.all(pending);
  return sent;
}
