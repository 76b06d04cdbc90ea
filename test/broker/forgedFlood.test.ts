// A flood of forged tokens naming an organization, each first answered 404 by the service (as a
// gateway that routes before it authenticates would) and then kept in flight, must neither prove
// them nor let them take the organization's slots: its real user's probes are all served. With
// the service's key set, tokens signed by a key it does not publish (an unknown key id) are
// refused by the relay itself. Time is the broker's hand-stepped clock; the probes' times (on it)
// are printed, not asserted.
import assert from "node:assert/strict";
import { after, before, describe, it, type TestContext } from "node:test";
import { FakeClock } from "../core/api/scripted.js";
import { ADDIN, brokerFor } from "./helpers.js";
import { runSchedule, type Sent } from "./service.js";
import { startKeySet, unsignedToken, type KeySet } from "./tokens.js";
import type { FakeUpstream } from "./upstream.js";

const RATE = 5;
const HOUR = 3600;
const FORGED = 300;
/** The forged tokens come from this many addresses (each address's probation lane is bounded). */
const ADDRESSES = 30;
const NOWHERE = { url: "http://127.0.0.1:9" } as FakeUpstream;

/**
 * The service: the real user's token answered 200; a forged one answered 404 the first time
 * (before its token is looked at) and then never (kept in flight until the relay's time limit).
 */
function floodedService(realToken: string) {
  const seen = new Set<string>();
  const calls = { real: 0, forged: 0 };
  const fetchFake = (async (_input: string | URL | Request, init?: RequestInit) => {
    const authorization = new Headers(init?.headers).get("authorization") ?? "";
    const json = (status: number) => new Response(JSON.stringify(status === 200 ? { data: [] } : { error: { code: "ZI9998" } }), { status });
    if (authorization === `Bearer ${realToken}`) {
      calls.real += 1;
      return json(200);
    }
    calls.forged += 1;
    if (!seen.has(authorization)) {
      seen.add(authorization);
      return json(404);
    }
    return new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason), { once: true }));
  }) as typeof fetch;
  return { fetch: fetchFake, calls };
}

async function flood(t: TestContext, clock: FakeClock, real: string, forged: string[], options: { jwksUrl?: string } = {}) {
  const service = floodedService(real);
  const released: number[] = [];
  const app = await brokerFor(
    NOWHERE,
    { pacing: { perSecond: RATE, ...options } },
    { clock, fetch: service.fetch, onPacingEvent: (e) => e === "released" && released.push(clock.now()) },
  );
  const get = (token: string, from: string) =>
    app.inject({ method: "GET", url: "/data/v1/users/usage", remoteAddress: from, headers: { origin: ADDIN, authorization: `Bearer ${token}` } });
  const from = (i: number) => `203.0.113.${i % ADDRESSES}`;
  const schedule = [
    // Each forged token once (answered 404), then once more (kept in flight).
    ...forged.map((token, i) => ({ at: i * 5, label: "forged", send: () => get(token, from(i)) })),
    ...forged.map((token, i) => ({ at: 2000 + i * 5, label: "forged", send: () => get(token, from(i)) })),
    // The real user probes every 500 ms from her office.
    ...Array.from({ length: 12 }, (_, i) => ({ at: 1000 + i * 500, label: "probe", send: () => get(real, "198.51.100.7") })),
    // The clock runs on until every forged request has been answered (held ones by the time limits).
    { at: 60_000, label: "end", send: async () => ({ statusCode: 0 }) },
  ];
  let sent: Sent[];
  try {
    sent = await runSchedule(clock, schedule);
  } finally {
    await app.close();
  }
  const probes = sent.filter((s) => s.label === "probe");
  const waits = probes.map((p) => p.answeredAt! - p.sentAt);
  t.diagnostic(`probes answered after ${waits.join(", ")} ms on the broker's clock (slowest ${Math.max(...waits)} ms)`);
  return { probes, forged: sent.filter((s) => s.label === "forged"), released, calls: service.calls };
}

describe("a flood of forged tokens first answered 404 by the service", () => {
  it("proves none of them: the real user's probes are all served and only hers take the organization's slots", async (t) => {
    const clock = new FakeClock(5);
    const real = unsignedToken({ account: "acme", sub: "alice", exp: HOUR });
    const forged = Array.from({ length: FORGED }, (_, i) => unsignedToken({ account: "acme", sub: `x${i}`, exp: HOUR }));
    const { probes, forged: answers, released } = await flood(t, clock, real, forged);
    assert.deepEqual(
      probes.map((p) => p.status),
      Array(probes.length).fill(200),
    );
    assert.equal(released.length, probes.length - 1, "the organization's slots went to her requests only (her first proved her token)");
    assert.ok(
      answers.every((s) => s.status !== 200),
      "no forged request was answered as accepted",
    );
    assert.equal(answers.filter((s) => s.status === 404).length, FORGED, "each forged token's first request got the service's 404");
  });
});

describe("a flood of tokens signed by a key the service does not publish (key-set mode)", () => {
  let keys: KeySet;
  before(async () => {
    keys = await startKeySet();
  });
  after(() => keys.close());

  it("refuses them at the relay after one more fetch of the key set: the real user's probes are all served", async (t) => {
    const clock = new FakeClock(5);
    const exp = HOUR;
    const real = await keys.sign({ account: "acme", sub: "alice", exp });
    const unknownKid = await Promise.all(
      Array.from({ length: FORGED }, (_, i) => keys.sign({ account: "acme", sub: `x${i}`, exp }, { key: "unpublished", kid: "rotated-in-secret" })),
    );
    const fetchesBefore = keys.fetches;
    const { probes, forged: answers, released, calls } = await flood(t, clock, real, unknownKid, { jwksUrl: keys.url });
    assert.deepEqual(
      probes.map((p) => p.status),
      Array(probes.length).fill(200),
    );
    assert.equal(released.length, probes.length, "her signed token took the organization's slots from its first request; no forged one did");
    assert.deepEqual(new Set(answers.map((s) => s.status)), new Set([401]), "every forged request refused by the relay");
    assert.equal(calls.forged, 0, "none reached the service");
    assert.ok(keys.fetches - fetchesBefore <= 2, `the key set was fetched ${keys.fetches - fetchesBefore} times (once, and once more for the unknown key)`);
  });
});
