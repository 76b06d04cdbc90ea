// The shared slot store set aside when it fails or is slow: this instance paces alone in memory
// at once, says so once, and goes back to the shared store when it answers again. A wait that
// does not end fails naming what did not happen (test/helpers/settles.ts).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { brokerConfig } from "../../src/broker/config.js";
import { createTenantPacer, memorySlots, sharedSlots, type SlotStore } from "../../src/broker/pacing.js";
import { SHARED_CLAIM_TIMEOUT_MS, SHARED_STORE_RETRY_MS, type SharedStoreState } from "../../src/broker/slots.js";
import { FakeClock } from "../core/api/scripted.js";
import { expectSettled, runsTo } from "../helpers/settles.js";

/** A shared store whose behaviour the test switches: answering, failing, never answering, or answering after the clock moved on. */
function switchable(clock: FakeClock) {
  const state = { mode: "ok" as "ok" | "fail" | "hang" | "slow", claims: 0 };
  const memory = memorySlots();
  const store: SlotStore = {
    async claim(key) {
      state.claims += 1;
      if (state.mode === "fail") throw new Error("connection refused");
      if (state.mode === "hang") return new Promise<boolean>(() => undefined);
      if (state.mode === "slow") await clock.sleep(200);
      return memory.claim(key);
    },
  };
  return { state, store };
}

function setUp() {
  const clock = new FakeClock(5);
  const { state, store } = switchable(clock);
  const changes: SharedStoreState[] = [];
  const slots = sharedSlots(store, memorySlots(), clock, (s) => changes.push(s));
  return { clock, state, slots, changes };
}

describe("shared pacing store", () => {
  it("claims in memory at once when the shared store fails, says so once, and goes back when it answers", async () => {
    const { clock, state, slots, changes } = setUp();
    state.mode = "fail";
    for (let i = 0; i < 50; i += 1) assert.equal(await slots.claim(`t:${i}`), true);
    assert.deepEqual(changes, ["alone"], "said once, not per claim");
    assert.equal(state.claims, 1, "the failed store is not asked again until the retry time");
    state.mode = "ok";
    await clock.advance(SHARED_STORE_RETRY_MS);
    assert.equal(await slots.claim("t:100"), true);
    assert.deepEqual(changes, ["alone", "shared"]);
  });

  it("gives up a claim the shared store does not answer and claims in memory", async () => {
    const { clock, state, slots, changes } = setUp();
    state.mode = "hang";
    const claimed = slots.claim("t:1");
    await clock.advance(SHARED_CLAIM_TIMEOUT_MS);
    assert.equal(await expectSettled(claimed, `the unanswered claim to be given up after ${SHARED_CLAIM_TIMEOUT_MS} ms and made in memory`), true);
    assert.deepEqual(changes, ["alone"]);
  });

  it("sets the shared store aside when a slot is lost waiting for its claim, so every slot is not skipped as late", async () => {
    const clock = new FakeClock(5);
    const { state, store } = switchable(clock);
    state.mode = "slow";
    const changes: SharedStoreState[] = [];
    const pacer = createTenantPacer(
      { perSecond: 25, safetyMargin: 0.02, maxQueueWaitMs: 20_000 },
      sharedSlots(store, memorySlots(), clock, (s) => changes.push(s)),
      clock,
    );
    let served = 0;
    const all = Array.from({ length: 20 }, () => pacer.take("acme", "alice", "interactive").then(() => void (served += 1)));
    await runsTo(clock, Promise.all(all), "all 20 requests to be served with the slow store set aside");
    assert.equal(served, 20);
    assert.deepEqual(changes, ["alone"]);
    assert.ok(clock.now() < 2000, `20 requests at 25/s served by ${clock.now()} ms`);
  });

  it("refuses a Redis URL it cannot use before the broker starts, without repeating its password", () => {
    const base = {
      upstream: "http://127.0.0.1:9/token",
      clientId: "c",
      clientSecret: "s",
      allowOrigins: ["https://addin.example.com"],
      relay: "http://127.0.0.1:9",
    };
    for (const [url, pattern] of [
      ["redis://:hunter2secret@redis.internal:6379/abc", /database "abc", which is not a number/],
      ["http://redis.internal:6379", /not a Redis URL/],
      ["redis//redis.internal", /not a Redis URL/],
    ] as const) {
      assert.throws(
        () => brokerConfig({ ...base, pacing: { perSecond: 5, redisUrl: url } }),
        (error: Error) => pattern.test(error.message) && !error.message.includes("hunter2secret"),
        url,
      );
    }
    assert.doesNotThrow(() => brokerConfig({ ...base, pacing: { perSecond: 5, redisUrl: "redis://redis.internal:6379/2" } }));
  });
});
