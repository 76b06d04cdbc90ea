// What signal requests take from their caller: whose wait they are (the Signals tab's imports and
// Enrich selection's signal columns are bulk work, a cell's signal is interactive), and the clock.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createEnrichmentEngine, MemoryCacheStore } from "../../../src/core/enrich/index.js";
import { importSignalSearch } from "../../../src/core/signals/index.js";
import { harness } from "../api/harness.js";
import { answer, type RecordedRequest } from "../api/scripted.js";

const PAGE = (n: number, total: number) => ({ data: [], meta: { totalResults: total, page: { number: n, total: Math.ceil(total / 100) } } });

/** Answers every signal request with an empty page of a search of `total` results. */
function signalClient(total = 0) {
  return harness(
    (request: RecordedRequest) =>
      answer(200, request.path.includes("technologies") ? { data: [] } : PAGE(Number(request.query.get("page[number]") ?? 1), total)),
    { tellPriority: true },
  );
}
const priorities = (requests: RecordedRequest[]) => requests.map((r) => r.headers["x-bizdata-priority"]);

describe("signal requests carry their priority", () => {
  it("a signal search inserted into a sheet asks as bulk work", async () => {
    const { client, requests, clock } = signalClient(250);
    await clock.run(importSignalSearch({ client, family: "scoops", filters: {}, deliver: async () => undefined }));
    assert.ok(requests.length >= 1);
    assert.deepEqual(new Set(priorities(requests)), new Set(["bulk"]));
  });

  it("Enrich selection's signal columns ask as bulk work, a cell's signal as interactive", async () => {
    for (const kind of ["scoops", "news", "technologies", "intent"] as const) {
      const { client, requests, clock } = signalClient();
      const engine = createEnrichmentEngine({ client, cache: new MemoryCacheStore(), windowMs: 1, clock });
      const field = kind === "intent" ? "Cloud Security" : kind;
      await clock.run(engine.enrichIds(kind, [1, 2], [field]));
      assert.ok(requests.length > 0, kind);
      assert.deepEqual(new Set(priorities(requests)), new Set(["bulk"]), kind);
      requests.length = 0;
      await clock.run(engine.getCells(kind, 3, field));
      assert.ok(requests.length > 0, kind);
      assert.deepEqual(new Set(priorities(requests)), new Set(["interactive"]), `${kind} cell`);
    }
  });
});

describe("signal columns count against the engine's clock", () => {
  it("Enrich selection's scoop counts are over the 90 days before the engine's today, not the machine's", async () => {
    const scoop = (id: string, date: string) => ({
      id,
      type: "Scoop",
      attributes: { id, publishedDate: `${date}T00:00:00Z`, types: [{ id: "6", type: "Award" }], company: { id: "1", name: "A" } },
    });
    const { client, clock } = harness(() =>
      answer(200, { data: [scoop("1", "2020-05-20"), scoop("2", "2019-01-01")], meta: { totalResults: 2, page: { number: 1, total: 1 } } }),
    );
    const today = Date.parse("2020-06-01T12:00:00Z");
    const engine = createEnrichmentEngine({
      client,
      cache: new MemoryCacheStore(),
      windowMs: 1,
      clock: { now: () => today, sleep: (ms, signal) => clock.sleep(ms, signal) },
    });
    const results = await clock.run(engine.enrichIds("scoops", [1], ["scoops90", "scoops365", "latestScoopDate"]));
    const record = results.get(1);
    assert.ok(record?.ok, JSON.stringify(record));
    assert.deepEqual(record.values, [1, 1, "2020-05-20"]);
  });
});
