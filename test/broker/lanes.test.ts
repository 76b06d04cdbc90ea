// The relay's lanes at their edges, on a hand-stepped clock: a probation lane of 4 never has a
// fifth request out (a place handed to a waiter is not freed as well); one user's interactive
// requests beyond their share (the tenant's rate) wait as bulk, exactly from that share on; and
// the pacer spaces a tenant's slots by its safety margin. Every wait fails with what did not
// happen, not with a pending promise (test/helpers/settles.ts).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createTenantPacer, interactiveShareOf, memorySlots, type Priority } from "../../src/broker/pacing.js";
import { ProbationLanes, type Release } from "../../src/broker/probation.js";
import { FakeClock } from "../core/api/scripted.js";
import { expectSettled } from "../helpers/settles.js";

/** Enters the lane `count` times; `out` lists the releases of those let through so far. */
function crowd(lanes: ProbationLanes, count: number) {
  const out: Release[] = [];
  const entries = Array.from({ length: count }, () => lanes.enter("203.0.113.9").then((release) => void out.push(release)));
  return { out, entries };
}

describe("probation lane places", () => {
  it("hands a freed place to one waiter: a lane of 4 never has a fifth request out", async () => {
    const lanes = new ProbationLanes(new FakeClock(0), 20_000, 32, 4);
    const { out, entries } = crowd(lanes, 8);
    await expectSettled(Promise.all(entries.slice(0, 4)), "the first 4 requests of the address to go out at once");
    assert.equal(out.length, 4, "4 out, 4 waiting");
    out[0]!();
    await expectSettled(entries[4]!, "the first waiter to get the place the first request freed");
    assert.equal(out.length, 5);
    const late = lanes.enter("203.0.113.9").then((release) => void out.push(release));
    await expectSettled(Promise.resolve(), "a turn of the event loop");
    assert.equal(out.length, 5, "a request arriving now waits: the lane holds 4 (5 released, 1 of them back)");
    for (let i = 1; i < 5; i += 1) out[i]!();
    await expectSettled(Promise.all([...entries, late]), "every waiter to be let through as places were freed");
    assert.equal(out.length, 9);
    for (const release of out.slice(5)) release();
  });
});

const SLOT_5 = 200;

function pacerOf(perSecond: number, safetyMargin: number) {
  const clock = new FakeClock(5);
  const pacer = createTenantPacer({ perSecond, safetyMargin, maxQueueWaitMs: 60_000 }, memorySlots(), clock);
  const released: { label: string; at: number }[] = [];
  const take = (label: string, user: string, priority: Priority) =>
    pacer.take("acme", user, priority).then(() => void released.push({ label, at: clock.now() }));
  return { clock, pacer, released, take };
}

describe("relay pacer edges", () => {
  it("lets one user have exactly the tenant's rate of interactive requests waiting ahead of bulk, the rest wait as bulk", async () => {
    assert.equal(interactiveShareOf(5), 5);
    const { clock, released, take } = pacerOf(5, 0);
    const flood = Array.from({ length: 8 }, (_, i) => take(`alice${i}`, "alice", "interactive"));
    const bob = take("bob-bulk", "bob", "bulk");
    await clock.advance(10 * SLOT_5);
    await expectSettled(Promise.all([...flood, bob]), "all 9 requests to leave within 10 slots");
    // Alice's 5 interactive ones first; then the bulk ring in turns: Alice's sixth (waiting as bulk first), Bob, Alice's seventh.
    assert.deepEqual(
      released.map((r) => r.label),
      ["alice0", "alice1", "alice2", "alice3", "alice4", "alice5", "bob-bulk", "alice6", "alice7"],
    );
  });

  it("spaces a tenant's slots by the safety margin: 25 a second with a 5% margin leaves one every 42 ms", async () => {
    const { clock, pacer, released, take } = pacerOf(25, 0.05);
    assert.equal(pacer.slotMs, 42);
    const all = Array.from({ length: 30 }, (_, i) => take(`r${i}`, `user${i % 3}`, "bulk"));
    await clock.advance(31 * 42);
    await expectSettled(Promise.all(all), "30 requests to leave within 31 slots of 42 ms");
    const gaps = released.slice(2).map((r, i) => r.at - released[i + 1]!.at);
    assert.deepEqual(new Set(gaps), new Set([42]), "one every 42 ms after the first");
    const inFirstSecond = released.filter((r) => r.at < released[0]!.at + 1000).length;
    assert.equal(inFirstSecond, 24, "24 in the first second, below the 25 allowed");
  });
});
