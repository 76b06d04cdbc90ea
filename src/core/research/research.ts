// Research for the task pane and the cells (docs/research-addin.md): briefings and questions,
// which spend AI action credits, only after an estimate and within the user's daily AI cap, a
// briefing already fetched reused from the store and never paid twice; lookalikes and
// recommendations, free, each query asked once and kept for the page's life, so a second run and
// a recalculation send nothing.
import { keyedSingleFlight } from "../api/singleFlight.js";
import { refusals } from "../errors/failure.js";
import type { Clock, Logger } from "../api/types.js";
import { SpendReservations, type SpendState } from "../enrich/spendReservations.js";
import type { KeyValueItems } from "../storage/keyValue.js";
import { aiEstimate, aiSpendStore, countOf, DEFAULT_DAILY_AI_CAP, type AiEstimate } from "./aiCredits.js";
import { createBriefingStore, type StoredBriefing } from "./briefingStore.js";
import { runList, type ListRunOptions } from "./listRun.js";
import { lookalikesFromSeeds, type LookalikesRequest, type LookalikesResult } from "./lookalikes.js";
import { recommendationsForAccounts, type RecommendationsRequest, type RecommendationsResult } from "./recommendations.js";
import type { CompanyLookalike, LookalikeQuery, RecommendedContact, ResearchCallOptions, ResearchClient, UseCase } from "./port.js";

export interface ResearchOptions {
  client: ResearchClient;
  /** The user's storage: briefings and today's AI count live here. */
  storage: KeyValueItems;
  /** The profile and user the stored briefings and the AI count belong to, at the time of the call. */
  scope: () => string;
  clock?: Pick<Clock, "now">;
  /** AI action credits a day (default 100); a cap the user saved wins. */
  dailyAiCap?: number;
  log?: Logger;
}

/** Refused before sending: today's AI cap is used up. Nothing was spent. Its words are the error factory's (core/errors/failure.ts). */
export class AiLimitError extends Error {
  readonly kind = "aiDailyLimit";
  readonly used: number;
  readonly cap: number;
  /** What the pane shows (errorText reads it). */
  readonly userMessage: string;
  constructor(daily: SpendState) {
    const failure = refusals.aiDailyLimit(daily.used, daily.cap);
    super(failure.pane);
    this.name = "AiLimitError";
    this.used = daily.used;
    this.cap = daily.cap;
    this.userMessage = failure.pane;
  }
}

export interface BriefingsResult {
  /** Every briefing obtained, in the order asked (fetched now or reused). */
  briefings: StoredBriefing[];
  fetched: number;
  reused: number;
  failures: { companyId: string; error: unknown }[];
  cancelled: boolean;
}

export interface Research {
  /** A briefing fetched before (in the pane), or undefined. Never calls the service. */
  storedBriefing(companyId: string): Promise<StoredBriefing | undefined>;
  /**
   * What fetching these companies' briefings costs: only those not fetched yet. `unresolved`
   * companies (a website or name still to be matched) each count as one credit at most.
   */
  estimateBriefings(companyIds: readonly string[], unresolved?: number): Promise<AiEstimate>;
  /** What one question costs: one AI action credit. */
  estimateQuestion(): Promise<AiEstimate>;
  /** The briefings (reused when fetched before), a few at a time, with progress and cancel. Call after the user confirmed the estimate. */
  briefings(companyIds: readonly string[], options?: ListRunOptions): Promise<BriefingsResult>;
  /** A question on a company: one AI action credit. Call after the user confirmed. */
  ask(companyId: string, question: string, options?: ResearchCallOptions): Promise<string>;
  /** Lookalikes of many seeds, merged (free; each seed's query asked once). */
  lookalikes(request: LookalikesRequest): Promise<LookalikesResult>;
  /** One lookalike query (free; asked once, then answered from memory). */
  lookalikesOf(query: LookalikeQuery, options?: ResearchCallOptions): Promise<CompanyLookalike[]>;
  /** Recommended contacts at many accounts (free; each account's query asked once). */
  recommendations(request: RecommendationsRequest): Promise<RecommendationsResult>;
  aiSpendStatus(): Promise<SpendState>;
  setDailyAiCap(cap: number): Promise<void>;
  /** Settles once the stored counts are written. */
  whenIdle(): Promise<void>;
}

const distinct = (ids: readonly string[]) => [...new Set(ids.map((id) => String(id).trim()).filter((id) => id !== ""))];

/**
 * One request per distinct query for everyone who asks while it runs (the core's keyed single
 * flight), kept after a success when `keep` (a failure is forgotten: the next caller asks again).
 * The options of the caller who starts it go with the request.
 */
function sharedQueries<Q, T>(send: (query: Q, options?: ResearchCallOptions) => Promise<T>, keep: boolean) {
  // The keyed single flight calls the task at once (synchronously) when it starts a flight, so
  // `starting` is always the query and options of the caller that started it.
  let starting: { query: Q; options?: ResearchCallOptions } | undefined;
  const flight = keyedSingleFlight(
    () => {
      const { query, options } = starting!;
      return send(query, options);
    },
    { keepResult: keep },
  );
  return (scopeKey: string, query: Q, options?: ResearchCallOptions): Promise<T> => {
    starting = { query, ...(options ? { options } : {}) };
    return flight(`${scopeKey}|${JSON.stringify(query)}`);
  };
}

/** Today's AI count per scope, each on the enrichment's spend guard with a store of its own. */
function aiGuards(options: ResearchOptions, now: () => number, track: (work: Promise<unknown>) => void) {
  const guards = new Map<string, SpendReservations>();
  let asked = 0;
  const guard = async () => {
    const key = options.scope();
    let g = guards.get(key);
    if (!g)
      guards.set(key, (g = new SpendReservations(aiSpendStore(options.storage, key), now, options.dailyAiCap ?? DEFAULT_DAILY_AI_CAP, track, options.log)));
    await g.load();
    return g;
  };
  /** One AI call under today's cap: reserved before it leaves, kept when charged, given back when surely not charged. */
  const spend = async <T>(call: () => Promise<T>): Promise<T> => {
    const g = await guard();
    const slot = `ai:${++asked}`;
    if (g.reserve([slot], () => false).size > 0) throw new AiLimitError(g.status());
    try {
      const value = await call();
      g.charged(slot);
      return value;
    } catch (error) {
      g.failed(slot, error);
      throw error;
    }
  };
  return { guard, spend };
}

export function createResearch(options: ResearchOptions): Research {
  const { client, scope } = options;
  const now = () => (options.clock ?? Date).now();
  const store = createBriefingStore(options.storage, scope);
  const pending = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };
  const { guard, spend } = aiGuards(options, now, track);
  const warn = (message: string) => (error: unknown) =>
    options.log?.({ level: "warn", message, data: { error: error instanceof Error ? error.message : String(error) } });
  // A briefing is asked once even when two lists ask it at once; stored, it is never asked again.
  const briefingOf = sharedQueries(async (companyId: string, o?: ResearchCallOptions) => {
    const known = await store.get(companyId);
    if (known) return known;
    const answer = await spend(() => client.accountBriefing(companyId, { priority: "bulk", ...o }));
    const briefing: StoredBriefing = { companyId, markdown: answer.markdown, fetchedAt: now() };
    // Paid for: a storage that refuses it (full, or gone) must not make it look lost. It stays
    // in memory for this page's life.
    await store.put(briefing).catch(warn("Keeping a briefing in storage failed"));
    return briefing;
  }, false);
  const lookalikeQuery = sharedQueries((q: LookalikeQuery, o?: ResearchCallOptions) => client.companyLookalikes(q, o), true);
  const lookalikesOf = (q: LookalikeQuery, o?: ResearchCallOptions) => lookalikeQuery(scope(), q, o);
  const recommendationQuery = sharedQueries(
    (q: { companyId: string; useCase: UseCase; size?: number }, o?: ResearchCallOptions): Promise<RecommendedContact[]> => client.contactRecommendations(q, o),
    true,
  );
  const estimate = async (what: string, figures: { companies: number; reused: number; credits: number }) => {
    const [daily, usage] = await Promise.all([guard().then((g) => g.status()), client.usage().catch(() => undefined)]);
    return aiEstimate(what, figures, daily, usage?.aiActions);
  };

  return {
    storedBriefing: (companyId) => store.get(String(companyId).trim()),
    async estimateBriefings(companyIds, unresolved = 0) {
      const ids = distinct(companyIds);
      const reused = (await Promise.all(ids.map((id) => store.get(id)))).filter(Boolean).length;
      const companies = ids.length + unresolved;
      return estimate(countOf(companies, "briefing"), { companies, reused, credits: companies - reused });
    },
    estimateQuestion: () => estimate("1 question", { companies: 1, reused: 0, credits: 1 }),
    async briefings(companyIds, o = {}) {
      const ids = distinct(companyIds);
      const before = new Set((await Promise.all(ids.map((id) => store.get(id)))).flatMap((b) => (b ? [b.companyId] : [])));
      const run = await runList(ids, (id, signal) => briefingOf(scope(), id, signal ? { signal } : undefined), o);
      const result: BriefingsResult = { briefings: [], fetched: 0, reused: 0, failures: [], cancelled: run.cancelled };
      run.outcomes.forEach((outcome, i) => {
        if (!outcome) return;
        if (!outcome.ok) return void result.failures.push({ companyId: ids[i]!, error: outcome.error });
        result.briefings.push(outcome.value);
        if (before.has(outcome.value.companyId)) result.reused++;
        else result.fetched++;
      });
      return result;
    },
    ask: async (companyId, question, o) => (await spend(() => client.askAccount(String(companyId).trim(), question, o))).answer,
    lookalikes: (request) => lookalikesFromSeeds(lookalikesOf, request),
    lookalikesOf,
    recommendations: (request) => recommendationsForAccounts((q, o) => recommendationQuery(scope(), q, o), request),
    aiSpendStatus: async () => (await guard()).status(),
    setDailyAiCap: async (cap) => (await guard()).setCap(cap),
    whenIdle: async () => {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
