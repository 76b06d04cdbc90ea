import { test } from "node:test";
import assert from "node:assert/strict";
import { describePlan, narrow, pageRequests, planPartition, splitPoint, dimensionsFor, type Filters } from "../../../src/core/search/index.js";

// Records with the values the splitting filters test; a missing value is undefined, as a record
// without that field at the service.
interface Rec {
  id: number;
  employees?: number;
  revenue?: number;
  accuracy?: number;
}

// The service's semantics: a min or max filter keeps records whose value is present and within
// the inclusive bound (value >= min AND value <= max).
function matches(r: Rec, f: Filters): boolean {
  const within = (v: number | undefined, min: unknown, max: unknown) => {
    if (min === undefined && max === undefined) return true;
    if (v === undefined) return false;
    return (min === undefined || v >= Number(min)) && (max === undefined || v <= Number(max));
  };
  return (
    within(r.employees, f.employeeRangeMin, f.employeeRangeMax) &&
    within(r.revenue, f.revenueMin, f.revenueMax) &&
    within(r.accuracy, f.contactAccuracyScoreMin, f.contactAccuracyScoreMax)
  );
}

function dataset(records: Rec[]) {
  let probes = 0;
  return {
    count: async (f: Filters) => {
      probes++;
      return records.filter((r) => matches(r, f)).length;
    },
    probes: () => probes,
  };
}

/** Every record of the search in exactly one part. */
function assertPartition(records: Rec[], base: Filters, parts: { filters: Filters }[]) {
  for (const r of records.filter((x) => matches(x, base))) {
    const holders = parts.filter((p) => matches(r, p.filters)).length;
    assert.equal(holders, 1, `record ${JSON.stringify(r)} is in ${holders} parts`);
  }
  for (const r of records.filter((x) => !matches(x, base))) {
    assert.equal(parts.filter((p) => matches(r, p.filters)).length, 0, `record ${r.id} outside the search is in a part`);
  }
}

// Heavy-tailed sizes, many records exactly on powers of ten (likely split points).
function companies(n: number, seed = 7): Rec[] {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: n }, (_, i) => {
    const employees = i % 10 === 0 ? 10 ** (i % 4) : Math.max(1, Math.round(Math.exp(rnd() * 10)));
    return { id: i + 1, employees, revenue: employees * (50 + Math.floor(rnd() * 200)) };
  });
}

test("parts are disjoint, cover the search, and each stays within the reach", async () => {
  const records = companies(5000);
  const data = dataset(records);
  const plan = await planPartition({ kind: "company", filters: {}, count: data.count, reach: 400 });
  assert.equal(plan.total, 5000);
  assert.ok(plan.parts.length >= 13, `${plan.parts.length} parts`);
  assert.ok(plan.parts.every((p) => p.count <= 400 && !p.unsplittable));
  assert.equal(
    plan.parts.reduce((s, p) => s + p.count, 0),
    5000,
  );
  assert.equal(plan.reachable, 5000);
  assertPartition(records, {}, plan.parts);
  // Every part's count is the true count of its filters (siblings' counts are derived).
  for (const p of plan.parts) assert.equal(await data.count(p.filters), p.count);
  assert.equal(plan.probes, data.probes() - plan.parts.length);
});

test("edge values at the bounds: records exactly on every split point land in one part", async () => {
  // All values on the split points the planner will choose, plus their neighbours.
  const points = new Set<number>();
  const lo = 0;
  let hi = 2000;
  for (let i = 0; i < 12 && lo < hi; i++) {
    const m = splitPoint(lo, hi);
    [m - 1, m, m + 1].forEach((v) => v >= 0 && points.add(v));
    hi = m;
  }
  const records: Rec[] = [];
  let id = 1;
  for (const v of points) for (let k = 0; k < 30; k++) records.push({ id: id++, employees: v, revenue: k });
  const data = dataset(records);
  const plan = await planPartition({ kind: "company", filters: { employeeRangeMax: "2000" }, count: data.count, reach: 50 });
  assertPartition(records, { employeeRangeMax: "2000" }, plan.parts);
  assert.equal(plan.reachable, records.length);
});

test("the user's own range is kept: fractional bounds become the whole numbers they mean", async () => {
  const records = companies(3000);
  const base = { employeeRangeMin: "4.5", employeeRangeMax: "900.5", revenueMin: 10 };
  const data = dataset(records);
  const plan = await planPartition({ kind: "company", filters: base, count: data.count, reach: 200 });
  assertPartition(records, base, plan.parts);
  for (const p of plan.parts) {
    assert.ok(Number(p.filters.employeeRangeMin) >= 5 && Number(p.filters.employeeRangeMax) <= 900);
    assert.ok(Number(p.filters.revenueMin ?? 10) >= 10);
  }
});

test("records missing a splitting value: that filter is not used, the next one is", async () => {
  // Contacts: the accuracy score is missing on some; employees and revenue are on every record.
  const records: Rec[] = companies(2000).map((r, i) => (i % 7 === 0 ? r : { ...r, accuracy: 70 + (i % 30) }));
  const data = dataset(records);
  const plan = await planPartition({ kind: "contact", filters: {}, count: data.count, reach: 300 });
  assertPartition(records, {}, plan.parts);
  assert.ok(plan.parts.every((p) => p.filters.contactAccuracyScoreMin === undefined));
  assert.equal(plan.reachable, 2000);
});

test("a slice identical on every splitting filter is unsplittable: reported, reachable below total", async () => {
  const records: Rec[] = [...companies(500), ...Array.from({ length: 130 }, (_, i) => ({ id: 10_000 + i, employees: 42, revenue: 4200 }))];
  const data = dataset(records);
  const plan = await planPartition({ kind: "company", filters: {}, count: data.count, reach: 100 });
  assertPartition(records, {}, plan.parts);
  const stuck = plan.parts.filter((p) => p.unsplittable);
  assert.equal(stuck.length, 1);
  assert.ok(stuck[0]!.count >= 130);
  assert.equal(stuck[0]!.filters.employeeRangeMin, "42");
  assert.equal(stuck[0]!.filters.revenueMin, 4200);
  assert.equal(plan.reachable, plan.total - (stuck[0]!.count - 100));
});

test("a search within reach is one part with no probes beyond the total", async () => {
  const data = dataset(companies(80));
  const plan = await planPartition({ kind: "company", filters: {}, count: data.count, reach: 100 });
  assert.equal(plan.parts.length, 1);
  assert.equal(plan.probes, 1);
});

test("descending sort on a splitting field orders the parts from high to low", async () => {
  const records = companies(3000);
  const data = dataset(records);
  const plan = await planPartition({ kind: "company", filters: {}, sort: "-revenue", count: data.count, reach: 300 });
  assert.equal(dimensionsFor("company", "-revenue")[0]!.minFilter, "revenueMin");
  const lows = plan.parts.map((p) => Number(p.filters.revenueMin));
  assert.deepEqual(
    lows,
    [...lows].sort((a, b) => b - a),
  );
  assertPartition(records, {}, plan.parts);
});

test("the preview sentence: total, parts, requests and time at the rate limit", async () => {
  const data = dataset(companies(5000));
  const plan = await planPartition({ kind: "company", filters: {}, count: data.count, reach: 1000 });
  const requests = pageRequests(plan, 100, 1000);
  assert.ok(requests >= 50 && requests <= 50 + plan.parts.length);
  const text = describePlan({ ...plan, total: 42_310 }, 25);
  assert.match(text, new RegExp(`^42,310 companies — imported in ${plan.parts.length} parts, about \\d+ requests, about \\d+ s at your rate limit$`));
  assert.deepEqual(narrow({ a: 1 }, [{ dimension: 0, lo: 5, hi: 9 }], dimensionsFor("company")), { a: 1, employeeRangeMin: "5", employeeRangeMax: "9" });
});
