// Many requests waiting at once must not pile listeners on one abort signal (Node warns past
// ten: "MaxListenersExceededWarning ... abort listeners added to [AbortSignal]").
import assert from "node:assert/strict";
import { it } from "node:test";
import type { EnrichResultItem } from "../../../src/core/contract/index.js";
import { createEnrichmentEngine } from "../../../src/core/enrich/index.js";
import { harness } from "./harness.js";
import { answer } from "./scripted.js";

it("an enrichment of 1,000 ids (40 requests, most of them waiting for a slot) draws no listener warning", async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on("warning", onWarning);
  try {
    const caller = new AbortController();
    const h = harness(async (request) => {
      // Each answer takes a while, so the other requests queue behind the concurrency cap.
      await h.clock.sleep(200);
      const inputs = (request.body as { data: { attributes: { matchCompanyInput: { companyId: number }[] } } }).data.attributes.matchCompanyInput;
      const data: EnrichResultItem[] = inputs.map((input) => ({
        id: String(input.companyId),
        type: "Company",
        attributes: { name: "x" },
        meta: { matchStatus: "FULL_MATCH", input },
      }));
      return answer(200, { data });
    });
    // Through the enrichment pipeline (25 ids a request), every request started at once.
    const ids = Array.from({ length: 1000 }, (_, i) => i + 1);
    const pipeline = createEnrichmentEngine({ client: h.client, dailyNewRecordCap: 10_000, companionFields: "none" });
    const records = await h.clock.run(pipeline.enrichIds("company", ids, ["name"], { signal: caller.signal, concurrency: 40 }));
    assert.equal([...records.values()].filter((r) => r.ok).length, 1000);
    // A warning is emitted on a later tick.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => process.nextTick(resolve));
    assert.deepEqual(
      warnings.filter((w) => w.startsWith("MaxListenersExceededWarning")),
      [],
    );
  } finally {
    process.off("warning", onWarning);
  }
});
