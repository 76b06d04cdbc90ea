// An answer whose records say a field was refused as unentitled (the client dropped it and sent
// the inputs again): the cell asking it says why, the other cells get their values, and the
// cache never holds the refused field as an empty value (a reopened workbook asks again).
import assert from "node:assert/strict";
import { it } from "node:test";
import type { EnrichRecord, OpenEnrichBatch } from "../../../src/core/api/types.js";
import type { MatchCompanyInput, MatchPersonInput } from "../../../src/core/contract/index.js";
import { createEnrichmentEngine, MemoryCacheStore } from "../../../src/core/enrich/index.js";
import { FakeEnrichClient } from "./fakeClient.js";

/** Answers like the client over an account lacking revenue: the records carry unentitledFields. */
class RefusingRevenue extends FakeEnrichClient {
  override async enrichBatch(kind: "company" | "contact", batch: OpenEnrichBatch): Promise<EnrichRecord<MatchCompanyInput | MatchPersonInput>[]> {
    const { inputs, outputFields } = batch.seal();
    const asked = outputFields.filter((field) => field !== "revenue");
    const records = await super.enrichBatch(kind, { seal: () => ({ inputs, outputFields: asked }) });
    return outputFields.includes("revenue") ? records.map((record) => ({ ...record, unentitledFields: ["revenue"] })) : records;
  }
}

it("a refused field: its cell says why, the others get values, and the cache does not keep it empty", async () => {
  const store = new MemoryCacheStore();
  const first = new RefusingRevenue();
  const engine = createEnrichmentEngine({ client: first, windowMs: 2, cache: store });
  const [revenue, name] = await Promise.all([engine.getCells("company", 7, "revenue"), engine.getCells("company", 7, "name")]);
  assert.ok(!revenue.ok && revenue.problem.kind === "unentitled", JSON.stringify(revenue));
  assert.match(revenue.problem.message, /not entitled to the field revenue/);
  assert.ok(name.ok && name.values[0] === "Company 7");
  await engine.whenIdle();

  // The workbook reopened: the name comes from the cache, revenue is asked again (not an empty value).
  const second = new RefusingRevenue();
  const reopened = createEnrichmentEngine({ client: second, windowMs: 2, cache: store });
  const cachedName = await reopened.getCells("company", 7, "name");
  assert.ok(cachedName.ok && cachedName.values[0] === "Company 7");
  assert.equal(second.calls.length, 0);
  const again = await reopened.getCells("company", 7, "revenue");
  assert.ok(!again.ok && again.problem.kind === "unentitled", JSON.stringify(again));
  assert.equal(second.calls.length, 1);
});
