// The usage gauge's store: it reads usage when first watched, again after the runtime says
// requests changed it (one read per interval however many requests), stops following when
// nobody watches, and draws low usage visibly.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { UsageEntry } from "../../../src/core/contract/index.js";
import { barFraction, createUsageFeed } from "../../../src/taskpane/usage/usageFeed.js";
import { FakeClock } from "../../core/api/scripted.js";

/** The feed's default wait between a change and the read that shows it. */
const INTERVAL_MS = 1500;

const entry = (used: number): UsageEntry =>
  ({ limitType: "uniqueID", description: "Credits", currentUsage: used, totalLimit: 100_000, usageRemaining: 100_000 - used }) as UsageEntry;

/** A fake account whose usage grows as it spends, with the runtime's usage-changed event. */
function fakeAccount() {
  let used = 5;
  const listeners = new Set<() => void>();
  let reads = 0;
  return {
    usage: async () => {
      reads++;
      return { entries: [entry(used)] };
    },
    onUsageChanged(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    spend(n: number) {
      used += n;
      listeners.forEach((l) => l());
    },
    get reads() {
      return reads;
    },
    get followers() {
      return listeners.size;
    },
  };
}

/** Resolves on the feed's next change. */
const nextChange = (feed: ReturnType<typeof createUsageFeed>) =>
  new Promise<void>((resolve) => {
    const stop = feed.subscribe(() => {
      stop();
      resolve();
    });
  });

/** Watches the feed as the gauge does; resolves with the unsubscribe once the first read shows. */
async function watch(feed: ReturnType<typeof createUsageFeed>) {
  const first = nextChange(feed);
  const stop = feed.subscribe(() => {});
  await first;
  return stop;
}

/** A feed over a fake account and clock, watched and showing its first read. */
async function watchedFeed() {
  const account = fakeAccount();
  const clock = new FakeClock();
  const feed = createUsageFeed(account, { clock });
  const stop = await watch(feed);
  return { account, clock, feed, stop };
}

/** Runs `meanwhile` (e.g. spending), lets the interval pass and resolves once the read it lets through shows. */
async function readAfterInterval(feed: ReturnType<typeof createUsageFeed>, clock: FakeClock, meanwhile: () => void = () => {}) {
  const next = nextChange(feed);
  meanwhile();
  await clock.advance(INTERVAL_MS);
  await next;
}

test("the gauge's usage follows spending without Refresh", async () => {
  const { account, clock, feed, stop } = await watchedFeed();
  assert.equal(feed.getSnapshot().entries?.[0]?.currentUsage, 5);

  await readAfterInterval(feed, clock, () => account.spend(750));
  assert.equal(feed.getSnapshot().entries?.[0]?.currentUsage, 755);
  assert.equal(account.reads, 2);

  stop();
  assert.equal(account.followers, 0, "nobody watching: no longer follows");
});

test("many requests in a row cost one usage read per interval, and the last change is always read", async () => {
  const { account, clock, feed, stop } = await watchedFeed();
  assert.equal(account.reads, 1);
  for (let i = 0; i < 100; i++) account.spend(1);
  assert.equal(clock.pendingTimers, 1, "one read is due, not a hundred");
  await clock.advance(INTERVAL_MS - 1);
  assert.equal(account.reads, 1, "nothing read before the interval ends");
  await readAfterInterval(feed, clock);
  assert.equal(account.reads, 2);
  assert.equal(feed.getSnapshot().entries?.[0]?.currentUsage, 105);
  // A request after that read: read again after the next interval.
  await readAfterInterval(feed, clock, () => account.spend(1));
  assert.equal(feed.getSnapshot().entries?.[0]?.currentUsage, 106);
  assert.equal(account.reads, 3);
  stop();
});

test("a failed read keeps the last figures and says why", async () => {
  let fail = false;
  const feed = createUsageFeed({
    usage: async () => {
      if (fail) throw Object.assign(new Error("x"), { userMessage: "The service had a problem (error 503). Try again in a moment." });
      return { entries: [entry(10)] };
    },
  });
  const stop = await watch(feed);
  fail = true;
  await feed.refresh();
  assert.equal(feed.getSnapshot().entries?.[0]?.currentUsage, 10);
  assert.match(feed.getSnapshot().problem ?? "", /error 503/);
  stop();
});

test("low usage still draws a visible bar; none draws none", () => {
  assert.equal(barFraction(0, 100_000_000), 0);
  assert.ok(barFraction(2, 100_000_000) >= 0.03);
  assert.equal(barFraction(50, 100), 0.5);
  assert.equal(barFraction(500, 100), 1);
});

test("the first read and each Refresh read the plan again, the figures shown once both are in; a read after spending does not", async () => {
  const account = fakeAccount();
  const clock = new FakeClock();
  let planReads = 0;
  let planIn!: () => void;
  const firstPlan = new Promise<void>((resolve) => (planIn = resolve));
  const refreshPlan = async () => {
    planReads += 1;
    if (planReads === 1) await firstPlan;
  };
  const feed = createUsageFeed({ usage: account.usage, onUsageChanged: (l: () => void) => account.onUsageChanged(l), refreshPlan }, { clock });
  const shown = watch(feed);
  await clock.flush();
  assert.equal(account.reads, 1);
  assert.equal(feed.getSnapshot().entries, undefined, "not before the plan is in");
  planIn();
  const stop = await shown;
  assert.equal(planReads, 1, "read with the first usage");
  await readAfterInterval(feed, clock, () => account.spend(3));
  assert.equal(planReads, 1, "spending does not change the plan");
  await feed.refresh();
  assert.equal(planReads, 2);
  stop();
});
