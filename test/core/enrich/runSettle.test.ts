// One source of truth for what a run cost: today's count of new records is settled with the
// service's own credits used, read before and after the run. A website list whose companies the
// organization already had under management costs the service nothing and counts nothing.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createEnrichmentEngine, MemoryCacheStore, MemorySpendStore, planSelectionEnrichment, runSelectionEnrichment } from "../../../src/core/enrich/index.js";
import { FakeMatchClient } from "./fakeMatchClient.js";

const NOW = Date.UTC(2026, 10, 26, 9);

async function websiteRun(charged: (sent: number) => number, withUsage = true) {
  const client = new FakeMatchClient();
  const engine = createEnrichmentEngine({
    client,
    cache: new MemoryCacheStore(),
    spendStore: new MemorySpendStore(),
    dailyNewRecordCap: 100,
    clock: { now: () => NOW },
    windowMs: 1,
  });
  const selection = { address: "Sheet1!A1:A4", values: ["Website", "c1.example", "c2.example", "c3.example"] };
  const planned = await planSelectionEnrichment(engine, "company", selection, ["name"], { by: "match", content: "website" });
  // The service's figure: what it charged for the inputs sent so far.
  const creditsUsed = async () => 500 + charged(client.calls.reduce((sum, call) => sum + call.inputs.length, 0));
  const result = await runSelectionEnrichment(engine, planned, withUsage ? { creditsUsed } : {});
  return { result, used: (await engine.spendStatus()).used };
}

describe("a run settled with the service's credits", () => {
  it("counts nothing when the service charged nothing (records the organization already had)", async () => {
    const { result, used } = await websiteRun(() => 0);
    assert.equal(result.output.counts.matched, 3);
    assert.equal(used, 0);
  });

  it("counts what the service charged", async () => {
    assert.equal((await websiteRun((sent) => Math.min(sent, 2))).used, 2);
    assert.equal((await websiteRun((sent) => sent)).used, 3);
  });

  it("keeps its own count when the service's figure cannot be read", async () => {
    assert.equal((await websiteRun(() => 0, false)).used, 3);
  });
});
