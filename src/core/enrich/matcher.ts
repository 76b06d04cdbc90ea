// Finds the ids of records given as a website, a company name (with country/city), an email or
// a person's name with a company, the way the engine does it for ids: calls arriving within a
// short window are gathered, inputs sharing a normalized key are asked once, at most 25 inputs
// go in a request with the fields all their callers want merged, and each key's id is cached
// (memory and the persistent store) so a known website costs nothing again. The fields that
// come back with a match are written to the engine's record cache (same store, same format), so
// the engine answers them by id without a request; a field asked later goes to the engine by id.
// A match may spend a credit: the daily cap on new records holds here too, counted in the same
// SpendReservations as the engine's (matchRequests.ts sends a request and settles its units).
import type { Logger, ServiceClient } from "../api/types.js";
import { LIMITS } from "../contract/index.js";
import type { CacheStore } from "./cacheStore.js";
import { MemoryCacheStore } from "./cacheStore.js";
import { MatchCache } from "./matchCache.js";
import { prepareMatch, type MatchCriteria } from "./matchKeys.js";
import { MatchRequests, missProblem, type MatchResult, type Need, type Prepared } from "./matchRequests.js";
import { problemFromError, problems, type CellProblem } from "./problems.js";
import { RecordCache } from "./recordCache.js";
import { SpendReservations } from "./spendReservations.js";

export type { MatchMiss } from "./matchCache.js";
export type { MatchResult } from "./matchRequests.js";

export interface MatchProgress {
  recordsDone: number;
  recordsTotal: number;
  requestsDone: number;
  requestsTotal: number;
}

export interface MatchManyOptions {
  signal?: AbortSignal;
  onProgress?: (progress: MatchProgress) => void;
  /** Ask again the inputs that missed before (the user edited or retries them). */
  retryMisses?: boolean;
  /** Requests kept going at once (default 4); the client's own cap still applies. */
  concurrency?: number;
}

/** What matching a list would do, shown before the user confirms. */
export interface MatchPlan {
  /** Distinct normalized inputs. */
  unique: number;
  /** Of those, answered by the cache (known id or a recent miss). */
  cached: number;
  invalid: number;
  blank: number;
  /** Match requests it takes (25 inputs each). */
  requests: number;
  /** At most this many credits: each input asked may find a record new to the account. */
  maxCredits: number;
  /** Ids already known from earlier matches, for the field estimate. */
  knownIds: number[];
}

export interface RecordMatcher {
  /** One cell's input: the id it matches, asking the service only when the key is not cached. */
  match(match: MatchCriteria, fields: readonly string[], options?: { preview?: boolean }): Promise<MatchResult>;
  /** A list's inputs (Enrich selection), one result per input in input order. */
  matchMany(matches: readonly MatchCriteria[], fields: readonly string[], options?: MatchManyOptions): Promise<MatchResult[]>;
  plan(matches: readonly MatchCriteria[]): Promise<MatchPlan>;
  /** Resolves when no call is waiting and no request is in flight. */
  whenIdle(): Promise<void>;
}

export interface RecordMatcherOptions {
  client: Pick<ServiceClient, "enrichCompanies" | "enrichContacts">;
  /** The engine's persistent cache store: matched fields are written there for the engine. */
  cache?: CacheStore;
  clock?: { now(): number };
  windowMs?: number;
  /** How long a key -> id mapping is believed (default 30 days, as cached fields). */
  maxAgeMs?: number;
  /** How long a miss is believed (default 1 day). */
  missMaxAgeMs?: number;
  /** Today's allowance of new records, shared with the user's engine (default: its own, at the default cap). */
  spend?: SpendReservations;
  log?: Logger;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const STOPPING: ReadonlySet<CellProblem["kind"]> = new Set(["signIn", "forbidden", "creditLimit"]);

export function createRecordMatcher(options: RecordMatcherOptions): RecordMatcher {
  return new BatchedMatcher(options);
}

class BatchedMatcher implements RecordMatcher {
  private readonly windowMs: number;
  private readonly ids: MatchCache;
  private readonly requests: MatchRequests;
  private readonly log: Logger | undefined;
  private queue: Array<{ need: Need; resolve: (result: MatchResult) => void }> = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly inflight = new Map<string, Promise<MatchResult>>();
  private readonly work = new Set<Promise<unknown>>();

  constructor(options: RecordMatcherOptions) {
    const clock = options.clock ?? { now: () => Date.now() };
    const now = () => clock.now();
    const store = options.cache ?? new MemoryCacheStore();
    this.windowMs = options.windowMs ?? 10;
    this.log = options.log;
    const maxAgeMs = options.maxAgeMs ?? 30 * DAY_MS;
    this.ids = new MatchCache({ store, now, maxAgeMs, missMaxAgeMs: options.missMaxAgeMs ?? DAY_MS });
    const records = new RecordCache({ store, now, maxAgeMs, noMatchMaxAgeMs: DAY_MS });
    const spend = options.spend ?? new SpendReservations(undefined, now, undefined, (work) => this.track(work), this.log);
    this.requests = new MatchRequests({ client: options.client, ids: this.ids, records, spend, log: this.log });
  }

  async match(match: MatchCriteria, fields: readonly string[], options: { preview?: boolean } = {}): Promise<MatchResult> {
    const prepared = prepareMatch(match);
    if (!prepared.ok) return { ok: false, miss: "invalidInput", problem: missProblem(match.kind, "invalidInput", "", prepared.reason) };
    await this.loadIds([prepared.key]);
    const known = this.known(prepared);
    if (known) return known;
    if (options.preview) return { ok: false, problem: problems.preview() };
    const flying = this.inflight.get(prepared.key);
    if (flying) return flying;
    return new Promise<MatchResult>((resolve) => {
      this.queue.push({ need: { prepared, fields: new Set(fields) }, resolve });
      if (this.timer === undefined) this.timer = setTimeout(() => this.flushNow(), this.windowMs);
    });
  }

  async matchMany(matches: readonly MatchCriteria[], fields: readonly string[], options: MatchManyOptions = {}): Promise<MatchResult[]> {
    const prepared = matches.map(prepareMatch);
    const valid = prepared.filter((p): p is Prepared => p.ok);
    await this.loadIds(valid.map((p) => p.key));
    const needs = new Map<string, Need>();
    for (const p of valid) {
      if (options.retryMisses) this.ids.forgetMiss(p.key);
      if (!needs.has(p.key) && !this.known(p)) needs.set(p.key, { prepared: p, fields: new Set(fields) });
    }
    const answers = await this.resolveNeeds([...needs.values()], options);
    return prepared.map((p, index) => {
      const kind = matches[index]?.kind ?? "company";
      if (!p.ok) return { ok: false, miss: "invalidInput", problem: missProblem(kind, "invalidInput", "", p.reason) };
      return answers.get(p.key) ?? this.known(p) ?? { ok: false, problem: problems.unavailable(`no answer for "${p.label}"`) };
    });
  }

  async plan(matches: readonly MatchCriteria[]): Promise<MatchPlan> {
    const plan: MatchPlan = { unique: 0, cached: 0, invalid: 0, blank: 0, requests: 0, maxCredits: 0, knownIds: [] };
    const keys = new Map<string, Prepared>();
    for (const match of matches) {
      const values = Object.values(match.criteria).filter((v) => v !== undefined && v !== null && String(v).trim() !== "");
      if (values.length === 0) {
        plan.blank += 1;
        continue;
      }
      const p = prepareMatch(match);
      if (p.ok) keys.set(p.key, p);
      else plan.invalid += 1;
    }
    await this.loadIds([...keys.keys()]);
    const knownIds = new Set<number>();
    for (const p of keys.values()) {
      const known = this.known(p);
      if (known?.ok) knownIds.add(known.id);
      if (known) plan.cached += 1;
    }
    plan.unique = keys.size;
    plan.maxCredits = keys.size - plan.cached;
    plan.requests = Math.ceil(plan.maxCredits / LIMITS.maxEnrichInputs);
    plan.knownIds = [...knownIds];
    return plan;
  }

  async whenIdle(): Promise<void> {
    for (;;) {
      if (this.timer !== undefined) this.flushNow();
      if (this.work.size === 0) return;
      await Promise.allSettled([...this.work]);
    }
  }

  // ---- gathering ----

  private flushNow(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const calls = this.queue;
    this.queue = [];
    const merged = new Map<string, Need>();
    for (const { need } of calls) {
      const entry = merged.get(need.prepared.key);
      if (entry) for (const field of need.fields) entry.fields.add(field);
      else merged.set(need.prepared.key, { prepared: need.prepared, fields: new Set(need.fields) });
    }
    const asked = [...merged.values()].filter((need) => !this.known(need.prepared));
    this.track(
      this.resolveNeeds(asked, {}).then(
        (answers) => {
          for (const { need, resolve } of calls) {
            const p = need.prepared;
            resolve(answers.get(p.key) ?? this.known(p) ?? { ok: false, problem: problems.unavailable(`no answer for "${p.label}"`) });
          }
        },
        (error: unknown) => {
          // Whatever went wrong, no cell may stay #BUSY!.
          for (const { resolve } of calls) resolve({ ok: false, problem: problemFromError(error) });
        },
      ),
    );
  }

  /** The cached answer for an input, as a result. */
  private known(p: Prepared): MatchResult | undefined {
    const known = this.ids.get(p.key);
    if (!known) return undefined;
    if ("id" in known) return { ok: true, kind: p.kind, id: known.id };
    return { ok: false, miss: known.miss, problem: missProblem(p.kind, known.miss, p.label, known.message || undefined) };
  }

  // ---- requests ----

  /** Asks the service for these inputs in requests of at most 25; never rejects. */
  private async resolveNeeds(needs: readonly Need[], options: MatchManyOptions): Promise<Map<string, MatchResult>> {
    const answers = new Map<string, MatchResult>();
    const chunks = packChunks(needs);
    const progress: MatchProgress = { recordsDone: 0, recordsTotal: needs.length, requestsDone: 0, requestsTotal: chunks.length };
    options.onProgress?.({ ...progress });
    let stop: CellProblem | undefined;
    let next = 0;
    const worker = async (): Promise<void> => {
      for (;;) {
        const chunk = chunks[next++];
        if (!chunk) return;
        const reason = options.signal?.aborted ? problems.cancelled() : stop;
        const outcomes = reason ? new Map(chunk.map((need) => [need.prepared.key, { ok: false, problem: reason } as MatchResult])) : await this.launch(chunk, options.signal);
        for (const [key, result] of outcomes) {
          answers.set(key, result);
          if (!result.ok && STOPPING.has(result.problem.kind)) stop ??= result.problem;
        }
        progress.requestsDone += 1;
        progress.recordsDone += chunk.length;
        options.onProgress?.({ ...progress });
      }
    };
    const concurrency = Math.max(1, options.concurrency ?? 4);
    await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, () => worker()));
    return answers;
  }

  /** One request for a chunk, registered as in flight for each of its keys. */
  private launch(chunk: readonly Need[], signal?: AbortSignal): Promise<Map<string, MatchResult>> {
    const result = this.requests.send(chunk, signal);
    for (const need of chunk) {
      const key = need.prepared.key;
      const own = result.then((outcomes): MatchResult => outcomes.get(key) ?? { ok: false, problem: problems.unavailable("no answer") });
      this.inflight.set(key, own);
      void own.finally(() => {
        if (this.inflight.get(key) === own) this.inflight.delete(key);
      });
    }
    this.track(result);
    return result;
  }

  private async loadIds(keys: readonly string[]): Promise<void> {
    try {
      await this.ids.load(keys);
    } catch (error) {
      this.log?.({ level: "warn", message: "Reading known matches failed; they are asked again", data: { error: error instanceof Error ? error.message : String(error) } });
    }
  }

  private track(promise: Promise<unknown>): void {
    this.work.add(promise);
    const done = (): void => {
      this.work.delete(promise);
    };
    promise.then(done, done);
  }
}

/** Inputs in requests of at most 25 per kind; inputs wanting the same fields go together. */
function packChunks(needs: readonly Need[]): Need[][] {
  const chunks: Need[][] = [];
  for (const kind of ["company", "contact"] as const) {
    const ofKind = needs
      .filter((need) => need.prepared.kind === kind)
      .map((need) => ({ need, signature: [...need.fields].sort().join(",") }))
      .sort((a, b) => (a.signature < b.signature ? -1 : a.signature > b.signature ? 1 : 0))
      .map((entry) => entry.need);
    for (let start = 0; start < ofKind.length; start += LIMITS.maxEnrichInputs) chunks.push(ofKind.slice(start, start + LIMITS.maxEnrichInputs));
  }
  return chunks;
}
