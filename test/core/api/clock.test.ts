// `every`: the one steady pace on a clock (the job list's elapsed-time tick, the sign-in
// window's closed check), on a clock the test moves.
import assert from "node:assert/strict";
import { test } from "node:test";
import { every } from "../../../src/core/api/clock.js";
import { FakeClock } from "./scripted.js";

test("every ticks once per interval, first after one interval, and not at all once stopped", async () => {
  const clock = new FakeClock();
  const ticks: number[] = [];
  const stop = every(clock, 1000, () => ticks.push(clock.now()));
  await clock.advance(999);
  assert.deepEqual(ticks, [], "nothing before the first interval");
  await clock.advance(2001);
  assert.deepEqual(ticks, [1000, 2000, 3000]);
  stop();
  assert.equal(clock.pendingTimers, 0, "stopping ends the wait");
  await clock.advance(5000);
  assert.deepEqual(ticks, [1000, 2000, 3000]);
});

test("a tick may stop its own pace", async () => {
  const clock = new FakeClock();
  let count = 0;
  const stop = every(clock, 250, () => {
    count += 1;
    if (count === 2) stop();
  });
  await clock.advance(2000);
  assert.equal(count, 2);
  assert.equal(clock.pendingTimers, 0);
});
