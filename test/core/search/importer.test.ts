import { test } from "node:test";
import assert from "node:assert/strict";
import { allPages, importPages, type FetchedPage, type PageKey } from "../../../src/core/search/index.js";

interface Row {
  id: string;
}

// Two parts of 250 and 120 rows; ids say part and position.
const parts = [
  { filters: { part: 0 }, count: 250 },
  { filters: { part: 1 }, count: 120 },
];
const rowsOf = (part: number, page: number, size: number, count: number): Row[] =>
  Array.from({ length: Math.max(0, Math.min(size, count - (page - 1) * size)) }, (_, i) => ({ id: `${part}-${(page - 1) * size + i}` }));

const transient = (kind = "server") => Object.assign(new Error(kind), { kind });

function run(
  options: {
    failures?: Map<string, number>;
    fatalAt?: string;
    pages?: PageKey[];
    seen?: Set<string>;
    signal?: AbortSignal;
    onFetch?: (key: string) => void;
    moved?: boolean;
  } = {},
) {
  const written: { key: PageKey; ids: string[] }[] = [];
  const fetched: string[] = [];
  const promise = importPages<Row>({
    parts,
    pageSize: 100,
    ...(options.pages ? { pages: options.pages } : {}),
    ...(options.seen ? { seen: options.seen } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    window: 4,
    idOf: (r) => r.id,
    async fetch(filters, page, size): Promise<FetchedPage<Row>> {
      const part = (filters as { part: number }).part;
      const key = `${part}:${page}`;
      fetched.push(key);
      options.onFetch?.(key);
      // Later pages answer sooner, so pages complete out of order.
      await new Promise((r) => setImmediate(r));
      if (key === options.fatalAt) throw Object.assign(new Error("refused"), { kind: "validation" });
      const left = options.failures?.get(key) ?? 0;
      if (left > 0) {
        options.failures!.set(key, left - 1);
        throw transient();
      }
      const count = parts[part]!.count + (options.moved && part === 1 ? 5 : 0);
      // A moved result set shifts rows: page 2 of part 1 repeats the last row of page 1.
      const rows = options.moved && part === 1 && page === 2 ? [{ id: `1-99` }, ...rowsOf(part, page, size, count).slice(1)] : rowsOf(part, page, size, count);
      return { items: rows, totalResults: count };
    },
    async deliver(items, key) {
      written.push({ key, ids: items.map((r) => r.id) });
    },
  });
  return { promise, written, fetched };
}

test("every page is written once, in plan order, though pages complete out of order", async () => {
  const { promise, written } = run();
  const result = await promise;
  assert.deepEqual(
    written.map((w) => `${w.key.part}:${w.key.page}`),
    ["0:1", "0:2", "0:3", "1:1", "1:2"],
  );
  assert.equal(result.rowsDelivered, 370);
  assert.deepEqual(result.missing, []);
  assert.equal(new Set(written.flatMap((w) => w.ids)).size, 370);
});

test("a failed page is asked once: retrying is the client's one retry policy, not a second layer here", async () => {
  const { promise, written, fetched } = run({ failures: new Map([["0:2", 1]]) });
  const result = await promise;
  assert.equal(fetched.filter((k) => k === "0:2").length, 1);
  assert.deepEqual(result.missing, [{ part: 0, page: 2 }]);
  assert.equal(written.length, 4);
});

test("a page that fails for good is reported missing, the rest is written, and Resume fetches only it", async () => {
  const failures = new Map([["0:3", 99]]);
  const { promise, written } = run({ failures });
  const result = await promise;
  assert.deepEqual(result.missing, [{ part: 0, page: 3 }]);
  assert.equal(result.rowsDelivered, 320);
  assert.equal((result.lastPageError as { kind: string }).kind, "server");
  assert.deepEqual(
    written.map((w) => `${w.key.part}:${w.key.page}`),
    ["0:1", "0:2", "1:1", "1:2"],
  );

  failures.clear();
  const seen = new Set(written.flatMap((w) => w.ids));
  const resume = run({ pages: result.missing, seen });
  const resumed = await resume.promise;
  assert.deepEqual(resume.fetched, ["0:3"]);
  assert.deepEqual(resumed.missing, []);
  assert.equal(seen.size, 370);
});

test("a refused request stops the import; every page not written is missing", async () => {
  const { promise, written } = run({ fatalAt: "0:3" });
  const result = await promise;
  assert.equal((result.fatal as { kind: string }).kind, "validation");
  assert.deepEqual(
    written.map((w) => `${w.key.part}:${w.key.page}`),
    ["0:1", "0:2"],
  );
  assert.deepEqual(result.missing, [
    { part: 0, page: 3 },
    { part: 1, page: 1 },
    { part: 1, page: 2 },
  ]);
});

test("a moved total is reported and a repeated record is written once", async () => {
  const { promise, written } = run({ moved: true });
  const result = await promise;
  assert.deepEqual(result.moved, [{ part: 1, planned: 120, now: 125 }]);
  assert.equal(result.duplicates, 1);
  const ids = written.flatMap((w) => w.ids);
  assert.equal(new Set(ids).size, ids.length);
});

test("Cancel stops fetching; what was not written is missing and nothing is fatal", async () => {
  const controller = new AbortController();
  const { promise, fetched } = run({ signal: controller.signal, onFetch: (k) => k === "0:3" && controller.abort() });
  const result = await promise;
  assert.equal(result.cancelled, true);
  assert.equal(result.fatal, undefined);
  assert.ok(!fetched.includes("1:2"));
  assert.ok(result.missing.length >= 3);
});

test("allPages stops at the reach of one search", () => {
  assert.equal(allPages([{ count: 12_345 }], 100).length, 100);
});
