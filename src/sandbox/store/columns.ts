// The companies' filter columns as arrays in memory: counts and pages of the common filters
// (size and revenue ranges, country, continent, state, certified, defunct, industries, name
// words) become loops over arrays instead of table or index scans, which on 1,000,000 companies
// take hundreds of milliseconds. Seeded records never change while the sandbox runs, so the
// arrays are built once from the rows and kept in a file beside them (columnsFile.ts).
import type Database from "better-sqlite3";

export interface CompanyColumns {
  /** Company ids, ascending; a company's position is its index here. */
  ids: Int32Array;
  employees: Float64Array;
  revenue: Float64Array;
  certified: Float64Array;
  defunct: Float64Array;
  /** Coordinates (NaN: NULL). */
  lat: Float64Array;
  lon: Float64Array;
  /** Positions with a latitude, by latitude (for the bounding boxes of radius searches). */
  byLat: Int32Array;
  /** Dictionary-coded text columns: the value of position i is dictionary[codes[i]] (null: NULL). */
  country: Coded;
  state: Coded;
  primaryIndustry: Coded;
  /** Positions of the companies tagged with each industry (company_tags kind 'industry'), ascending. */
  industryTags: Map<string, Int32Array>;
  /** Every name with ASCII letters lowered (as LIKE compares them), each followed by "\n". */
  foldedNames: string;
  /** Where each position's name starts in foldedNames. */
  nameStarts: Int32Array;
  /** Positions in ascending order of each sort column, ties by id (descending: read backwards). */
  order: { name: Int32Array; employees: Int32Array; revenue: Int32Array };
}

export interface Coded {
  codes: Uint16Array;
  dictionary: (string | null)[];
}

/** Lowers ASCII letters only: SQLite's LIKE folds no other case. */
export function foldAscii(text: string): string {
  return text.replace(/[A-Z]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 32));
}

function coder(): { code: (v: string | null) => number; dictionary: (string | null)[] } {
  const dictionary: (string | null)[] = [null];
  const index = new Map<string, number>();
  return {
    dictionary,
    code: (v) => {
      if (v === null) return 0;
      let c = index.get(v);
      if (c === undefined) {
        c = dictionary.length;
        if (c > 0xffff) throw new Error("too many distinct values for a coded column");
        dictionary.push(v);
        index.set(v, c);
      }
      return c;
    },
  };
}

/** Position of a company id (ids ascending; dense ids are the common case). */
export function positionFinder(ids: Int32Array): (id: number) => number {
  const n = ids.length;
  if (n === 0 || (ids[0] === 1 && ids[n - 1] === n)) return (id) => (id >= 1 && id <= n ? id - 1 : -1);
  return (id) => {
    let lo = 0;
    let hi = n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = ids[mid]!;
      if (v === id) return mid;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  };
}

export function buildColumns(db: Database.Database): CompanyColumns {
  const n = (db.prepare("SELECT COUNT(*) AS n FROM companies").get() as { n: number }).n;
  const ids = new Int32Array(n);
  const employees = new Float64Array(n);
  const revenue = new Float64Array(n);
  const certified = new Float64Array(n);
  const defunct = new Float64Array(n);
  const lat = new Float64Array(n);
  const lon = new Float64Array(n);
  const country = { codes: new Uint16Array(n), ...coder() };
  const state = { codes: new Uint16Array(n), ...coder() };
  const primary = { codes: new Uint16Array(n), ...coder() };
  const names: string[] = new Array<string>(n);
  const nameStarts = new Int32Array(n);
  let i = 0;
  let at = 0;
  const rows = db
    .prepare("SELECT id, employees, revenue, certified, is_defunct, country_code, state, primary_industry, name, lat, lon FROM companies ORDER BY id")
    .raw()
    .iterate() as IterableIterator<unknown[]>;
  for (const r of rows) {
    ids[i] = r[0] as number;
    employees[i] = r[1] as number;
    revenue[i] = r[2] as number;
    certified[i] = r[3] as number;
    defunct[i] = r[4] as number;
    country.codes[i] = country.code(r[5] as string | null);
    state.codes[i] = state.code(r[6] as string | null);
    primary.codes[i] = primary.code(r[7] as string | null);
    lat[i] = r[9] === null ? NaN : (r[9] as number);
    lon[i] = r[10] === null ? NaN : (r[10] as number);
    const name = foldAscii(r[8] as string);
    names[i] = name;
    nameStarts[i] = at;
    at += name.length + 1;
    i++;
  }
  const position = positionFinder(ids);
  const industryTags = new Map<string, Int32Array>();
  const tagRows = db.prepare("SELECT value, company_id FROM company_tags WHERE kind = 'industry' ORDER BY value, company_id").raw().all() as [string, number][];
  for (let k = 0; k < tagRows.length;) {
    const value = tagRows[k]![0];
    let end = k;
    while (end < tagRows.length && tagRows[end]![0] === value) end++;
    const list = new Int32Array(end - k);
    for (let j = k; j < end; j++) list[j - k] = position(tagRows[j]![1]);
    industryTags.set(value, list);
    k = end;
  }
  const ascending = (values: Float64Array) => {
    const perm = new Int32Array(n);
    for (let p = 0; p < n; p++) perm[p] = p;
    // Positions follow ids, so ties broken by position are broken by id.
    return perm.sort((a, b) => values[a]! - values[b]! || a - b);
  };
  // The name order is SQLite's own (NOCASE collation), read from its index.
  const nameOrder = Int32Array.from(db.prepare("SELECT id FROM companies ORDER BY name COLLATE NOCASE, id").pluck().all() as number[], position);
  const located: number[] = [];
  for (let p = 0; p < n; p++) if (!Number.isNaN(lat[p])) located.push(p);
  const byLat = Int32Array.from(located).sort((a, b) => lat[a]! - lat[b]!);
  return {
    ids,
    employees,
    revenue,
    certified,
    defunct,
    lat,
    lon,
    byLat,
    country: { codes: country.codes, dictionary: country.dictionary },
    state: { codes: state.codes, dictionary: state.dictionary },
    primaryIndustry: { codes: primary.codes, dictionary: primary.dictionary },
    industryTags,
    foldedNames: names.join("\n") + (n ? "\n" : ""),
    nameStarts,
    order: { name: nameOrder, employees: ascending(employees), revenue: ascending(revenue) },
  };
}

/**
 * The columns arranged for counting: companies grouped by their coded values (country, state,
 * certified, defunct), and within each group their positions by employees and by revenue, so a
 * count of a location and a range is a sum of binary searches rather than a pass over everyone.
 */
export interface ColumnIndex {
  c: CompanyColumns;
  employees: { min: number; max: number };
  revenue: { min: number; max: number };
  groups: { country: number; state: number; certified: number; defunct: number; start: number; end: number }[];
  /** Positions sorted by group, then by the column, then by id. */
  byEmployees: Int32Array;
  byRevenue: Int32Array;
  /** The values tested while walking a sort order, stored in that order so the walk reads memory in sequence. */
  walk: Record<"name" | "employees" | "revenue", { group: Int32Array; employees: Float64Array; revenue: Float64Array }>;
}

export function indexColumns(c: CompanyColumns): ColumnIndex {
  const n = c.ids.length;
  const extent = (a: Float64Array) => {
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < n; i++) {
      const v = a[i]!;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    return { min, max };
  };
  const groupOf = new Int32Array(n);
  const ids = new Map<string | number, number>();
  const groups: ColumnIndex["groups"] = [];
  for (let p = 0; p < n; p++) {
    const flags = c.certified[p]! * 2 + c.defunct[p]!;
    const key =
      flags === 0 || flags === 1 || flags === 2 || flags === 3
        ? (c.country.codes[p]! * 65536 + c.state.codes[p]!) * 4 + flags
        : `${c.country.codes[p]}:${c.state.codes[p]}:${c.certified[p]}:${c.defunct[p]}`;
    let g = ids.get(key);
    if (g === undefined) {
      g = groups.length;
      ids.set(key, g);
      groups.push({ country: c.country.codes[p]!, state: c.state.codes[p]!, certified: c.certified[p]!, defunct: c.defunct[p]!, start: 0, end: 0 });
    }
    groupOf[p] = g;
    groups[g]!.end++;
  }
  let at = 0;
  for (const g of groups) {
    g.start = at;
    at += g.end;
    g.end = at;
  }
  // A stable pass over each global order keeps it within every group.
  const regroup = (order: Int32Array) => {
    const out = new Int32Array(n);
    const next = Int32Array.from(groups, (g) => g.start);
    for (let k = 0; k < n; k++) {
      const p = order[k]!;
      out[next[groupOf[p]!]!++] = p;
    }
    return out;
  };
  const walkOf = (order: Int32Array) => {
    const w = { group: new Int32Array(n), employees: new Float64Array(n), revenue: new Float64Array(n) };
    for (let k = 0; k < n; k++) {
      const p = order[k]!;
      w.group[k] = groupOf[p]!;
      w.employees[k] = c.employees[p]!;
      w.revenue[k] = c.revenue[p]!;
    }
    return w;
  };
  return {
    c,
    employees: extent(c.employees),
    revenue: extent(c.revenue),
    groups,
    byEmployees: regroup(c.order.employees),
    byRevenue: regroup(c.order.revenue),
    walk: { name: walkOf(c.order.name), employees: walkOf(c.order.employees), revenue: walkOf(c.order.revenue) },
  };
}
