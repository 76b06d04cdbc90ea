import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RateLimiter } from "../../../src/core/api/rateLimiter.js";
import { FakeClock } from "./scripted.js";

const NO_HEADERS = { get: () => null };

/** One request's slot, answered at once. */
async function grant(clock: FakeClock, limiter: RateLimiter): Promise<number> {
  await clock.run(limiter.acquire());
  limiter.settle(NO_HEADERS);
  return clock.now();
}

describe("RateLimiter", () => {
  it("keeps the schedule when a grant is only a little late, and moves it when very late", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(clock, { perSecond: 25, burst: 1, safetyMargin: 0.02 }); // 40.8 ms, slack 10 ms
    const first = await grant(clock, limiter);
    const second = await grant(clock, limiter);
    assert.ok(second - first >= 40.8 - 10 - 1e-9);
    await clock.advance(second + 40.8 + 5 - clock.now()); // the third waiter wakes 5 ms late
    const third = await grant(clock, limiter);
    const fourth = await grant(clock, limiter);
    assert.ok(Math.abs(fourth - (second + 2 * 40.8)) < 1e-9, "back on the 40.8 ms schedule");
    assert.ok(third > second);
    await clock.advance(fourth + 40.8 + 30 - clock.now()); // the next wakes 30 ms late: more than the slack
    const late = await grant(clock, limiter);
    assert.ok(Math.abs((await grant(clock, limiter)) - (late - 10 + 40.8)) < 1e-9, "the schedule moved with the late grant");
  });

  it("never lets perSecond + 1 grants into one second, however late the waiters wake", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(clock, { perSecond: 25, burst: 1, safetyMargin: 0.02 });
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const grants: number[] = [];
    for (let i = 0; i < 400; i += 1) {
      if (random() < 0.3) await clock.advance(random() * 60);
      grants.push(await grant(clock, limiter));
    }
    for (let j = 0; j + 25 < grants.length; j += 1) {
      assert.ok(grants[j + 25]! - grants[j]! >= 1010 - 1e-9, `grants ${j}..${j + 25} span ${grants[j + 25]! - grants[j]!} ms`);
    }
  });

  it("serves waiters in arrival order and lets an aborted one leave without blocking the rest", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(clock, { perSecond: 10, burst: 1, safetyMargin: 0 });
    const order: string[] = [];
    const controller = new AbortController();
    const a = limiter.acquire().then(() => {
      order.push(`a@${clock.now()}`);
      limiter.settle(NO_HEADERS);
    });
    const b = limiter.acquire(controller.signal).then(
      () => order.push("b"),
      () => order.push(`b aborted@${clock.now()}`),
    );
    const c = limiter.acquire().then(() => {
      order.push(`c@${clock.now()}`);
      limiter.settle(NO_HEADERS);
    });
    await clock.flush();
    controller.abort();
    await clock.run(Promise.all([a, b, c]));
    assert.deepEqual(order, ["a@0", "b aborted@0", "c@100"]);
  });

  it("lets one request out until the first answer tells the service's limits", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(clock, { perSecond: 10, burst: 1, safetyMargin: 0, probeFirst: true });
    const granted: number[] = [];
    const all = Promise.all([0, 1, 2].map(() => limiter.acquire().then(() => granted.push(clock.now()))));
    await clock.advance(500);
    assert.deepEqual(granted, [0], "the others wait for the first answer");
    limiter.settle({ get: (name) => (name === "x-ratelimit-limit-second" ? "2" : null) });
    await clock.run(all);
    assert.deepEqual(granted, [0, 500, 1000]);
  });

  it("without probeFirst, paces from the start at the configured rate", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(clock, { perSecond: 10, burst: 1, safetyMargin: 0 });
    const granted: number[] = [];
    await clock.run(Promise.all([0, 1, 2].map(() => limiter.acquire().then(() => granted.push(clock.now())))));
    assert.deepEqual(granted, [0, 100, 200]);
  });

  it("lets the next request probe when the first got no answer", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(clock, { perSecond: 10, burst: 1, safetyMargin: 0, probeFirst: true });
    const granted: number[] = [];
    const all = Promise.all([0, 1].map(() => limiter.acquire().then(() => granted.push(clock.now()))));
    await clock.advance(300);
    limiter.settle(undefined); // dropped connection
    await clock.run(all);
    assert.deepEqual(granted, [0, 300]);
  });

  it("pauses everyone for a Retry-After and tightens to the service's lower per-second limit", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(clock, { perSecond: 10, burst: 1, safetyMargin: 0 });
    await grant(clock, limiter);
    limiter.pauseFor(2000);
    assert.equal(await grant(clock, limiter), 2000);
    limiter.settle({ get: (name) => (name === "x-ratelimit-limit-second" ? "4" : null) });
    assert.equal(limiter.perSecond, 4);
    // The next slot is planned again at the new pace: 250 ms after the last grant.
    assert.equal(await grant(clock, limiter), 2250);
    assert.equal(await grant(clock, limiter), 2500);
    // A higher limit from the service never loosens the configured one; -1 (unknown) is ignored.
    limiter.settle({ get: (name) => (name === "x-ratelimit-limit-second" ? "100" : name === "x-ratelimit-remaining-second" ? "-1" : null) });
    assert.equal(limiter.perSecond, 10);
  });

  it("after a refusal of the per-second bucket, waits to the end of the service's window when that comes before Retry-After", async () => {
    const clock = new FakeClock(10_700);
    const limiter = new RateLimiter(clock, { perSecond: 25, burst: 1, safetyMargin: 0, random: () => 0.999 });
    const headers = (reset: string) => ({ get: (name: string) => (name === "x-ratelimit-reset-second" ? reset : null) });
    limiter.settle(headers("11"));
    const wait = limiter.refused(1000, "second");
    assert.ok(wait >= 300 && wait < 300 + 100, `waited ${wait} ms: the window ends in 300 ms (and a jitter of less than 100 ms)`);
    // The hour's bucket, or a window the client's clock does not place, keeps Retry-After.
    assert.ok(limiter.refused(1000, "hour") >= 1000);
    limiter.settle(headers("99"));
    assert.ok(limiter.refused(1000, "second") >= 1000);
  });
});
