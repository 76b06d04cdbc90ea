// Behind a relay that paces the organization centrally (it says so in X-BizData-Relay-Paced),
// a client keeps its full rate when it sees colleagues' requests in the service's window: the
// relay's queue shares the bucket. Without that header, the client gives way as before.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RateLimiter } from "../../../src/core/api/rateLimiter.js";
import { FakeClock } from "./scripted.js";

/** An answer showing 20 of 25 requests used in the window: others' besides this client's one. */
const crowdedAnswer = (relayPaced: boolean) => {
  const headers = new Map<string, string>([
    ["x-ratelimit-limit-second", "25"],
    ["x-ratelimit-remaining-second", "5"],
    ...(relayPaced ? ([["x-bizdata-relay-paced", "25"]] as const) : []),
  ]);
  return { get: (name: string) => headers.get(name.toLowerCase()) ?? null };
};

describe("a client behind a pacing relay", () => {
  for (const relayPaced of [false, true]) {
    it(relayPaced ? "keeps its full rate when the relay says it paces" : "gives way to others in the window when nothing paces centrally", async () => {
      const clock = new FakeClock(10_000);
      const limiter = new RateLimiter(clock, { perSecond: 25, burst: 1, safetyMargin: 0.02 });
      for (let i = 0; i < 5; i += 1) {
        const release = await clock.run(limiter.acquire());
        void release;
        limiter.settle(crowdedAnswer(relayPaced));
      }
      if (relayPaced) assert.equal(limiter.perSecond, 25);
      else assert.ok(limiter.perSecond < 5, `at ${limiter.perSecond}/s`);
    });
  }
});
