// Storage that stays inside its budget, on a fake of OfficeRuntime.storage with the host's 10 MB
// quota per domain: the caches are bounded and evict the least recently used, the small items
// (settings, job list, daily count) are still saved when the caches are full, a failing write is
// told once, and a daily count that cannot be kept never lets the cap be passed.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createEnrichmentEngine, MemoryCacheStore } from "../../src/core/enrich/index.js";
import { keyValueJobStorage } from "../../src/core/jobs/index.js";
import { SANDBOX_ENVIRONMENT } from "../../src/core/settings/environment.js";
import { createUserSettingsStore } from "../../src/core/settings/userSettings.js";
import { SMALL_STORE_CACHE_BUDGETS } from "../../src/core/storage/budget.js";
import { StorageNotices, type StorageProblem } from "../../src/core/storage/storageNotices.js";
import { userStorage } from "../../src/office/hostStorage.js";
import { createStorageCacheStore, createStorageSpendStore, enrichmentStores, researchStorage } from "../../src/office/persistentCache.js";
import { AI_SPEND_KEY_PREFIX } from "../../src/core/research/aiCredits.js";
import { BRIEFING_KEY_PREFIX } from "../../src/core/research/briefingStore.js";
import { FakeEnrichClient } from "../core/enrich/fakeClient.js";
import { FakeDomainStorage, TEN_MB } from "./fakeDomainStorage.js";

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 28, 12);
const BUDGET = SMALL_STORE_CACHE_BUDGETS.enrichmentBytes;

const DESCRIPTION = "The company makes things for other companies, and sells them in many countries. ".repeat(11);

/** An enriched company as the record cache stores it: about 1 KB, like a real one with its usual columns. */
function storedRecord(id: number): string {
  const at = NOW;
  const fields = {
    name: [`Company ${id} Holdings`, at],
    website: [`https://www.company${id}.example`, at],
    revenue: [id * 1000, at],
    employeeCount: [id % 5000, at],
    street: [`${id} Market Street`, at],
    city: ["San Francisco", at],
    description: [DESCRIPTION, at],
  };
  return JSON.stringify({ format: 2, fields });
}

const key = (id: number) => `biz-enrich:v1:company:${id}`;

/** A budget with room for `count` records like storedRecord's (and half of one more). */
async function roomFor(count: number): Promise<number> {
  const probe = createStorageCacheStore(new FakeDomainStorage(), { now: () => NOW });
  const empty = await probe.usedBytes();
  await probe.setMany([[key(1), storedRecord(1)]]);
  const entry = (await probe.usedBytes()) - empty;
  return empty + Math.floor((count + 0.5) * entry);
}

/** The page's notices, with what they told. */
function toldNotices() {
  const notices = new StorageNotices();
  const told: StorageProblem[] = [];
  notices.subscribe((problem) => told.push(problem));
  return { notices, told };
}

describe("storage inside its budget", () => {
  it("keeps 20,000 enriched records within the cache's share while settings, jobs and the daily count are still saved", async () => {
    const domain = new FakeDomainStorage();
    // Another add-in of the same domain already keeps 2 MB there.
    domain.items.set("other-addin:data", "x".repeat(1024 * 1024));
    const cache = createStorageCacheStore(domain, { now: () => NOW });
    assert.ok(storedRecord(1).length > 1000);
    for (let start = 1; start <= 20_000; start += 100) {
      const batch = Array.from({ length: 100 }, (_, i) => [`biz-enrich:v1:company:${start + i}`, storedRecord(start + i)] as const);
      await cache.setMany(batch);
    }
    assert.ok(domain.bytes("biz-enrich:") <= BUDGET, `the cache takes ${domain.bytes("biz-enrich:")} bytes`);
    assert.ok(domain.bytes("biz-enrich:") <= (await cache.usedBytes()), "the cache counts at least what the host counts");
    assert.equal(domain.refusals, 0);
    // The newest records are kept, the oldest gave way.
    const found = await cache.getMany(["biz-enrich:v1:company:20000", "biz-enrich:v1:company:1"]);
    assert.deepEqual([...found.keys()], ["biz-enrich:v1:company:20000"]);

    const settings = createUserSettingsStore(domain);
    assert.deepEqual(await settings.save({ environment: SANDBOX_ENVIRONMENT }), []);
    const jobs = keyValueJobStorage(domain, "user");
    await jobs.save([]);
    const spend = createStorageSpendStore(domain, "user");
    await spend.save({ day: "2026-11-28", used: 7, cap: 50 });
    assert.deepEqual((await settings.load()).environment, SANDBOX_ENVIRONMENT);
    assert.deepEqual(await spend.load(), { day: "2026-11-28", used: 7, cap: 50 });
    assert.deepEqual(await jobs.load(), []);
  });

  it("evicts the least recently used first: a record read again stays", async () => {
    const domain = new FakeDomainStorage();
    const budgetBytes = await roomFor(6);
    const cache = createStorageCacheStore(domain, { now: () => NOW, budgetBytes });
    for (let id = 1; id <= 6; id++) await cache.setMany([[key(id), storedRecord(id)]]);
    await cache.getMany([key(1)]);
    for (const id of [7, 8]) await cache.setMany([[key(id), storedRecord(id)]]);
    const kept = await cache.getMany(Array.from({ length: 8 }, (_, i) => key(i + 1)));
    assert.deepEqual([...kept.keys()], [1, 4, 5, 6, 7, 8].map(key), "read again, 1 stays; 2 and 3, least recently used, went");
    assert.ok(domain.bytes("biz-enrich:") <= budgetBytes);
  });

  it("evicts entries written before the management window before any other, and keeps the order across a restart", async () => {
    const domain = new FakeDomainStorage();
    const budgetBytes = await roomFor(6);
    let now = NOW - 400 * DAY;
    const first = createStorageCacheStore(domain, { now: () => now, budgetBytes });
    await first.setMany([[key(1), storedRecord(1)]]);
    now = NOW;
    for (let id = 2; id <= 5; id++) await first.setMany([[key(id), storedRecord(id)]]);
    // 1 is used again, but it was written 400 days ago: past the 12 months a record is under management.
    await first.getMany([key(1)]);
    await first.getMany([key(2)]);
    // The index is rewritten every few seconds: the next write, a minute on, saves the order.
    now += 60_000;
    await first.setMany([[key(6), storedRecord(6)]]);
    const second = createStorageCacheStore(domain, { now: () => now, budgetBytes });
    for (const id of [7, 8]) await second.setMany([[key(id), storedRecord(id)]]);
    const kept = await second.getMany([1, 2, 3, 4, 5].map(key));
    assert.deepEqual([...kept.keys()], [2, 4, 5].map(key), "the stale one first, then by last use as the index kept it");
  });

  it("measures and keeps in its budget entries an earlier version left without an index", async () => {
    const domain = new FakeDomainStorage();
    for (let id = 1; id <= 100; id++) domain.items.set(`biz-enrich:v1:company:${id}`, storedRecord(id));
    domain.items.set("bizdata.userSettings", "{}");
    const cache = createStorageCacheStore(domain, { now: () => NOW, budgetBytes: 50_000 });
    assert.ok((await cache.usedBytes()) <= 50_000);
    assert.ok(domain.bytes("biz-enrich:") <= 50_000);
    assert.equal(domain.items.get("bizdata.userSettings"), "{}");
  });
});

describe("research briefings", () => {
  it("are a cache of their own budget, while today's AI count stays a small item", async () => {
    const domain = new FakeDomainStorage();
    (globalThis as Record<string, unknown>).OfficeRuntime = { storage: domain };
    try {
      const research = researchStorage(new StorageNotices());
      const markdown = "## Briefing\n".padEnd(20_000, "text ");
      for (let id = 1; id <= 60; id++)
        await research.setItem(`${BRIEFING_KEY_PREFIX}|scope|${id}`, JSON.stringify({ companyId: String(id), markdown, fetchedAt: NOW }));
      await research.setItem(`${AI_SPEND_KEY_PREFIX}|scope`, '{"day":"2026-11-28","used":3,"cap":100}');
      assert.ok(domain.bytes(BRIEFING_KEY_PREFIX) <= SMALL_STORE_CACHE_BUDGETS.briefingBytes, `${domain.bytes(BRIEFING_KEY_PREFIX)} bytes`);
      assert.ok(domain.items.has(`${BRIEFING_KEY_PREFIX}#index`));
      assert.ok(await research.getItem(`${BRIEFING_KEY_PREFIX}|scope|60`), "the latest is kept");
      assert.equal(await research.getItem(`${BRIEFING_KEY_PREFIX}|scope|1`), null, "the oldest gave way");
      assert.equal(domain.items.get(`${AI_SPEND_KEY_PREFIX}|scope`), '{"day":"2026-11-28","used":3,"cap":100}');
    } finally {
      delete (globalThis as Record<string, unknown>).OfficeRuntime;
    }
  });
});

describe("a storage that refuses", () => {
  it("tells a failing cache write once, and the cells still answer (it costs only speed)", async () => {
    const domain = new FakeDomainStorage();
    domain.writesDenied = true;
    const { notices, told } = toldNotices();
    const client = new FakeEnrichClient();
    const cache = createStorageCacheStore(domain, { now: () => NOW, onFailure: () => notices.report("cache") });
    const engine = createEnrichmentEngine({ client, windowMs: 1, cache });
    for (const id of [1, 2, 3]) {
      const result = await engine.getCells("company", id, "name");
      assert.ok(result.ok && result.values[0] === `Company ${id}`);
      await engine.whenIdle();
    }
    const again = await engine.getCells("company", 2, "name");
    assert.ok(again.ok && again.values[0] === "Company 2");
    assert.equal(client.calls.length, 3, "the session's memory still answers");
    assert.ok(domain.refusals >= 3, "every write was tried");
    assert.deepEqual(told, ["cache"]);
  });

  it("gives room back to the settings and the daily count when other add-ins of the domain filled it", async () => {
    const domain = new FakeDomainStorage();
    (globalThis as Record<string, unknown>).OfficeRuntime = { storage: domain };
    try {
      const { notices, told } = toldNotices();
      const { cache, spendStore } = enrichmentStores("user", notices);
      for (let start = 1; start <= 2000; start += 100) {
        await cache.setMany(Array.from({ length: 100 }, (_, i) => [key(start + i), storedRecord(start + i)] as const));
      }
      assert.ok(domain.bytes("biz-enrich:") > BUDGET * 0.9, "the cache took its share");
      // Another add-in of the domain takes all that is left.
      domain.items.set("other-addin:data", "x".repeat(Math.floor((TEN_MB - domain.bytes()) / 2) - 20));
      assert.ok(TEN_MB - domain.bytes() < 100, "less room left than the daily count takes");
      await spendStore.save({ day: "2026-11-28", used: 1, cap: 5 });
      assert.deepEqual(await spendStore.load(), { day: "2026-11-28", used: 1, cap: 5 });
      const settings = createUserSettingsStore(userStorage());
      assert.deepEqual(await settings.save({ environment: SANDBOX_ENVIRONMENT }), []);
      assert.ok(domain.bytes("biz-enrich:") < BUDGET / 2 + 4096, "the cache gave half its room");
      assert.deepEqual(told, []);
    } finally {
      delete (globalThis as Record<string, unknown>).OfficeRuntime;
    }
  });
});

describe("the management window", () => {
  it("counts a record cached from more than 12 months ago as new again, and one from within them as under management", async () => {
    const cache = new MemoryCacheStore();
    const cached = (daysAgo: number) => JSON.stringify({ format: 2, fields: { name: ["Old name", NOW - daysAgo * DAY] } });
    await cache.setMany([
      [key(5), cached(400)],
      [key(6), cached(100)],
    ]);
    const client = new FakeEnrichClient();
    const engine = createEnrichmentEngine({ client, cache, windowMs: 1, clock: { now: () => NOW }, dailyNewRecordCap: 0 });
    const [old, recent] = await Promise.all([engine.getCells("company", 5, "name"), engine.getCells("company", 6, "name")]);
    assert.ok(recent.ok && recent.values[0] === "Company 6", "past 30 days it is fetched again, free");
    assert.ok(!old.ok, "past 12 months it may cost a credit: today's cap of 0 refuses it");
  });
});

describe("the daily cap when its count cannot be kept", () => {
  const engineOn = (domain: FakeDomainStorage, client: FakeEnrichClient, onFailure?: () => void) =>
    createEnrichmentEngine({ client, windowMs: 1, clock: { now: () => NOW }, spendStore: createStorageSpendStore(domain, "user", onFailure) });

  it("grants nothing new while the stored count cannot be read, and never writes over it", async () => {
    const domain = new FakeDomainStorage();
    domain.items.set("biz-enrich-spend:user", '{"day":"2026-11-28","used":5,"cap":5}');
    domain.readsDenied = true;
    const { notices, told } = toldNotices();
    const client = new FakeEnrichClient();
    const engine = engineOn(domain, client, () => notices.report("spend"));
    const result = await engine.getCells("company", 1, "name");
    assert.ok(!result.ok);
    await engine.whenIdle();
    assert.equal(client.calls.length, 0);
    const status = await engine.spendStatus();
    assert.ok(status.used >= status.cap, "said as reached");
    await assert.rejects(engine.setDailyNewRecordCap(100));
    assert.equal(domain.items.get("biz-enrich-spend:user"), '{"day":"2026-11-28","used":5,"cap":5}');
    // Readable again: the stored count rules, and the cap is still reached.
    domain.readsDenied = false;
    assert.ok(!(await engine.getCells("company", 2, "name")).ok);
    assert.equal(client.calls.length, 0);
    assert.deepEqual(told, ["spend"]);
  });

  it("grants nothing more once a save failed, until one succeeds, so a restart cannot count again from less", async () => {
    const domain = new FakeDomainStorage();
    const client = new FakeEnrichClient();
    const engine = engineOn(domain, client);
    await engine.setDailyNewRecordCap(10);
    assert.ok((await engine.getCells("company", 1, "name")).ok);
    await engine.whenIdle();
    domain.writesDenied = true;
    assert.ok((await engine.getCells("company", 2, "name")).ok, "granted before the failing save was known");
    await engine.whenIdle();
    for (const id of [3, 4, 5]) assert.ok(!(await engine.getCells("company", id, "name")).ok);
    await engine.whenIdle();
    assert.equal(client.calls.length, 2);
    domain.writesDenied = false;
    assert.ok(!(await engine.getCells("company", 6, "name")).ok, "this pass saves the count again");
    await engine.whenIdle();
    assert.ok((await engine.getCells("company", 7, "name")).ok, "saved: new records again");
    await engine.whenIdle();
    const stored = JSON.parse(domain.items.get("biz-enrich-spend:user")!) as { used: number };
    assert.equal(stored.used, 3, "every record sent is in the stored count");
  });
});
