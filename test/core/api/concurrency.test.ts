// The cap on requests in flight: bulk work never holds the slot kept for interactive requests,
// and a freed slot goes to a waiting interactive request before an earlier bulk one.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConcurrencyLimit } from "../../../src/core/api/concurrency.js";

/** Whether the promise has settled after pending callbacks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise<void>((resolve) => setImmediate(resolve));
  return done;
}

describe("ConcurrencyLimit", () => {
  it("keeps a slot for interactive work however much bulk work waits: a cell starts at once", async () => {
    const cap = new ConcurrencyLimit(3, 1);
    const bulk = [cap.acquire(undefined, "bulk"), cap.acquire(undefined, "bulk"), cap.acquire(undefined, "bulk")];
    assert.equal(await settled(bulk[0]!), true);
    assert.equal(await settled(bulk[1]!), true);
    assert.equal(await settled(bulk[2]!), false, "the third bulk request waits: the last slot is kept");
    assert.equal(cap.inFlight, 2);
    const cell = cap.acquire(undefined, "interactive");
    assert.equal(await settled(cell), true, "an interactive request starts at once");
    assert.equal(cap.inFlight, 3);
  });

  it("hands a freed slot to a waiting interactive request before a bulk one that waited longer", async () => {
    const cap = new ConcurrencyLimit(2, 1);
    const first = await cap.acquire(undefined, "interactive");
    const running = await cap.acquire(undefined, "bulk");
    const order: string[] = [];
    const bulk = cap.acquire(undefined, "bulk").then((release) => (order.push("bulk"), release));
    const cell = cap.acquire(undefined, "interactive").then((release) => (order.push("cell"), release));
    await settled(cell);
    assert.deepEqual(order, [], "both wait while the cap is full");
    running();
    await settled(cell);
    assert.deepEqual(order, ["cell"], "the interactive request took the freed slot");
    (await cell)();
    first();
    await bulk;
    assert.deepEqual(order, ["cell", "bulk"]);
  });
});
