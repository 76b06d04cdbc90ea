// The one host picker of the user's storage: the small items in OfficeRuntime.storage inside
// Office and localStorage in a page; the caches in IndexedDB where the page has it, else a budgeted
// share of the small store; nothing persistent elsewhere.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { cacheHome, hostStorage } from "../../src/office/cacheHome.js";
import { storageNotices, userStorage } from "../../src/office/hostStorage.js";
import { memoryKeyValueStorage } from "../../src/core/storage/keyValue.js";

/** A Storage (the page's localStorage) on a Map. */
function fakeLocalStorage(): Storage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    get length() {
      return map.size;
    },
    key: (i: number) => [...map.keys()][i] ?? null,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
    clear: () => map.clear(),
  };
}

const globals = globalThis as Record<string, unknown>;

describe("host storage picker", () => {
  afterEach(() => {
    delete globals.localStorage;
    delete globals.OfficeRuntime;
    delete globals.indexedDB;
  });

  it("keeps nothing when the host has no storage, and the user's items then live in memory", async () => {
    assert.equal(hostStorage("items"), undefined);
    assert.equal(hostStorage("bulk"), undefined);
    const storage = userStorage();
    await storage.setItem("k", "v");
    assert.equal(await storage.getItem("k"), "v");
  });

  it("puts small items in the page's localStorage through the whole port", async () => {
    const local = fakeLocalStorage();
    globals.localStorage = local;
    const storage = userStorage();
    await storage.setItem("bizdata.userSettings", "{}");
    await storage.setItems({ a: "1", b: "2" });
    assert.equal(local.map.get("bizdata.userSettings"), "{}");
    assert.deepEqual(await storage.getItems(["a", "missing"]), { a: "1", missing: null });
    await storage.removeItems(["a"]);
    assert.deepEqual((await storage.getKeys()).sort(), ["b", "bizdata.userSettings"]);
  });

  it("uses OfficeRuntime.storage for every use inside Office", () => {
    const office = memoryKeyValueStorage();
    globals.localStorage = fakeLocalStorage();
    globals.OfficeRuntime = { storage: office };
    assert.equal(hostStorage("items"), office);
    assert.equal(hostStorage("bulk"), office);
    const cache = cacheHome();
    assert.equal(cache?.storage, office, "without IndexedDB the caches take their share of it");
    assert.equal(cache?.sharesSmallStore, true);
    assert.ok(cache.budgets.enrichmentBytes + cache.budgets.briefingBytes <= 5 * 1024 * 1024, "half the domain's 10 MB at most");
  });

  it("keeps the caches in IndexedDB where the page has it, and the small items in OfficeRuntime.storage", async () => {
    const office = memoryKeyValueStorage();
    globals.OfficeRuntime = { storage: office };
    globals.indexedDB = {};
    const cache = cacheHome();
    assert.notEqual(cache?.storage, office);
    assert.equal(cache?.sharesSmallStore, false);
    assert.equal(hostStorage("items"), office);
    await userStorage().setItem("bizdata.userSettings", "{}");
    assert.equal(await office.getItem("bizdata.userSettings"), "{}");
  });

  it("tells a failing write of a small item to the page's notices, and still throws it", async () => {
    const office = memoryKeyValueStorage();
    office.setItem = async () => {
      throw new Error("denied");
    };
    globals.OfficeRuntime = { storage: office };
    const told: string[] = [];
    const stop = storageNotices.subscribe((problem) => told.push(problem));
    try {
      await assert.rejects(userStorage().setItem("bizdata.userSettings", "{}"), /denied/);
      await assert.rejects(userStorage().setItem("bizdata.userSettings", "{}"), /denied/);
    } finally {
      stop();
    }
    // Told once (the page's notices are shared by the process's files: it may have been told before them).
    assert.ok(told.length <= 1);
    assert.ok(storageNotices.current().includes("items"));
  });
});
