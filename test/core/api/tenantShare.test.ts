// TenantShare on its own, on a hand-stepped clock: a refusal slows the client down (once per
// window), the first sight of others cuts it to a tenth, and a lone client keeps the full rate.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TenantShare } from "../../../src/core/api/tenantShare.js";
import { FakeClock } from "./scripted.js";

describe("TenantShare", () => {
  it("halves its rate on a refusal of the per-second bucket, once per window, never below the floor", async () => {
    const clock = new FakeClock(10_000);
    const share = new TenantShare(clock, { maxPerSecond: 25, minPerSecond: 1 });
    assert.equal(share.perSecond, 25);
    share.refused();
    assert.equal(share.perSecond, 12.5);
    assert.ok(share.crowded());
    share.refused();
    assert.equal(share.perSecond, 12.5, "refusals of one window are one signal");
    await clock.advance(1000);
    share.refused();
    assert.equal(share.perSecond, 6.25);
    for (let i = 0; i < 10; i += 1) {
      await clock.advance(1000);
      share.refused();
    }
    assert.equal(share.perSecond, 1, "the floor");
  });

  it("stays at the full rate alone: answers that show only its own requests change nothing", async () => {
    const clock = new FakeClock(10_000);
    const share = new TenantShare(clock, { maxPerSecond: 25 });
    for (let i = 0; i < 20; i += 1) {
      share.granted();
      share.answered(25 - Math.min(i + 1, 20), 25);
      await clock.advance(40);
    }
    assert.equal(share.perSecond, 25);
    assert.ok(!share.crowded());
  });

  it("drops to a tenth at the first sight of others' requests in the window", () => {
    const clock = new FakeClock(10_000);
    const share = new TenantShare(clock, { maxPerSecond: 25 });
    share.granted();
    share.answered(10, 25);
    assert.ok(share.perSecond <= 2.5 + 1e-9, `at ${share.perSecond}/s`);
    assert.ok(share.crowded());
  });

  it("takes a lower limit from the service at once, and climbs back after a refusal once it is alone again", async () => {
    const clock = new FakeClock(10_000);
    const share = new TenantShare(clock, { maxPerSecond: 25 });
    share.limitIs(5);
    assert.equal(share.perSecond, 5);
    share.refused();
    assert.equal(share.perSecond, 2.5);
    for (let i = 0; i < 200 && share.perSecond < 5; i += 1) {
      await clock.advance(200);
      share.granted();
      share.answered(4, 5);
    }
    assert.equal(share.perSecond, 5, "back to the full rate");
  });

  it("sharing the bucket, cuts a fifth on a refusal and grows by the same step as every other client, whatever its rate", async () => {
    const clock = new FakeClock(10_000);
    const fast = new TenantShare(clock, { maxPerSecond: 25 });
    const slow = new TenantShare(clock, { maxPerSecond: 25 });
    for (const share of [fast, slow]) {
      share.granted();
      share.answered(10, 25);
    }
    await clock.advance(1000);
    slow.refused();
    assert.equal(slow.perSecond, fast.perSecond * 0.8, "a refusal with others in the bucket cuts a fifth");
    const gap = fast.perSecond - slow.perSecond;
    for (let i = 0; i < 10; i += 1) {
      await clock.advance(500);
      fast.granted();
      slow.granted();
    }
    assert.ok(Math.abs(fast.perSecond - slow.perSecond - gap) < 1e-9, "the same step for both: the gap does not grow with the rates");
    assert.ok(fast.perSecond > 2.5 + 0.4, `grew to ${fast.perSecond}/s`);
  });
});
