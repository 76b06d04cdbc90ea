// The one pool that bulk work's requests leave through (runBulk and the enrichment engine's
// request groups), with requests that settle when the test says (no clock): the window bound, the
// next request taken as one settles, requests settled without leaving (a stopped run), a list
// that grows while the pool runs (the caller fills again), and idle once nothing is outstanding.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RequestLanes } from "../../../src/core/run/index.js";

/** Requests that settle when released, in the order they were sent. */
function gated() {
  const sent: string[] = [];
  const gates: (() => void)[] = [];
  const send = (item: string) => {
    sent.push(item);
    return new Promise<void>((resolve) => gates.push(resolve));
  };
  const release = async () => {
    gates.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { sent, send, release };
}

describe("request lanes", () => {
  it("hands over at most `window` requests and takes the next as one settles; one that must not leave takes no place", async () => {
    const waiting = ["a", "stopped", "b", "c", "d"];
    const unsent: string[] = [];
    let idle = 0;
    const { sent, send, release } = gated();
    const lanes = new RequestLanes<string>({
      window: 2,
      next: () => waiting.shift(),
      settleUnsent: (item) => {
        if (item !== "stopped") return false;
        unsent.push(item);
        return true;
      },
      send,
      idle: () => idle++,
    });
    lanes.fill();
    assert.deepEqual(sent, ["a", "b"]);
    assert.deepEqual(unsent, ["stopped"]);
    assert.equal(lanes.running, 2);
    await release();
    assert.deepEqual(sent, ["a", "b", "c"]);
    for (let i = 0; i < 3; i++) await release();
    assert.deepEqual(sent, ["a", "b", "c", "d"]);
    assert.equal(lanes.running, 0);
    assert.equal(idle, 1);
  });

  it("a request that may not leave yet waits until the caller fills again", async () => {
    const waiting: string[] = [];
    let ready = false;
    const { sent, send, release } = gated();
    const lanes = new RequestLanes<string>({ window: Number.POSITIVE_INFINITY, next: () => (ready ? waiting.shift() : undefined), send });
    waiting.push("held");
    lanes.fill();
    assert.deepEqual(sent, []);
    ready = true;
    lanes.fill();
    assert.deepEqual(sent, ["held"]);
    await release();
    assert.equal(lanes.running, 0);
  });
});
