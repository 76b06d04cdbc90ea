// The persistent stores of the enrichment engine on an OfficeRuntime.storage-shaped store.
import { memoryKeyValueStorage } from "../../src/core/storage/keyValue.js";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createEnrichmentEngine } from "../../src/core/enrich/index.js";
import { createStorageCacheStore, createStorageSpendStore } from "../../src/office/persistentCache.js";
import { FakeEnrichClient } from "../core/enrich/fakeClient.js";

/** OfficeRuntime.storage in memory (the port's own memory adapter), with its map to look into. */
function memoryStorage() {
  const items = new Map<string, string>();
  return Object.assign(memoryKeyValueStorage(items), { items });
}

/** An engine whose cache and spend are kept in the storage, as a runtime after a restart builds it. */
function engineOn(storage: ReturnType<typeof memoryStorage>, client: FakeEnrichClient, user?: string) {
  return createEnrichmentEngine({ client, windowMs: 1, cache: createStorageCacheStore(storage), spendStore: createStorageSpendStore(storage, user) });
}

describe("persistent enrichment stores", () => {
  it("survive a new runtime: the cache answers, the day's count and the user's cap remain", async () => {
    const storage = memoryStorage();
    const first = new FakeEnrichClient();
    const engine1 = engineOn(storage, first, "user-1");
    await engine1.setDailyNewRecordCap(500);
    await Promise.all([1, 2, 3].map((id) => engine1.getCells("company", id, "name,revenue")));
    await engine1.whenIdle();

    const second = new FakeEnrichClient();
    const engine2 = engineOn(storage, second, "user-1");
    const again = await engine2.getCells("company", 2, "revenue");
    assert.ok(again.ok && again.values[0] === 20);
    assert.equal(second.calls.length, 0);
    const spend = await engine2.spendStatus();
    assert.equal(spend.cap, 500);
    assert.equal(spend.used, 3);
  });

  it("clears only the cache's own keys", async () => {
    const storage = memoryStorage();
    storage.items.set("bizdata.settings", "{}");
    const engine = createEnrichmentEngine({ client: new FakeEnrichClient(), windowMs: 1, cache: createStorageCacheStore(storage) });
    await engine.getCells("company", 9, "name");
    await engine.whenIdle();
    assert.ok([...storage.items.keys()].some((k) => k.startsWith("biz-enrich:")));
    await engine.clearCache();
    assert.deepEqual([...storage.items.keys()], ["bizdata.settings"]);
  });

  it("treats a damaged entry as a miss", async () => {
    const storage = memoryStorage();
    storage.items.set("biz-enrich:v1:company:5", "{not json");
    storage.items.set("biz-enrich-spend:default", "garbage");
    const client = new FakeEnrichClient();
    const engine = engineOn(storage, client);
    const result = await engine.getCells("company", 5, "name");
    assert.ok(result.ok && result.values[0] === "Company 5");
    assert.equal(client.calls.length, 1);
    assert.equal((await engine.spendStatus()).cap, 1000);
  });

  it("reads the count where an earlier version kept it when the small store has none", async () => {
    const small = memoryStorage();
    const earlier = memoryStorage();
    earlier.items.set("biz-enrich-spend:u", '{"day":"2026-01-01","used":5,"cap":10}');
    const spend = createStorageSpendStore(small, "u", undefined, earlier);
    assert.deepEqual(await spend.load(), { day: "2026-01-01", used: 5, cap: 10 });
    await spend.save({ day: "2026-01-01", used: 6, cap: 10 });
    assert.deepEqual(await spend.load(), { day: "2026-01-01", used: 6, cap: 10 });
  });

  it("reads a stored count of the wrong shape as none, and a sound one as it was", async () => {
    const storage = memoryStorage();
    const spend = createStorageSpendStore(storage, "u");
    for (const damaged of [
      '{"day":"2026-01-01","used":"5","cap":10}',
      '{"day":"2026-01-01","used":-1,"cap":10}',
      '{"day":"2026-01-01","cap":10}',
      "[]",
      "null",
    ]) {
      storage.items.set("biz-enrich-spend:u", damaged);
      assert.equal(await spend.load(), undefined, damaged);
    }
    storage.items.set("biz-enrich-spend:u", '{"day":"2026-01-01","used":5,"cap":10}');
    assert.deepEqual(await spend.load(), { day: "2026-01-01", used: 5, cap: 10 });
  });
});
