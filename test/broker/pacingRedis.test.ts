// Two broker instances relaying for one tenant share its pacing through a real redis-server:
// together they send one request per slot, never more than the tenant's rate in a second.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ADDIN, brokerFor } from "./helpers.js";
import { FakeClock } from "../core/api/scripted.js";
import { redisMissing, startRedis, type RunningRedis } from "./redisServer.js";
import { startKeySet, type KeySet } from "./tokens.js";
import { startFakeUpstream, type FakeUpstream } from "./upstream.js";

const RATE = 25;
const SLOT_MS = 1000 / RATE;
const PER_INSTANCE = 12;

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
    const tokens = await Promise.all([0, 1].map((i) => Promise.all(Array.from({ length: PER_INSTANCE }, (_, n) => keys!.sign({ account: "acme", sub: `user-${i}-${n}`, exp: 3600 })))));
    const apps = [
      await brokerFor(upstream!, { pacing }, { clock, fetch: counting("A") }),
      await brokerFor(upstream!, { pacing }, { clock, fetch: counting("B") }),
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
        if (sends.length < k) await next;
      }
      const statuses = (await Promise.all(answers)).map((res) => res.statusCode);
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
