// Companies like many seed companies: one request per seed (the floor: the service takes one
// reference company a call), merged into one ranked list. A company found from several seeds
// keeps its best score and lists every seed it came from; the seeds themselves and the companies
// the caller leaves out (those already in the sheet) are not in it; the list is cut to a size.
import { runList, type ListRunOptions } from "./listRun.js";
import { MAX_RESULTS_PER_CALL, type CompanyLookalike, type LookalikeFilters, type LookalikeQuery, type ResearchCallOptions } from "./port.js";

/** One company of the merged list. */
export interface MergedLookalike extends Omit<CompanyLookalike, "rank"> {
  /** 1 is the most similar in the merged list. */
  rank: number;
  /** The best score any seed gave it. */
  score: number;
  /** The seeds it was found from, the one that gave the best score first. */
  seeds: string[];
}

export interface SeedFailure {
  seed: string;
  error: unknown;
}

export interface LookalikesResult {
  companies: MergedLookalike[];
  /** Seeds whose request failed (the others still count). */
  failures: SeedFailure[];
  /** Seeds the run asked (distinct, after a cancel only those started). */
  seedsAsked: number;
  cancelled: boolean;
}

export type LookalikeFetch = (query: LookalikeQuery, options?: ResearchCallOptions) => Promise<CompanyLookalike[]>;

export interface LookalikesRequest extends ListRunOptions, LookalikeFilters {
  /** Seed companies: ids (digits) or names. Blanks and repeats are dropped. */
  seeds: readonly string[];
  /** Company ids to leave out besides the seeds (those already in the sheet). */
  exclude?: Iterable<string>;
  /** How many companies the merged list holds at most (default 100). */
  limit?: number;
  /** Asked of each seed (default: the limit, 10 to 100). */
  perSeed?: number;
}

const isId = (seed: string) => /^[1-9][0-9]{0,17}$/.test(seed);
const nameKey = (name: string) => name.trim().toLowerCase();

/** The distinct seeds of a list, trimmed, in first-seen order. */
export function distinctSeeds(seeds: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of seeds) {
    const seed = String(raw).trim();
    const key = isId(seed) ? seed : nameKey(seed);
    if (seed === "" || seen.has(key)) continue;
    seen.add(key);
    out.push(seed);
  }
  return out;
}

/** The query of one seed: by id when it is one, else by name. */
export function seedQuery(seed: string, filters: LookalikeFilters, size: number): LookalikeQuery {
  const which = isId(seed) ? { companyId: seed } : { companyName: seed };
  const chosen = Object.fromEntries(Object.entries(filters).filter(([, v]) => v === true)) as LookalikeFilters;
  return { ...which, ...chosen, size };
}

interface Candidate extends CompanyLookalike {
  seeds: { seed: string; score: number; rank: number }[];
}

/** Merges each seed's answer: best score wins, seeds listed, left-out companies dropped, ranked, cut to `limit`. */
export function mergeLookalikes(
  perSeed: readonly { seed: string; results: readonly CompanyLookalike[] }[],
  exclude: Iterable<string>,
  limit: number,
): MergedLookalike[] {
  const left = new Set(exclude);
  const seedNames = new Set<string>();
  for (const { seed } of perSeed) {
    if (isId(seed)) left.add(seed);
    else seedNames.add(nameKey(seed));
  }
  const byId = new Map<string, Candidate>();
  for (const { seed, results } of perSeed) {
    for (const r of results) {
      if (left.has(r.companyId) || seedNames.has(nameKey(r.companyName))) continue;
      const known = byId.get(r.companyId);
      const from = { seed, score: r.score, rank: r.rank };
      if (!known) byId.set(r.companyId, { ...r, seeds: [from] });
      else {
        known.seeds.push(from);
        if (r.score > known.score) Object.assign(known, { ...r, seeds: known.seeds });
      }
    }
  }
  const bestRank = (c: Candidate) => Math.min(...c.seeds.map((s) => s.rank));
  const ranked = [...byId.values()].sort(
    (a, b) =>
      b.score - a.score || b.seeds.length - a.seeds.length || bestRank(a) - bestRank(b) || a.companyId.localeCompare(b.companyId, "en", { numeric: true }),
  );
  return ranked.slice(0, Math.max(0, limit)).map((c, i) => ({
    companyId: c.companyId,
    companyName: c.companyName,
    score: c.score,
    rank: i + 1,
    industry: c.industry,
    revenueRange: c.revenueRange,
    employeeRange: c.employeeRange,
    country: c.country,
    seeds: [...c.seeds].sort((x, y) => y.score - x.score || x.rank - y.rank).map((s) => s.seed),
  }));
}

/** Lookalikes of every seed, one request each (fewer when `fetch` answers from its cache), merged. */
export async function lookalikesFromSeeds(fetch: LookalikeFetch, request: LookalikesRequest): Promise<LookalikesResult> {
  const seeds = distinctSeeds(request.seeds);
  const limit = request.limit ?? 100;
  const size = Math.min(MAX_RESULTS_PER_CALL, Math.max(1, request.perSeed ?? Math.max(10, limit)));
  const filters: LookalikeFilters = {
    ...(request.sameCountry ? { sameCountry: true } : {}),
    ...(request.sameIndustry ? { sameIndustry: true } : {}),
    ...(request.sameRevenueRange ? { sameRevenueRange: true } : {}),
    ...(request.sameEmployeeRange ? { sameEmployeeRange: true } : {}),
  };
  const run = await runList(seeds, (seed, signal) => fetch(seedQuery(seed, filters, size), { priority: "bulk", ...(signal ? { signal } : {}) }), request);
  const perSeed: { seed: string; results: CompanyLookalike[] }[] = [];
  const failures: SeedFailure[] = [];
  run.outcomes.forEach((outcome, i) => {
    if (!outcome) return;
    if (outcome.ok) perSeed.push({ seed: seeds[i]!, results: outcome.value });
    else failures.push({ seed: seeds[i]!, error: outcome.error });
  });
  return {
    companies: mergeLookalikes(perSeed, request.exclude ?? [], limit),
    failures,
    seedsAsked: run.outcomes.filter(Boolean).length,
    cancelled: run.cancelled,
  };
}
