// JSON values one per key: a damaged, ill-shaped or mismatched entry reads as missing (so it is
// fetched again rather than shown), and a value read or put once is kept in memory.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { jsonItems } from "../../../src/core/storage/jsonItems.js";

type Note = { id: number; text: string };
const isNote = (value: unknown): value is Note =>
  typeof value === "object" && value !== null && typeof (value as Note).id === "number" && typeof (value as Note).text === "string";

function store(entries: Record<string, string>) {
  const data = new Map(Object.entries(entries));
  let reads = 0;
  const items = {
    getItem: async (key: string) => {
      reads += 1;
      return data.get(key) ?? null;
    },
    setItem: async (key: string, value: string) => void data.set(key, value),
  };
  return { items, data, reads: () => reads };
}

describe("JSON items in a key-value store", () => {
  const mine = (id: number) => (note: Note) => note.id === id;

  it("reads a stored value once, then from memory", async () => {
    const s = store({ a: JSON.stringify({ id: 1, text: "hello" }) });
    const items = jsonItems(s.items, isNote);
    assert.deepEqual(await items.get("a", mine(1)), { id: 1, text: "hello" });
    assert.deepEqual(await items.get("a", mine(1)), { id: 1, text: "hello" });
    assert.equal(s.reads(), 1);
  });

  it("reads damaged JSON, a value of the wrong shape and another record's value as missing", async () => {
    const s = store({ broken: "{not json", shape: JSON.stringify({ id: 1 }), other: JSON.stringify({ id: 2, text: "x" }) });
    const items = jsonItems(s.items, isNote);
    assert.equal(await items.get("broken", mine(1)), undefined);
    assert.equal(await items.get("shape", mine(1)), undefined);
    assert.equal(await items.get("other", mine(1)), undefined);
    assert.equal(await items.get("absent", mine(1)), undefined);
  });

  it("writes what it puts as JSON and reads it back without the store", async () => {
    const s = store({});
    const items = jsonItems(s.items, isNote);
    await items.put("n", { id: 3, text: "kept" });
    assert.equal(s.data.get("n"), JSON.stringify({ id: 3, text: "kept" }));
    assert.deepEqual(await items.get("n", mine(3)), { id: 3, text: "kept" });
    assert.equal(s.reads(), 0);
  });
});
