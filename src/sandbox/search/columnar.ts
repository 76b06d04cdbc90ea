// Company searches answered from the in-memory filter columns (store/columns.ts) when every
// filter given is one they hold: the same conditions as the SQL in companyFilters.ts (the same
// mappings of names to codes, inclusive bounds, LIKE's ASCII-only case folding), so the counts
// and pages are the SQL's. Any other filter leaves the search to SQL.
import type { CompanyFilterName, CompanySearchFilters } from "../../core/contract/index.js";
import { foldAscii, type ColumnIndex, type CompanyColumns, type Coded } from "../store/columns.js";
import { haversineMiles } from "../store/schema.js";
import { boundOf, continentCodes, countryCodes, industryIds, stateNames, zipCircles, type ZipCircle, type ZipResolver } from "./companyFilters.js";
import { csv } from "./sql.js";

/** The filters the columns answer; a search with any other filter set goes to SQL. */
export const COLUMNAR_FILTERS: ReadonlySet<string> = new Set<CompanyFilterName>([
  "companyName",
  "employeeRangeMin",
  "employeeRangeMax",
  "revenueMin",
  "revenueMax",
  "country",
  "continent",
  "state",
  "certified",
  "excludeDefunctCompanies",
  "industryCodes",
  "primaryIndustriesOnly",
  "zipCode",
  "zipCodeRadiusMiles",
]);

export interface ColumnarSearch {
  /**
   * What the search asks for, in a canonical form: equal keys mean equal results, however the
   * filters were written (names or codes, order, text or number bounds, ranges covering every value).
   */
  key: string;
  count(): number;
  /** Ids of the page's records in the sort order. */
  page(sort: { column: "name" | "employees" | "revenue"; descending: boolean }, offset: number, size: number): number[];
}

interface Range {
  lo: number;
  hi: number;
}

function range(
  min: string | number | undefined,
  max: string | number | undefined,
  values: Float64Array,
  all: { min: number; max: number },
): Range | undefined | null {
  const lo = boundOf(min);
  const hi = boundOf(max);
  if ((lo !== undefined && !Number.isFinite(lo)) || (hi !== undefined && !Number.isFinite(hi))) return null;
  if (lo === undefined && hi === undefined) return undefined;
  const r = { lo: lo ?? -Infinity, hi: hi ?? Infinity };
  // A range holding every stored value asks for nothing (the planner's coverage probes send them).
  if (values.length > 0 && r.lo <= all.min && r.hi >= all.max) return undefined;
  return r;
}

/** Which dictionary codes of a coded column are among `values` (undefined: no condition). */
function allowed(column: Coded, lists: (string[] | undefined)[]): Uint8Array | undefined {
  const given = lists.filter((l): l is string[] => l !== undefined);
  if (!given.length) return undefined;
  const sets = given.map((l) => new Set(l));
  return Uint8Array.from(column.dictionary, (v) => (v !== null && sets.every((s) => s.has(v)) ? 1 : 0));
}

/** Within order[from, to) (ascending by values), the stretch whose values lie in the range. */
function within(order: Int32Array, values: Float64Array, from: number, to: number, r: Range | undefined): [number, number] {
  if (!r) return [from, to];
  const first = (above: (v: number) => boolean) => {
    let lo = from;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (above(values[order[mid]!]!)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  const start = first((v) => v >= r.lo);
  return [
    start,
    Math.max(
      start,
      first((v) => v > r.hi),
    ),
  ];
}

/** The filters of a search the columns can answer, read once. */
interface Plan {
  employees: Range | undefined;
  revenue: Range | undefined;
  /** The name word, folded as the stored names are. */
  name: string | undefined;
  countries: (string[] | undefined)[];
  states: string[] | undefined;
  industries: string[];
  primaryOnly: boolean;
  certified: number | undefined;
  noDefunct: boolean;
  circles: ZipCircle[] | undefined;
}

/** The plan, or undefined when a filter needs SQL. */
function planOf(index: ColumnIndex, f: CompanySearchFilters, zipPoint?: ZipResolver): Plan | undefined {
  const c = index.c;
  for (const [k, v] of Object.entries(f)) if (v !== undefined && !COLUMNAR_FILTERS.has(k)) return undefined;
  // Zip codes without a radius match the zip column itself, which the columns do not hold.
  const zipped = csv(f.zipCode).length > 0;
  if (zipped && (f.zipCodeRadiusMiles === undefined || !zipPoint)) return undefined;
  const circles = zipped && zipPoint ? zipCircles(f, zipPoint) : undefined;
  if (f.certified !== undefined && typeof f.certified !== "number") return undefined;
  const employees = range(f.employeeRangeMin, f.employeeRangeMax, c.employees, index.employees);
  const revenue = range(f.revenueMin, f.revenueMax, c.revenue, index.revenue);
  if (employees === null || revenue === null) return undefined;
  const name = f.companyName !== undefined && f.companyName.trim() ? foldAscii(f.companyName.trim()) : undefined;
  // Names are stored one per line, so a word with a line break cannot be looked up that way.
  if (name !== undefined && name.includes("\n")) return undefined;
  const industries = industryIds(f);
  return {
    employees,
    revenue,
    name,
    countries: [countryCodes(f), continentCodes(f)],
    states: csv(f.state).length ? stateNames(csv(f.state)) : undefined,
    industries,
    primaryOnly: industries.length > 0 && f.primaryIndustriesOnly === true,
    certified: f.certified,
    noDefunct: f.excludeDefunctCompanies === true,
    circles,
  };
}

/** The plan's canonical key: values no company has cannot match, so they are left out. */
function keyOf(c: CompanyColumns, plan: Plan): string {
  const stored = (column: Coded, l: string[] | undefined) => (l ? [...new Set(l)].filter((v) => column.dictionary.includes(v)).sort() : null);
  const { industries, primaryOnly } = plan;
  return JSON.stringify({
    employees: plan.employees,
    revenue: plan.revenue,
    name: plan.name,
    countries: plan.countries.map((l) => stored(c.country, l)),
    states: stored(c.state, plan.states),
    industries: industries.length
      ? primaryOnly
        ? stored(c.primaryIndustry, industries)
        : [...new Set(industries)].filter((v) => c.industryTags.has(v)).sort()
      : null,
    primaryOnly,
    certified: plan.certified ?? null,
    noDefunct: plan.noDefunct,
    circles: plan.circles?.map((z) => [z.lat, z.lon, z.radius]).sort(),
  });
}

/** The plan's conditions as flags by code and bounds, for the loops over companies. */
interface Tests {
  countryOk: Uint8Array | undefined;
  stateOk: Uint8Array | undefined;
  primaryOk: Uint8Array | undefined;
  /** By group: whether its country, state, certification and status pass. */
  groupOk: Uint8Array;
  eLo: number;
  eHi: number;
  rLo: number;
  rHi: number;
  /** Every condition but the lists, on one company. */
  test: (p: number) => boolean;
}

function testsOf(index: ColumnIndex, plan: Plan): Tests {
  const c = index.c;
  const { certified, noDefunct } = plan;
  const countryOk = allowed(c.country, plan.countries);
  const stateOk = allowed(c.state, [plan.states]);
  const primaryOk = plan.primaryOnly ? allowed(c.primaryIndustry, [plan.industries]) : undefined;
  const groupOk = Uint8Array.from(
    index.groups,
    (g) =>
      +(
        (countryOk === undefined || countryOk[g.country] === 1) &&
        (stateOk === undefined || stateOk[g.state] === 1) &&
        (certified === undefined || g.certified === certified) &&
        (!noDefunct || g.defunct === 0)
      ),
  );
  const bounds = {
    eLo: plan.employees?.lo ?? -Infinity,
    eHi: plan.employees?.hi ?? Infinity,
    rLo: plan.revenue?.lo ?? -Infinity,
    rHi: plan.revenue?.hi ?? Infinity,
  };
  const test = companyTest(c, { countryOk, stateOk, primaryOk, certified, noDefunct, ...bounds });
  return { countryOk, stateOk, primaryOk, groupOk, ...bounds, test };
}

function companyTest(
  c: CompanyColumns,
  t: Pick<Tests, "countryOk" | "stateOk" | "primaryOk" | "eLo" | "eHi" | "rLo" | "rHi"> & { certified: number | undefined; noDefunct: boolean },
): (p: number) => boolean {
  const { countryOk, stateOk, primaryOk, certified, noDefunct, eLo, eHi, rLo, rHi } = t;
  const emp = c.employees;
  const rev = c.revenue;
  const cty = c.country.codes;
  const st = c.state.codes;
  const pri = c.primaryIndustry.codes;
  const cert = c.certified;
  const dead = c.defunct;
  return (p: number): boolean => {
    const e = emp[p]!;
    const r = rev[p]!;
    return (
      e >= eLo &&
      e <= eHi &&
      r >= rLo &&
      r <= rHi &&
      (countryOk === undefined || countryOk[cty[p]!] === 1) &&
      (stateOk === undefined || stateOk[st[p]!] === 1) &&
      (primaryOk === undefined || primaryOk[pri[p]!] === 1) &&
      (certified === undefined || cert[p] === certified) &&
      (!noDefunct || dead[p] === 0)
    );
  };
}

/** The candidate lists a plan names (industry tags, a name word, zip circles). */
function candidateLists(c: CompanyColumns, plan: Plan): (() => Int32Array[])[] {
  const lists: (() => Int32Array[])[] = [];
  const { industries, name, circles } = plan;
  if (industries.length && !plan.primaryOnly) lists.push(() => tagged(c, industries));
  if (name !== undefined) lists.push(() => named(c, name));
  if (circles) lists.push(() => circles.map((z) => inCircle(c, z)));
  return lists;
}

/** The companies in every list that meet every other condition, in the last list's order. */
function listed(n: number, lists: (() => Int32Array[])[], test: (p: number) => boolean): number[] {
  let mask: Uint8Array | undefined;
  let kept: number[] = [];
  for (const l of lists) {
    const next = new Uint8Array(n);
    kept = [];
    for (const part of l()) {
      for (let k = 0; k < part.length; k++) {
        const p = part[k]!;
        if (p >= 0 && next[p] === 0 && (!mask || mask[p] === 1) && test(p)) {
          next[p] = 1;
          kept.push(p);
        }
      }
    }
    mask = next;
  }
  return kept;
}

/** Matches without lists: by group, the stretches of the range orders. */
function countByGroups(index: ColumnIndex, plan: Plan, t: Tests): number {
  const { employees, revenue } = plan;
  let total = 0;
  for (let i = 0; i < index.groups.length; i++) {
    if (t.groupOk[i] !== 1) continue;
    const g = index.groups[i]!;
    const [e0, e1] = within(index.byEmployees, index.c.employees, g.start, g.end, employees);
    const [r0, r1] = within(index.byRevenue, index.c.revenue, g.start, g.end, revenue);
    if (!t.primaryOk && (!employees || !revenue)) {
      total += Math.min(e1 - e0, r1 - r0);
      continue;
    }
    // Both ranges, or a primary industry: look at the companies of the narrower stretch.
    const [order, from, to] = e1 - e0 <= r1 - r0 ? [index.byEmployees, e0, e1] : [index.byRevenue, r0, r1];
    for (let k = from; k < to; k++) if (t.test(order[k]!)) total++;
  }
  return total;
}

interface PageArgs {
  sort: { column: "name" | "employees" | "revenue"; descending: boolean };
  offset: number;
  wanted: number;
  /** Membership of the listed companies, when lists name the candidates. */
  member: Uint8Array | undefined;
}

/** Walks the sort order (only the range's stretch when sorting by the range's column). */
function walkPage(index: ColumnIndex, plan: Plan, t: Tests, { sort, offset, wanted, member }: PageArgs): number[] {
  const c = index.c;
  const n = c.ids.length;
  const order = c.order[sort.column];
  const [from, to] =
    sort.column === "employees"
      ? within(order, c.employees, 0, n, plan.employees)
      : sort.column === "revenue"
        ? within(order, c.revenue, 0, n, plan.revenue)
        : [0, n];
  const { groupOk, primaryOk, eLo, eHi, rLo, rHi } = t;
  const pri = c.primaryIndustry.codes;
  const w = index.walk[sort.column];
  const wg = w.group;
  const we = w.employees;
  const wr = w.revenue;
  const out: number[] = [];
  let matched = 0;
  for (let k = 0; k < to - from && out.length < wanted; k++) {
    const at = sort.descending ? to - 1 - k : from + k;
    const e = we[at]!;
    const r = wr[at]!;
    if (groupOk[wg[at]!] !== 1 || e < eLo || e > eHi || r < rLo || r > rHi) continue;
    const p = order[at]!;
    if ((primaryOk !== undefined && primaryOk[pri[p]!] !== 1) || (member !== undefined && member[p] !== 1)) continue;
    if (matched++ >= offset) out.push(c.ids[p]!);
  }
  return out;
}

/** The search on the columns, or undefined when a filter needs SQL. */
export function columnarSearch(index: ColumnIndex, f: CompanySearchFilters, zipPoint?: ZipResolver): ColumnarSearch | undefined {
  const plan = planOf(index, f, zipPoint);
  if (!plan) return undefined;
  const n = index.c.ids.length;
  const t = testsOf(index, plan);
  const lists = candidateLists(index.c, plan);
  let found: number[] | undefined;
  const list = (): number[] | undefined => (lists.length ? (found ??= listed(n, lists, t.test)) : undefined);
  let counted: number | undefined;
  const count = (): number => (counted ??= list()?.length ?? countByGroups(index, plan, t));
  return {
    key: keyOf(index.c, plan),
    count,
    page(sort, offset, size) {
      const l = list();
      const wanted = Math.min(size, count() - offset);
      if (wanted <= 0) return [];
      let member: Uint8Array | undefined;
      if (l) {
        member = new Uint8Array(n);
        for (const p of l) member[p] = 1;
      }
      return walkPage(index, plan, t, { sort, offset, wanted, member });
    },
  };
}

function tagged(c: CompanyColumns, industries: string[]): Int32Array[] {
  return [...new Set(industries)].flatMap((value) => c.industryTags.get(value) ?? []);
}

/** Positions whose name holds `word` (already folded), as LIKE '%word%' finds them. */
function named(c: CompanyColumns, word: string): Int32Array[] {
  const text = c.foldedNames;
  const starts = c.nameStarts;
  const found: number[] = [];
  let last = -1;
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    // The name holding offset `at`: the last start at or before it.
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    if (lo !== last) found.push(lo);
    last = lo;
  }
  return [Int32Array.from(found)];
}

/** Positions within a zip circle: its bounding box, then the distance (as the SQL tests them). */
function inCircle(c: CompanyColumns, z: ZipCircle): Int32Array {
  const order = c.byLat;
  const first = (above: (v: number) => boolean) => {
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (above(c.lat[order[mid]!]!)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  const from = first((v) => v >= z.latLo);
  const to = Math.max(
    from,
    first((v) => v > z.latHi),
  );
  const found: number[] = [];
  for (let k = from; k < to; k++) {
    const p = order[k]!;
    const lon = c.lon[p]!;
    if (lon >= z.lonLo && lon <= z.lonHi && haversineMiles(z.lat, z.lon, c.lat[p]!, lon) <= z.radius) found.push(p);
  }
  return Int32Array.from(found);
}
