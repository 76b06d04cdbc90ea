// The one host picker of the user's storage: OfficeRuntime.storage inside Office for every
// use, localStorage for small items in a page, nothing persistent elsewhere.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { hostStorage, userStorage } from "../../src/office/hostStorage.js";
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
    assert.equal(userStorage(), office);
  });
});
