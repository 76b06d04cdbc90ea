// Two broker instances relaying for one tenant share its pacing through a real redis-server:
// together they send one request per slot, never more than the tenant's rate in a second. With
// Redis unreachable, at the start or from the middle of a run, every request is still served
// (in-memory pacing), and the log says so once. Redis answers in real time, so each wait on it is
// bounded (STEP_MS, generous) and fails naming what did not happen rather than hanging.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ADDIN, brokerFor, logSink } from "./helpers.js";
import { fakeService } from "./service.js";
import { FakeClock } from "../core/api/scripted.js";
import { within } from "../helpers/settles.js";
import { redisMissing, startRedis, type RunningRedis } from "./redisServer.js";
import { startKeySet, unsignedToken, type KeySet } from "./tokens.js";
import { startFakeUpstream, type FakeUpstream } from "./upstream.js";

const RATE = 25;
const SLOT_MS = 1000 / RATE;
const PER_INSTANCE = 12;
/** The longest a step that waits on Redis or the relay may take before the test says what did not happen. */
const STEP_MS = 8000;

const missing = redisMissing();

describe("relay pacing shared through Redis", () => {
  let upstream: FakeUpstream | undefined;
  let redis: RunningRedis | undefined;
  let keys: KeySet | undefined;
  before(async () => {
    if (missing) return;
    upstream = await startFakeUpstream();
    redis = await startRedis();
    keys = await startKeySet();
  });
  after(async () => {
    await upstream?.close();
    await redis?.stop();
    await keys?.close();
  });

  it("keeps two instances together within the tenant's rate, one request per slot", { skip: missing ?? false, timeout: 30_000 }, async () => {
    const clock = new FakeClock(5);
    const sends: { instance: string; at: number }[] = [];
    let sent: () => void = () => undefined;
    const counting = (instance: string) =>
      (async (...args: Parameters<typeof fetch>) => {
        sends.push({ instance, at: clock.now() });
        sent();
        return fetch(...args);
      }) as typeof fetch;
    // Tokens signed with the service's published keys: verified, they take their tenant's slots at once.
    const pacing = { perSecond: RATE, safetyMargin: 0, redisUrl: redis!.url, jwksUrl: keys!.url };
    const tokens = await Promise.all(
      [0, 1].map((i) => Promise.all(Array.from({ length: PER_INSTANCE }, (_, n) => keys!.sign({ account: "acme", sub: `user-${i}-${n}`, exp: 3600 })))),
    );
    const apps = [
      // Redis answers in real time: a slow answer on a busy machine must not be read as a stall here.
      await brokerFor(upstream!, { pacing }, { clock, fetch: counting("A"), redisCommandTimeoutMs: STEP_MS }),
      await brokerFor(upstream!, { pacing }, { clock, fetch: counting("B"), redisCommandTimeoutMs: STEP_MS }),
    ];
    try {
      const answers = apps.flatMap((app, i) =>
        Array.from({ length: PER_INSTANCE }, (_, n) =>
          app.inject({ method: "GET", url: "/data/v1/users/usage", headers: { origin: ADDIN, authorization: `Bearer ${tokens[i]![n]!}` } }),
        ),
      );
      // Step the clock one slot at a time, each time once the slot's request has left.
      for (let k = 1; sends.length < 2 * PER_INSTANCE; k += 1) {
        const next = new Promise<void>((resolve) => (sent = resolve));
        await clock.advanceTo(k * SLOT_MS);
        if (sends.length < k) await within(next, STEP_MS, `the request of slot ${k} to leave (${sends.length} of ${2 * PER_INSTANCE} sent)`);
      }
      const statuses = (await within(Promise.all(answers), STEP_MS, "every relayed request to be answered")).map((res) => res.statusCode);
      assert.deepEqual(new Set(statuses), new Set([200]));
      const times = sends.map((s) => s.at);
      assert.equal(new Set(times).size, times.length, `one request per slot across both instances: ${JSON.stringify(sends)}`);
      const perSecond = Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + 1000).length));
      assert.ok(perSecond <= RATE, `at most ${RATE} in any second, got ${perSecond}`);
      assert.ok(new Set(sends.map((s) => s.instance)).size === 2, "both instances sent");
    } finally {
      for (const app of apps) await app.close();
    }
  });
});

const NOWHERE = { url: "http://127.0.0.1:9" } as FakeUpstream;

/** Counts events; `after(n)` resolves once more than n have happened. */
function eventCount() {
  let count = 0;
  let waiters: { above: number; resolve: () => void }[] = [];
  return {
    get count() {
      return count;
    },
    happened() {
      count += 1;
      const ready = waiters.filter((w) => count > w.above);
      waiters = waiters.filter((w) => count <= w.above);
      for (const w of ready) w.resolve();
    },
    after(above: number) {
      return count > above ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ above, resolve }));
    },
  };
}

/** A manual clock that tells when someone waits for less than a slot (the pacing, once it has claimed its slot). */
class SlotWatchingClock extends FakeClock {
  readonly waits = eventCount();
  /** Such waits not over yet. */
  waiting = 0;
  override sleep(ms: number, signal?: AbortSignal): Promise<void> {
    const sleeping = super.sleep(ms, signal);
    if (ms > SLOT_MS * 1.1) return sleeping;
    this.waiting += 1;
    this.waits.happened();
    const over = () => void (this.waiting -= 1);
    sleeping.then(over, over);
    return sleeping;
  }
}

/**
 * A relay paced through `redisUrl`, on a hand-stepped clock, in front of an in-process service;
 * its log is kept. `burst` sends requests of one proven user and moves the clock a slot on
 * each time the pacing has claimed its slot (Redis answers in real time) or sent a request.
 */
async function relayThrough(redisUrl: string) {
  const clock = new SlotWatchingClock(5);
  const calls = eventCount();
  const service = fakeService(clock, () => void calls.happened());
  const log = logSink();
  const app = await brokerFor(NOWHERE, { pacing: { perSecond: RATE, redisUrl } }, { clock, fetch: service.fetch, log: { stream: log.stream } });
  const token = unsignedToken({ account: "acme", sub: "alice", exp: 3600 });
  const send = () =>
    app.inject({ method: "GET", url: "/data/v1/users/usage", remoteAddress: "198.51.100.7", headers: { origin: ADDIN, authorization: `Bearer ${token}` } });
  // The token's first request proves it (the probation lane, unpaced).
  assert.equal((await within(send(), STEP_MS, "the token's first request to pass its probation lane")).statusCode, 200);
  const burst = async (count: number) => {
    const sent = Array.from({ length: count }, () => ({
      sentAt: clock.now(),
      answeredAt: undefined as number | undefined,
      status: undefined as number | undefined,
    }));
    const answers = sent.map((entry) => send().then((res) => Object.assign(entry, { answeredAt: clock.now(), status: res.statusCode })));
    const goal = calls.count + count;
    while (calls.count < goal) {
      const seen = clock.waits.count;
      const what = `the relay to claim its next slot (${count - (goal - calls.count)} of ${count} requests reached the service)`;
      if (clock.waiting === 0) await within(clock.waits.after(seen), STEP_MS, what);
      await clock.advance(SLOT_MS);
    }
    return within(Promise.all(answers), STEP_MS, `all ${count} requests to be answered once they reached the service`);
  };
  const alone = () =>
    log
      .text()
      .split("\n")
      .filter((line) => line.includes("paces alone")).length;
  return { app, burst, alone };
}

/** Every request served, the slowest within `ms`. */
function allServedWithin(sent: { status?: number; sentAt: number; answeredAt?: number }[], ms: number): void {
  assert.deepEqual(new Set(sent.map((s) => s.status)), new Set([200]));
  const slowest = Math.max(...sent.map((s) => s.answeredAt! - s.sentAt));
  assert.ok(slowest <= ms, `the slowest request took ${slowest} ms`);
}

describe("relay pacing with Redis unreachable", () => {
  it("serves every request at once from in-memory pacing when Redis is down at the start, and says so once", { timeout: 30_000 }, async () => {
    const { app, burst, alone } = await relayThrough("redis://127.0.0.1:9/0");
    try {
      allServedWithin(await burst(40), 3000);
      assert.equal(alone(), 1, "said once, not per request");
    } finally {
      await app.close();
    }
  });

  it("goes on serving when Redis stalls (answers nothing) in the middle of a run", { skip: missing ?? false, timeout: 30_000 }, async () => {
    const stalling = await startRedis();
    const { app, burst, alone } = await relayThrough(stalling.url);
    try {
      allServedWithin(await burst(10), 3000);
      stalling.pause();
      allServedWithin(await burst(40), 3000);
      assert.equal(alone(), 1);
    } finally {
      await app.close();
      await stalling.stop();
    }
  });

  it("goes on serving when Redis goes away in the middle of a run", { skip: missing ?? false, timeout: 30_000 }, async () => {
    const dying = await startRedis();
    const { app, burst, alone } = await relayThrough(dying.url);
    try {
      allServedWithin(await burst(10), 3000);
      assert.equal(alone(), 0, "shared while Redis answers");
      await dying.stop();
      allServedWithin(await burst(40), 3000);
      assert.equal(alone(), 1);
    } finally {
      // A failed assertion must not leave the server running: its process would hold the test run open.
      await app.close();
      await dying.stop();
    }
  });
});
