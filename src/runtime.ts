// The one composition root: for an environment it builds the token source, the service client
// (with its request hooks), the enrichment engine and the job poller once per shared runtime
// (the task pane and the cell functions run in the same page and share them). Everything is
// typed and passed on explicitly; nothing else creates a client.
import { createServiceClient, systemClock, type RateLimitOptions, type ServiceClient, type Transport } from "./core/api/index.js";
import { RequestHooks } from "./core/api/hooks.js";
import { usageChangesAfterRequests, type UsageListener } from "./core/api/usageChanges.js";
import {
  createEnrichmentEngine,
  MemoryCacheStore,
  type CacheStore,
  type EnrichmentEngine,
  type EntityKind,
  type FieldEntitlements,
  type SpendStore,
} from "./core/enrich/index.js";
import { JobPoller, JobTracker, keyValueJobStorage } from "./core/jobs/index.js";
import { createCommitteeStore, type CommitteeStore } from "./core/accounts/index.js";
import { createResearch, type Research } from "./core/research/index.js";
import { createPlanSource, type PlanSource } from "./core/plan/index.js";
import type { KeyValueItems } from "./core/storage/keyValue.js";
import { requestAddresses, type EnvironmentSettings } from "./core/settings/environment.js";
import { fetchTransport } from "./core/api/client.js";
import { createFieldEntitlements } from "./core/api/fieldEntitlements.js";
import { createInsights, insightKind, type Insights } from "./core/insights/index.js";
import { productionTransport } from "./core/api/production/index.js";
import type { AccountInfo, TokenSource } from "./auth/types.js";
import { signOutOnRefusedSignIn } from "./auth/signOutOnRefusal.js";
import { enrichmentStores, researchStorage } from "./office/persistentCache.js";
import { storageNotices, userStorage } from "./office/hostStorage.js";
import type { StorageNotices } from "./core/storage/storageNotices.js";
import type { FunctionsConfig, JobStatusConfig } from "./functions/functions.js";

export type { TokenSource } from "./auth/types.js";
export { devTokenSource } from "./auth/devTokenSource.js";
export { lazyTokenSource, signInTokenSource } from "./auth/lazyTokenSource.js";

export type TokenSourceFactory = (environment: EnvironmentSettings) => TokenSource;

export interface Runtime {
  environment: EnvironmentSettings;
  tokens: TokenSource;
  client: ServiceClient;
  /** The engine of the signed-in user: its daily record count persists under that user's key. */
  engine: EnrichmentEngine;
  /** Whether a user is signed in, after a sign-in stored from a previous session has been restored. */
  isSignedIn(): Promise<boolean>;
  /**
   * The request hooks of this runtime's client (the sign-out after an unrecoverable 401 and the
   * usage notice are registered here); see src/core/api/hooks.ts.
   */
  hooks: RequestHooks;
  /** Called once spending requests have settled: the account's usage may have changed. Returns the unsubscribe. */
  onUsageChanged(listener: UsageListener): () => void;
  /** One poller for every job status the page follows (job panel and =BIZ.JOBSTATUS cells). */
  jobPoller: JobPoller;
  /** The signed-in user's remembered job list, in the user's own storage (not the workbook). */
  openJobTracker(): Promise<JobTracker>;
  /** The output fields the account may use (production's entitlement, cached); undefined: every field. */
  entitledFields(kind: EntityKind): Promise<ReadonlySet<string> | undefined>;
  /** Briefings, questions, lookalikes and recommended contacts (core/research), per profile and signed-in user. */
  research: Research;
  /** Insights for a list of companies (core/insights), kept in the signed-in user's enrichment store. */
  insights: Insights;
  /** Buying committees the pane fetched (core/accounts), per profile and signed-in user: BIZ.COMMITTEE reads them. */
  committees: CommitteeStore;
  /** Where the page's stores say, once each, that something could not be kept (the pane shows it). */
  storageNotices: StorageNotices;
  /** What the signed-in user's plan allows (core/plan): read at sign-in and at each usage refresh. */
  plan: PlanSource;
}

/** Where one user's enrichment cache and daily record count persist. */
export type EnrichmentStoresFactory = (userKey: string) => { cache?: CacheStore; spendStore?: SpendStore };

export interface RuntimeOptions {
  environment: EnvironmentSettings;
  /** How tokens are obtained: signInTokenSource(platform), or devTokenSource for the sandbox in tests. */
  tokenSource: TokenSourceFactory;
  transport?: Transport;
  /** A fixed cache for every user (tests); otherwise the one from `stores`. */
  cache?: CacheStore;
  /** A fixed daily record count for every user (tests); otherwise the one from `stores`. */
  spendStore?: SpendStore;
  /**
   * The persistent stores per user key (default: enrichmentStores of src/office/persistentCache:
   * the cache in IndexedDB where the page has it, else a budgeted share of OfficeRuntime.storage or
   * localStorage; the daily count in the small store; memory where nothing persists).
   */
  stores?: EnrichmentStoresFactory;
  /** Requests per second the client allows itself (the plan's allowance). */
  requestsPerSecond?: number;
  /** Where job lists are kept (default: the user's storage of src/office/hostStorage). */
  jobStore?: KeyValueItems;
  /** Where fetched briefings and today's AI count are kept (default: researchStorage of src/office/persistentCache). */
  researchStore?: KeyValueItems;
  /** Where storage failures are told (default: the page's, src/office/hostStorage). */
  storageNotices?: StorageNotices;
  /** Where each user's plan is kept (default: the user's settings storage of src/office/hostStorage). */
  planStore?: KeyValueItems;
}

/** FNV-1a over UTF-16 code units, two seeds: a short stable key that does not spell the text out. */
function stableHash(text: string): string {
  const fnv = (seed: number) => {
    let h = seed >>> 0;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h.toString(16).padStart(8, "0");
  };
  return fnv(0x811c9dc5) + fnv(0x050c5d1f);
}

/**
 * The key a user's daily record count is stored under: the environment plus the signed-in
 * account's user name (hashed), or the environment alone when nobody is signed in. Never a token.
 */
export function enrichmentUserKey(environment: EnvironmentSettings, account: AccountInfo | null): string {
  const place = `${environment.kind}|${environment.apiBaseUrl.replace(/\/+$/, "").toLowerCase()}`;
  return account ? `user-${stableHash(`${place}|${account.username.toLowerCase()}`)}` : `env-${stableHash(place)}`;
}

/**
 * Whether a user is signed in, once a stored sign-in had its chance to be restored: asking for
 * a token waits for that (and for a lazily loaded sign-in library); the token itself is dropped.
 */
export async function signedInAfterRestore(tokens: TokenSource): Promise<boolean> {
  if (tokens.account() !== null) return true;
  try {
    await tokens.getAccessToken();
  } catch {
    // No stored sign-in (or it could not be renewed): signed out, which is the answer asked for.
    return false;
  }
  return tokens.account() !== null;
}

/**
 * A stand-in that forwards every member to whatever `current()` returns at the time of the call,
 * so holders keep one reference while the object behind it is replaced.
 */
function followCurrent<T extends object>(current: () => T): T {
  return new Proxy({} as T, {
    get(_target, name) {
      const target = current();
      const value: unknown = Reflect.get(target, name);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * One engine per signed-in user, switched when the account changes, behind the one engine
 * reference the task pane and the cell functions hold for the life of the page.
 */
function accountScopedEngine(build: (userKey: string) => EnrichmentEngine, tokens: TokenSource, environment: EnvironmentSettings): EnrichmentEngine {
  let key = enrichmentUserKey(environment, tokens.account());
  let engine = build(key);
  tokens.onChange((account) => {
    const next = enrichmentUserKey(environment, account);
    if (next === key) return;
    key = next;
    engine = build(next);
  });
  return followCurrent(() => engine);
}

export function createRuntime(options: RuntimeOptions): Runtime {
  const { environment } = options;
  const tokens = options.tokenSource(environment);
  const rateLimit: RateLimitOptions = {
    ...(options.requestsPerSecond ? { perSecond: options.requestsPerSecond } : {}),
    // The account's allowance at the real service may be below ours: learn it before a burst.
    ...(environment.kind !== "sandbox" ? { probeFirst: true } : {}),
  };
  const addresses = requestAddresses(environment);
  // Production's dialect (names, studio operations, paging) is spoken at the transport edge.
  const production = environment.profile === "production";
  const transport = production ? productionTransport(options.transport ?? fetchTransport()) : options.transport;
  // What the account may enrich: learnt from answers refusing a field, hinted by production's
  // output-field lookup, which goes through the client like every request. Per signed-in user.
  const entitlements = createFieldEntitlements(production ? (kind) => client.outputFields(kind) : undefined);
  tokens.onChange(() => entitlements.clear());
  // Signals have no field entitlement: the service decides by scope.
  const entitledFields: FieldEntitlements = (kind) => (kind === "company" || kind === "contact" ? entitlements.entitled(kind) : Promise.resolve(undefined));
  // Outermost first: the sign-out rule sees every failure, the usage notice every request.
  const hooks = new RequestHooks();
  signOutOnRefusedSignIn(hooks, tokens);
  const usage = usageChangesAfterRequests(hooks);
  const client = createServiceClient({
    baseUrl: addresses.data,
    // Production keeps the audience operations under /studio: the environment says where.
    audiencesBaseUrl: addresses.audiences,
    getAccessToken: (request) => tokens.getAccessToken(request),
    hooks,
    entitlements,
    // Research speaks production's copilot API there (core/api/researchOperations.ts).
    ...(production ? { profile: "production" as const } : {}),
    // The organization's relay paces the whole tenant: it serves a person's requests first.
    ...(environment.relayUrl ? { tellPriority: true } : {}),
    ...(transport ? { fetch: transport } : {}),
    ...(Object.keys(rateLimit).length > 0 ? { rateLimit } : {}),
  });
  // Briefings, the AI count and buying committees belong to the profile and the signed-in user.
  const userScope = () => `${environment.profile ?? "specification"}|${enrichmentUserKey(environment, tokens.account())}`;
  // The plan of the signed-in user, read again when the account changes (and at each usage refresh).
  const plan = createPlanSource({ client, store: options.planStore ?? userStorage(), user: () => (tokens.account() ? userScope() : undefined) });
  tokens.onChange(() => void plan.userChanged());
  const notices = options.storageNotices ?? storageNotices;
  const storesFor = options.stores ?? ((userKey: string) => enrichmentStores(userKey, notices));
  // One pipeline per user: ids and matching share its caches and its one daily allowance.
  let insightStore: CacheStore = new MemoryCacheStore();
  const engine = accountScopedEngine(
    (userKey) => {
      const stores = storesFor(userKey);
      const cache = options.cache ?? stores.cache;
      insightStore = cache ?? new MemoryCacheStore();
      const spendStore = options.spendStore ?? stores.spendStore;
      // Every field of a record rides in its first request: credits are per record, so the next
      // columns come free and requests stay at the floor in any calculation order (bench/cells.ts).
      return createEnrichmentEngine({
        // BIZ.INSIGHT's kind: the pipeline gathers its cells, 50 companies a request.
        kinds: [insightKind],
        client,
        companionFields: "all",
        ...(entitledFields ? { entitlements: entitledFields } : {}),
        planRefusal: (kind) => plan.kindRefusal(kind),
        ...(cache ? { cache } : {}),
        ...(spendStore ? { spendStore } : {}),
      });
    },
    tokens,
    environment,
  );
  const jobPoller = new JobPoller({ client });
  const openJobTracker = () => {
    // The job list is per user, in the user's own storage.
    const user = tokens.account()?.username ?? "anonymous";
    return JobTracker.open({ poller: jobPoller, storage: keyValueJobStorage(options.jobStore ?? userStorage(), `${environment.apiBaseUrl}|${user}`) });
  };
  const researchItems = options.researchStore ?? researchStorage(notices);
  const research = createResearch({ client, storage: researchItems, scope: userScope });
  const committees = createCommitteeStore(researchItems, userScope);
  const insights = createInsights({ client, cache: () => insightStore, now: () => systemClock.now(), match: (criteria) => engine.match(criteria) });
  return {
    environment,
    tokens,
    client,
    engine,
    research,
    committees,
    insights,
    isSignedIn: () => signedInAfterRestore(tokens),
    hooks,
    onUsageChanged: (listener) => usage.onUsageChanged(listener),
    jobPoller,
    openJobTracker,
    entitledFields,
    storageNotices: notices,
    plan,
  };
}

/** What the cell functions get from a runtime: configureFunctions and configureJobStatus take these. */
export interface CellFunctionsWiring {
  functions: FunctionsConfig;
  jobStatus: JobStatusConfig;
}

/**
 * The cell functions' share of the runtime: the same engine (one cache, one daily count), the
 * same job poller as the Jobs panel, a sign-in check that waits for a stored sign-in, and
 * whether the host shows data-type cards (asked of the host by src/office/hostCapabilities).
 */
export function cellFunctionsWiring(runtime: Runtime, host: { supportsEntityCards(): boolean }): CellFunctionsWiring {
  return {
    functions: {
      engine: runtime.engine,
      isSignedIn: runtime.isSignedIn,
      supportsEntityCards: () => host.supportsEntityCards(),
      // Only the free parts: no cell may spend an AI action credit.
      research: { lookalikesOf: runtime.research.lookalikesOf, storedBriefing: runtime.research.storedBriefing },
      // Read only: no cell fetches an org chart.
      committees: { get: (companyId, department) => runtime.committees.get(companyId, department) },
      plan: runtime.plan,
      insightsAllowed: () => runtime.plan.allows("insights"),
    },
    jobStatus: { poller: runtime.jobPoller, isSignedIn: runtime.isSignedIn },
  };
}

let shared: { key: string; runtime: Runtime } | undefined;

/**
 * The runtime of this page, built once per environment: the task pane and the cell functions
 * get the same client (one rate limiter) and the same engine (one cache).
 */
export function sharedRuntime(options: RuntimeOptions): Runtime {
  const key = JSON.stringify(options.environment);
  if (!shared || shared.key !== key) shared = { key, runtime: createRuntime(options) };
  return shared.runtime;
}
