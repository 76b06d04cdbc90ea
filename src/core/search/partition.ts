// Splits a search whose total is above what one search reaches (100 pages of 100) into
// disjoint sub-searches whose union is exactly the original. Each split narrows one numeric
// range filter (see docs/large-searches.md for why these ranges partition the results):
//   - the service applies a min and a max filter as inclusive bounds (value >= min AND value <= max),
//   - the values are whole numbers, so [lo, mid] and [mid + 1, hi] are disjoint and cover [lo, hi],
//   - a record missing the value would fall outside every range: before a dimension is used on a
//     slice, one probe checks that the slice's full range still counts every record of the slice.
// Counts come from cheap probes (page size 1); a sibling's count is its parent's minus the probed
// half, which holds because the halves are disjoint and covering.
import { LIMITS, type COMPANY_SORT_FIELDS, type CONTACT_SORT_FIELDS, type FilterName, type SearchKind } from "../contract/index.js";

/** Results one search reaches. */
export const SEARCH_REACH = LIMITS.maxPageNumber * LIMITS.maxPageSize;

export type { SearchKind };
export type Filters = Record<string, unknown>;

/** A whole-number range filter the service applies with inclusive bounds. */
export interface RangeDimension {
  name: string;
  minFilter: FilterName;
  maxFilter: FilterName;
  /** Lowest and highest value the filter accepts. */
  floor: number;
  ceiling: number;
  /** The filter's values are sent as text (numericText filters) rather than numbers. */
  asText: boolean;
  /** The sort field that orders by this value, if any. */
  sortField?: (typeof COMPANY_SORT_FIELDS)[number] | (typeof CONTACT_SORT_FIELDS)[number];
}

const EMPLOYEES: RangeDimension = {
  name: "employees",
  minFilter: "employeeRangeMin",
  maxFilter: "employeeRangeMax",
  floor: 0,
  ceiling: LIMITS.maxInt32,
  asText: true,
  sortField: "employeeCount",
};
const REVENUE: RangeDimension = {
  name: "revenue ($K)",
  minFilter: "revenueMin",
  maxFilter: "revenueMax",
  floor: 0,
  ceiling: LIMITS.maxInt32,
  asText: false,
  sortField: "revenue",
};
const ACCURACY: RangeDimension = {
  name: "accuracy score",
  minFilter: "contactAccuracyScoreMin",
  maxFilter: "contactAccuracyScoreMax",
  floor: 70,
  ceiling: 99,
  asText: false,
  sortField: "contactAccuracyScore",
};

/** Splitting dimensions in the order they are tried; the one the sort orders by comes first. */
export function dimensionsFor(kind: SearchKind, sort?: string): RangeDimension[] {
  const all = kind === "company" ? [EMPLOYEES, REVENUE] : [ACCURACY, EMPLOYEES, REVENUE];
  const field = sort?.replace(/^-/, "");
  const first = all.find((d) => d.sortField === field);
  return first ? [first, ...all.filter((d) => d !== first)] : all;
}

export interface Bound {
  dimension: number;
  lo: number;
  hi: number;
}

export interface PlannedPart {
  /** The original filters narrowed by this part's bounds. */
  filters: Filters;
  /** Results of this part when it was counted. */
  count: number;
  bounds: Bound[];
  /** More results than one search reaches, identical on every splitting filter. */
  unsplittable: boolean;
}

export interface PartitionPlan {
  kind: SearchKind;
  sort?: string;
  total: number;
  parts: PlannedPart[];
  /** Count probes sent while planning. */
  probes: number;
  /** Results the parts can reach (total unless a part is unsplittable). */
  reachable: number;
}

export type CountProbe = (filters: Filters, signal?: AbortSignal) => Promise<number>;

function userBound(filters: Filters, d: RangeDimension): { lo: number; hi: number } {
  const read = (v: unknown): number | undefined => (v === undefined || String(v).trim() === "" ? undefined : Number(v));
  const min = read(filters[d.minFilter]);
  const max = read(filters[d.maxFilter]);
  // Whole-number values: value >= 4.5 is value >= 5, value <= 7.5 is value <= 7.
  return { lo: Math.max(d.floor, min === undefined ? d.floor : Math.ceil(min)), hi: Math.min(d.ceiling, max === undefined ? d.ceiling : Math.floor(max)) };
}

/** The original filters with each bound's min and max filter set. */
export function narrow(filters: Filters, bounds: readonly Bound[], dims: readonly RangeDimension[]): Filters {
  const out: Filters = { ...filters };
  for (const b of bounds) {
    const d = dims[b.dimension]!;
    out[d.minFilter] = d.asText ? String(b.lo) : b.lo;
    out[d.maxFilter] = d.asText ? String(b.hi) : b.hi;
  }
  return out;
}

/** The split point of [lo, hi] (lo < hi): geometric for wide ranges, as sizes and revenues are heavy-tailed. */
export function splitPoint(lo: number, hi: number): number {
  const geometric = Math.floor(Math.sqrt((lo + 1) * (hi + 1))) - 1;
  const arithmetic = Math.floor((lo + hi) / 2);
  const mid = hi - lo > 64 ? geometric : arithmetic;
  return Math.min(hi - 1, Math.max(lo, mid));
}

export interface PlanOptions {
  kind: SearchKind;
  filters: Filters;
  sort?: string;
  /** The search's total, when a first page already told it. */
  total?: number;
  count: CountProbe;
  /** Results one search reaches (default 10,000). */
  reach?: number;
  signal?: AbortSignal;
}

export async function planPartition(options: PlanOptions): Promise<PartitionPlan> {
  const reach = options.reach ?? SEARCH_REACH;
  const dims = dimensionsFor(options.kind, options.sort);
  let probes = 0;
  const probe = async (filters: Filters) => {
    probes++;
    return options.count(filters, options.signal);
  };
  const total = options.total ?? (await probe(options.filters));
  const leaves: PlannedPart[] = [];
  const leaf = (bounds: Bound[], count: number, unsplittable = false): void => {
    leaves.push({ filters: narrow(options.filters, bounds, dims), count, bounds, unsplittable });
  };

  // A slice is the original filters narrowed by `bounds`; the last bound is the one being split.
  const split = async (bounds: Bound[], count: number): Promise<void> => {
    if (count === 0) return;
    if (count <= reach) return leaf(bounds, count);
    const last = bounds[bounds.length - 1];
    if (last && last.lo < last.hi) {
      const mid = splitPoint(last.lo, last.hi);
      const low = [...bounds.slice(0, -1), { ...last, hi: mid }];
      const high = [...bounds.slice(0, -1), { ...last, lo: mid + 1 }];
      const lowCount = await probe(narrow(options.filters, low, dims));
      // Descending sort on this dimension: the high values come first in the table.
      const descending = options.sort?.startsWith("-") === true && dims[last.dimension]!.sortField === options.sort.slice(1);
      const halves: [Bound[], number][] = [
        [low, lowCount],
        [high, count - lowCount],
      ];
      if (descending) halves.reverse();
      for (const [b, n] of halves) await split(b, n);
      return;
    }
    // The current range is one value (or there is none yet): narrow by the next dimension.
    const next = last ? last.dimension + 1 : 0;
    for (let d = next; d < dims.length; d++) {
      const range = userBound(options.filters, dims[d]!);
      if (range.lo > range.hi) break;
      const bounded = [...bounds, { dimension: d, ...range }];
      // Coverage: every record of the slice has a value inside the dimension's range.
      const covered = await probe(narrow(options.filters, bounded, dims));
      if (covered === count) return split(bounded, count);
    }
    leaf(bounds, count, true);
  };
  await split([], total);
  const parts = mergeNeighbours(leaves, reach, options.filters, dims);
  const reachable = parts.reduce((sum, p) => sum + Math.min(p.count, reach), 0);
  return { kind: options.kind, ...(options.sort ? { sort: options.sort } : {}), total, parts, probes, reachable };
}

/**
 * Joins adjacent parts that differ only in the last range, touch, and together stay within the
 * reach: fewer parts means fewer part-filled last pages. Their union is the joined range.
 */
function mergeNeighbours(parts: PlannedPart[], reach: number, filters: Filters, dims: RangeDimension[]): PlannedPart[] {
  const out: PlannedPart[] = [];
  for (const part of parts) {
    const prev = out[out.length - 1];
    const joined = prev && !prev.unsplittable && !part.unsplittable && prev.count + part.count <= reach ? join(prev.bounds, part.bounds) : undefined;
    if (prev && joined) {
      out[out.length - 1] = { filters: narrow(filters, joined, dims), count: prev.count + part.count, bounds: joined, unsplittable: false };
    } else {
      out.push(part);
    }
  }
  return out;
}

function join(a: Bound[], b: Bound[]): Bound[] | undefined {
  if (a.length !== b.length || a.length === 0) return undefined;
  const same = a.slice(0, -1).every((x, i) => x.dimension === b[i]!.dimension && x.lo === b[i]!.lo && x.hi === b[i]!.hi);
  const x = a[a.length - 1]!;
  const y = b[b.length - 1]!;
  if (!same || x.dimension !== y.dimension) return undefined;
  if (x.hi + 1 === y.lo) return [...a.slice(0, -1), { dimension: x.dimension, lo: x.lo, hi: y.hi }];
  if (y.hi + 1 === x.lo) return [...a.slice(0, -1), { dimension: x.dimension, lo: y.lo, hi: x.hi }];
  return undefined;
}

/** Page requests the plan needs at `pageSize` per page. */
export function pageRequests(plan: Pick<PartitionPlan, "parts">, pageSize: number = LIMITS.maxPageSize, reach = SEARCH_REACH): number {
  return plan.parts.reduce((sum, p) => sum + Math.ceil(Math.min(p.count, reach) / pageSize), 0);
}

const count = (n: number) => n.toLocaleString("en-US");

/**
 * "42,310 companies — imported in 6 parts, about 430 requests, about 18 s at your rate limit";
 * `noun` names what is imported when it is not the plan's kind (signals split on their companies).
 */
export function describePlan(
  plan: PartitionPlan,
  perSecond: number,
  pageSize: number = LIMITS.maxPageSize,
  noun: string = plan.kind === "company" ? "companies" : "contacts",
): string {
  const requests = pageRequests(plan, pageSize);
  const seconds = Math.max(1, Math.ceil(requests / perSecond));
  const parts = plan.parts.length === 1 ? "1 part" : `${plan.parts.length} parts`;
  return `${count(plan.total)} ${noun} — imported in ${parts}, about ${count(requests)} requests, about ${count(seconds)} s at your rate limit`;
}

/** What a part covers, in words ("employees 50–199, revenue ($K) 1,000–4,999"). */
export function describeBounds(kind: SearchKind, sort: string | undefined, bounds: readonly Bound[]): string {
  const dims = dimensionsFor(kind, sort);
  return bounds.map((b) => `${dims[b.dimension]!.name} ${b.lo === b.hi ? count(b.lo) : `${count(b.lo)}–${count(b.hi)}`}`).join(", ");
}
