// Whose requests take an organization's paced slots: tokens the service has accepted (or whose
// signature the relay verified), never forged ones. A flood of forged tokens naming an
// organization, from one address, must not keep that organization's real users waiting.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PROBATION_AT_ONCE, ProbationLanes, PROBATION_WAITING } from "../../src/broker/probation.js";
import { ProvenTokens, tokenKey } from "../../src/broker/proof.js";
import { QueueFullError } from "../../src/broker/pacing.js";
import { FakeClock } from "../core/api/scripted.js";
import { ADDIN, brokerFor } from "./helpers.js";
import { fakeService, runSchedule } from "./service.js";
import { forgedToken, startKeySet, unsignedToken, type KeySet } from "./tokens.js";
import type { FakeUpstream } from "./upstream.js";

const RATE = 5;
/** The relay target only: the fake service answers in process, nothing is sent over the network. */
const NOWHERE = { url: "http://127.0.0.1:9" } as FakeUpstream;
const HOUR = 3600;

async function pacedRelay(clock: FakeClock, service: ReturnType<typeof fakeService>, extra: { jwksUrl?: string } = {}) {
  const released: number[] = [];
  const app = await brokerFor(
    NOWHERE,
    { pacing: { perSecond: RATE, ...extra } },
    // No cooldown between key-set fetches: a rotation is seen at once, without waiting out jose's real-time cooldown.
    { clock, fetch: service.fetch, jwksCooldownMs: 0, onPacingEvent: (e) => e === "released" && released.push(clock.now()) },
  );
  const get = (token: string, from: string, priority = "interactive") =>
    app.inject({
      method: "GET",
      url: "/data/v1/users/usage",
      remoteAddress: from,
      headers: { origin: ADDIN, authorization: `Bearer ${token}`, "x-bizdata-priority": priority },
    });
  return { app, get, released };
}

describe("relay trust: forged tokens take no organization's slots", () => {
  it("keeps a real user served within 3 s while one address floods forged tokens naming the organization", async () => {
    const clock = new FakeClock(5);
    const service = fakeService(clock);
    const { app, get, released } = await pacedRelay(clock, service);
    const alice = unsignedToken({ account: "acme", sub: "alice", exp: HOUR });
    const schedule = [
      // 100 forged tokens at once, then 10 a second for 20 s.
      ...Array.from({ length: 100 }, (_, i) => ({ at: 0, label: "forged", send: () => get(forgedToken({ account: "acme", sub: `x${i}` }), "203.0.113.66") })),
      ...Array.from({ length: 200 }, (_, i) => ({
        at: 100 + i * 100,
        label: "forged",
        send: () => get(forgedToken({ account: "acme", sub: `y${i}` }), "203.0.113.66"),
      })),
      // The real user probes every 2 s from another address.
      ...Array.from({ length: 11 }, (_, i) => ({ at: 50 + i * 2000, label: "alice", send: () => get(alice, "198.51.100.7") })),
    ];
    const sent = await runSchedule(clock, schedule);
    await app.close();
    const probes = sent.filter((s) => s.label === "alice");
    assert.deepEqual(
      probes.map((p) => p.status),
      Array(11).fill(200),
      "every probe served",
    );
    const slowest = Math.max(...probes.map((p) => p.answeredAt! - p.sentAt));
    assert.ok(slowest <= 3000, `the slowest probe took ${slowest} ms`);
    const forged = sent.filter((s) => s.label === "forged");
    assert.ok(
      forged.every((s) => s.status === 401 || s.status === 429),
      "forged tokens are refused by the service or held back at the broker",
    );
    assert.equal(released.length, 10, "the tenant's slots went to the real user's proven requests only (her first one proved her token)");
  });

  it("keeps a real user served within 3 s while a colleague floods requests marked interactive", async () => {
    const clock = new FakeClock(5);
    const service = fakeService(clock);
    const { app, get } = await pacedRelay(clock, service);
    const alice = unsignedToken({ account: "acme", sub: "alice", exp: HOUR });
    const bob = unsignedToken({ account: "acme", sub: "bob", exp: HOUR });
    const schedule = [
      { at: 0, label: "bob", send: () => get(bob, "198.51.100.8") },
      ...Array.from({ length: 250 }, (_, i) => ({ at: 100 + i * 100, label: "bob", send: () => get(bob, "198.51.100.8") })),
      ...Array.from({ length: 11 }, (_, i) => ({ at: 1050 + i * 2000, label: "alice", send: () => get(alice, "198.51.100.7") })),
    ];
    const sent = await runSchedule(clock, schedule);
    await app.close();
    const probes = sent.filter((s) => s.label === "alice");
    assert.deepEqual(
      probes.map((p) => p.status),
      Array(11).fill(200),
      "every probe served",
    );
    const slowest = Math.max(...probes.map((p) => p.answeredAt! - p.sentAt));
    assert.ok(slowest <= 3000, `the slowest probe took ${slowest} ms`);
  });

  it("takes a token's first request through its address's probation lane, and the ones after it, proven, through the tenant's queue", async () => {
    const clock = new FakeClock(5);
    const service = fakeService(clock);
    const { app, get, released } = await pacedRelay(clock, service);
    const token = unsignedToken({ account: "acme", sub: "alice", exp: HOUR });
    const sent = await runSchedule(
      clock,
      [0, 10, 20].map((at) => ({ at, label: "a", send: () => get(token, "198.51.100.7") })),
    );
    await app.close();
    assert.deepEqual(
      sent.map((s) => s.status),
      [200, 200, 200],
    );
    assert.equal(released.length, 2, "the first request proved the token; the two after it were paced");
  });

  it("lets a team behind one address sign in together: a token's other requests wait for its first one's outcome", async () => {
    const clock = new FakeClock(5);
    const service = fakeService(clock);
    const { app, get, released } = await pacedRelay(clock, service);
    const tokens = Array.from({ length: 20 }, (_, i) => unsignedToken({ account: "acme", sub: `user${i}`, exp: HOUR }));
    const sent = await runSchedule(
      clock,
      tokens.flatMap((token) => Array.from({ length: 3 }, () => ({ at: 0, label: "t", send: () => get(token, "192.0.2.1") }))),
    );
    await app.close();
    assert.deepEqual(new Set(sent.map((s) => s.status)), new Set([200]), "nobody refused");
    assert.equal(service.calls.length, 60);
    assert.equal(released.length, 40, "one request per token went on probation; the other two were paced once it was proven");
  });

  it("proves a token by a success only (not 400, 404, 413, 429 or 5xx), and refuses it for good once the service answered 401", async () => {
    const clock = new FakeClock(5);
    let answerWith: number | undefined;
    const service = fakeService(clock, () =>
      answerWith ? new Response("{}", { status: answerWith, headers: { "content-type": "application/json" } }) : undefined,
    );
    const { app, get, released } = await pacedRelay(clock, service);
    const token = unsignedToken({ account: "acme", sub: "bob", exp: HOUR });
    const once = async () => (await runSchedule(clock, [{ at: 0, label: "b", send: () => get(token, "198.51.100.8") }]))[0]!.status;
    for (const status of [400, 404, 413, 429, 503]) {
      answerWith = status;
      await once();
    }
    assert.equal(released.length, 0, "never proven");
    answerWith = undefined;
    await once();
    await once();
    assert.equal(released.length, 1, "proven by a 200");
    answerWith = 401;
    await once();
    const pacedBefore = released.length;
    answerWith = undefined;
    const calls = service.calls.length;
    assert.equal(await once(), 401, "refused by the relay itself");
    assert.equal(service.calls.length, calls, "without asking the service again");
    answerWith = 404;
    assert.equal(await once(), 401, "and a later answer of the service cannot prove it again");
    assert.equal(released.length, pacedBefore, "nor take a slot");
    await app.close();
  });
});

describe("probation lanes", () => {
  it("lets a few requests of an address through at a time, more wait, the rest are refused with Retry-After", async () => {
    const clock = new FakeClock(0);
    const lanes = new ProbationLanes(clock, 20_000);
    const first = await Promise.all(Array.from({ length: PROBATION_AT_ONCE }, () => lanes.enter("a")));
    const waiting = Array.from({ length: PROBATION_WAITING }, () => lanes.enter("a"));
    await assert.rejects(lanes.enter("a"), (e: unknown) => e instanceof QueueFullError && e.retryAfterSeconds === 1);
    const other = await lanes.enter("b");
    other();
    for (const release of first) release();
    for (const w of waiting) (await w)();
  });

  it("answers a request that waited longer than the longest queue wait with a refusal, not silence", async () => {
    const clock = new FakeClock(0);
    const lanes = new ProbationLanes(clock, 20_000);
    for (let i = 0; i < PROBATION_AT_ONCE; i += 1) await lanes.enter("a");
    const stuck = assert.rejects(lanes.enter("a"), QueueFullError);
    await clock.advance(20_000);
    await stuck;
  });
});

describe("proven tokens", () => {
  it("are kept under a hash until the token's exp (a day at most), for a bounded number of tokens", async () => {
    const clock = new FakeClock(1_000_000);
    const proofs = new ProvenTokens(clock, 3);
    const token = unsignedToken({ sub: "alice" });
    const key = tokenKey(token);
    assert.ok(!token.includes(key) && key.length < 30);
    proofs.add(key, 1_000 + 60);
    assert.ok(proofs.has(key));
    await clock.advance(61_000);
    assert.ok(!proofs.has(key), "gone once the token expired");
    proofs.add("long", 10 ** 10);
    await clock.advance(24 * 3600 * 1000 + 1);
    assert.ok(!proofs.has("long"), "a day at most");
    for (const k of ["a", "b", "c", "d", "e"]) proofs.add(k, undefined);
    assert.equal(proofs.size, 3);
    assert.ok(!proofs.has("a") && !proofs.has("b") && proofs.has("e"), "the least recently used forgotten first");
  });
});

describe("relay trust with the service's published keys (JWKS)", () => {
  let keys: KeySet;
  before(async () => {
    keys = await startKeySet();
  });
  after(() => keys.close());

  it("paces a verified token from its first request, refuses forged and foreign-signed ones before sending, and follows a key rotation", async () => {
    const clock = new FakeClock(10 * HOUR * 1000);
    const service = fakeService(clock);
    const { app, get, released } = await pacedRelay(clock, service, { jwksUrl: keys.url });
    const exp = 11 * HOUR;
    const send = async (token: string) => (await runSchedule(clock, [{ at: 0, label: "x", send: () => get(token, "198.51.100.9") }]))[0]!.status;
    try {
      assert.equal(await send(await keys.sign({ account: "acme", sub: "carol", exp })), 200);
      assert.equal(released.length, 1, "paced at once: the signature proved it");
      const calls = service.calls.length;
      assert.equal(await send(forgedToken({ account: "acme", sub: "mallory" })), 401);
      assert.equal(
        await send(await keys.sign({ account: "acme", sub: "mallory", exp }, { key: "unpublished" })),
        401,
        "signed by a key the service does not publish",
      );
      assert.equal(await send(await keys.sign({ account: "acme", sub: "carol", exp: 9 * HOUR })), 401, "expired");
      assert.equal(service.calls.length, calls, "none of them reached the service");
      await keys.rotate();
      const fetched = keys.fetches;
      const pacedBefore = released.length;
      assert.equal(await send(await keys.sign({ account: "acme", sub: "erin", exp })), 200);
      assert.equal(keys.fetches, fetched + 1, "the key set was fetched again for the new key");
      assert.equal(released.length, pacedBefore + 1, "and the token signed with it was verified: paced from its first request");
      assert.equal(await send(await keys.sign({ account: "acme", sub: "frank", exp })), 200);
      assert.equal(keys.fetches, fetched + 1, "a known key is taken from the cache");
    } finally {
      await app.close();
    }
  });

  it("takes requests through probation, never proving them, while the key set cannot be read", async () => {
    const clock = new FakeClock(5);
    const service = fakeService(clock);
    const { app, get, released } = await pacedRelay(clock, service, { jwksUrl: "http://127.0.0.1:9/jwks.json" });
    const token = unsignedToken({ account: "acme", sub: "dave", exp: HOUR });
    const sent = await runSchedule(
      clock,
      [0, 10].map((at) => ({ at, label: "d", send: () => get(token, "198.51.100.10") })),
    );
    await app.close();
    assert.deepEqual(
      sent.map((s) => s.status),
      [200, 200],
    );
    assert.equal(released.length, 0, "with a key set only a signature proves a token: the service's answers do not");
  });
});
