// The one composition root: for an environment it builds the token source, the service client
// and the enrichment engine once per shared runtime (the task pane and the cell functions run
// in the same page and share them). Everything is typed and passed on explicitly; nothing else
// creates a client.
import { createServiceClient, UnauthorizedError, type RateLimitOptions, type ServiceClient, type Transport } from "./core/api/index.js";
import { isServiceError } from "./core/api/errors.js";
import { createEnrichmentEngine, type CacheStore, type EnrichmentEngine, type SpendStore } from "./core/enrich/index.js";
import { requestAddresses, type EnvironmentSettings } from "./core/settings/environment.js";
import { fetchTransport } from "./core/api/transport.js";
import { productionTransport } from "./core/api/production/index.js";
import type { AccountChangeReason, AccountInfo, TokenSource } from "./auth/index.js";
import { sharedJobPoller } from "./core/jobs/index.js";
import { enrichmentStores } from "./office/persistentCache.js";
import type { FunctionsConfig, JobStatusConfig } from "./functions/functions.js";

export type { TokenSource } from "./auth/index.js";

export type TokenSourceFactory = (environment: EnvironmentSettings) => TokenSource;

interface DevTokenResponse {
  access_token?: unknown;
  expires_in?: unknown;
}

/**
 * Sandbox only: takes a token from the sandbox's development endpoint (POST /__sandbox/token)
 * without a sign-in dialog, so demonstrations and browser tests run without the OAuth flow.
 * Refuses any other environment. Tokens stay in memory.
 */
export function devTokenSource(environment: EnvironmentSettings, transport: typeof fetch = fetch): TokenSource {
  if (environment.kind !== "sandbox") throw new Error("The development token source works only with the sandbox.");
  const url = `${environment.apiBaseUrl.replace(/\/+$/, "")}/__sandbox/token`;
  let token: { value: string; expiresAt: number } | undefined;
  let inflight: Promise<string> | undefined;
  let signedOut = false;
  const listeners = new Set<(account: AccountInfo | null, reason?: AccountChangeReason) => void>();
  const SANDBOX_ACCOUNT: AccountInfo = { name: "Sandbox user", username: "sandbox" };
  const notify = (reason: AccountChangeReason) => listeners.forEach((l) => l(signedOut ? null : SANDBOX_ACCOUNT, reason));

  const fetchToken = async (): Promise<string> => {
    let response: Response;
    try {
      response = await transport(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    } catch {
      throw new UnauthorizedError("unauthorized", { userMessage: `The sandbox at ${environment.apiBaseUrl} does not answer. Start it with npm run sandbox.` });
    }
    if (!response.ok) {
      throw new UnauthorizedError("unauthorized", { status: response.status, userMessage: "The sandbox did not give a token; is it a development sandbox?" });
    }
    const body = (await response.json()) as DevTokenResponse;
    if (typeof body.access_token !== "string") {
      throw new UnauthorizedError("unauthorized", { userMessage: "The sandbox answered without a token." });
    }
    const lifetime = typeof body.expires_in === "number" ? body.expires_in : 3600;
    token = { value: body.access_token, expiresAt: Date.now() + Math.max(10, lifetime - 30) * 1000 };
    return token.value;
  };

  return {
    getAccessToken: async (request) => {
      if (signedOut) throw new UnauthorizedError("unauthorized", { userMessage: "Sign in to use the sandbox." });
      if (!request?.forceRefresh && token && token.expiresAt > Date.now()) return token.value;
      // One request at a time, however many callers ask at once.
      inflight ??= fetchToken().finally(() => (inflight = undefined));
      return inflight;
    },
    signIn: async () => {
      signedOut = false;
      await fetchToken();
      notify("signedIn");
      return SANDBOX_ACCOUNT;
    },
    signOut: async (options) => {
      signedOut = true;
      token = undefined;
      notify(options?.reason === "expired" ? "expired" : "signedOut");
    },
    // The sandbox's development tokens need no sign-in: signed in until the user signs out.
    account: () => (signedOut ? null : SANDBOX_ACCOUNT),
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export interface Runtime {
  environment: EnvironmentSettings;
  tokens: TokenSource;
  client: ServiceClient;
  /** The engine of the signed-in user: its daily record count persists under that user's key. */
  engine: EnrichmentEngine;
  /** Whether a user is signed in, after a sign-in stored from a previous session has been restored. */
  isSignedIn(): Promise<boolean>;
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
   * OfficeRuntime.storage in Office, IndexedDB in a browser, memory elsewhere).
   */
  stores?: EnrichmentStoresFactory;
  /** Requests per second the client allows itself (the plan's allowance). */
  requestsPerSecond?: number;
}

/**
 * The real sign-in (OAuth code flow with PKCE) for the platform the page runs on. The sign-in
 * library is loaded right after start-up rather than in the first bundle (it is large).
 */
export function signInTokenSource(platform: "office" | "browser"): TokenSourceFactory {
  return (environment) => lazyTokenSource(() => import("./auth/index.js").then((m) => m.createTokenSource(environment, platform)));
}

type AccountListener = (account: AccountInfo | null, reason?: AccountChangeReason) => void;

/** A token source whose implementation loads on demand; calls wait for it, events pass through. */
export function lazyTokenSource(load: () => Promise<TokenSource>): TokenSource {
  let source: TokenSource | undefined;
  const listeners = new Set<AccountListener>();
  const ready = load().then((loaded) => {
    source = loaded;
    loaded.onChange((account, reason) => listeners.forEach((l) => l(account, reason)));
    const account = loaded.account();
    if (account) listeners.forEach((l) => l(account, "restored"));
    return loaded;
  });
  // A failed load is reported by the first call that needs the source, not here.
  ready.catch(() => undefined);
  return {
    getAccessToken: async (request) => (await ready).getAccessToken(request),
    signIn: async () => (await ready).signIn(),
    signOut: async (options) => (await ready).signOut(options),
    account: () => source?.account() ?? null,
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
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
 * One engine per signed-in user, switched when the account changes, behind the one engine
 * interface the task pane and the cell functions hold for the life of the page.
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
  return {
    getCells: (kind, id, fields, options) => engine.getCells(kind, id, fields, options),
    enrichIds: (kind, ids, fields, options) => engine.enrichIds(kind, ids, fields, options),
    planSelection: (kind, rawIds, fields) => engine.planSelection(kind, rawIds, fields),
    markUnderManagement: (kind, ids) => engine.markUnderManagement(kind, ids),
    clearCache: () => engine.clearCache(),
    spendStatus: () => engine.spendStatus(),
    setDailyNewRecordCap: (cap) => engine.setDailyNewRecordCap(cap),
    whenIdle: () => engine.whenIdle(),
  };
}

/**
 * The client with one rule on top: a refusal of the sign-in that the client's own forced token
 * refresh did not fix signs the user out with reason "expired", so the task pane returns to the
 * sign-in screen saying why. The one place this happens; components only show the error.
 */
export function signOutOnRefusedSignIn(client: ServiceClient, tokens: TokenSource): ServiceClient {
  /** Signs out after a refused sign-in, unless the user signed in as someone else meanwhile. */
  const checkFor = (signedInAs: string | undefined) => (error: unknown): never => {
    const now = tokens.account();
    // Signed out already (no token to begin with, or the token source gave up itself): nothing to do.
    if (isServiceError(error) && error.kind === "unauthorized" && now !== null && (signedInAs === undefined || signedInAs === now.username)) {
      tokens.signOut({ reason: "expired" }).catch((signOutError: unknown) =>
        // The request's own error still reaches the caller; this only records why the screen did not change.
        console.error("Signing out after a refused sign-in failed:", signOutError instanceof Error ? signOutError.message : String(signOutError)),
      );
    }
    throw error;
  };
  const guard = <T>(work: Promise<T>): Promise<T> => work.catch(checkFor(tokens.account()?.username));
  async function* guardPages<T>(pages: AsyncIterable<T>): AsyncGenerator<T> {
    const check = checkFor(tokens.account()?.username);
    try {
      yield* pages;
    } catch (error) {
      check(error);
    }
  }
  return {
    searchCompanies: (filters, options) => guard(client.searchCompanies(filters, options)),
    searchContacts: (filters, options) => guard(client.searchContacts(filters, options)),
    iterateCompanies: (filters, options) => guardPages(client.iterateCompanies(filters, options)),
    iterateContacts: (filters, options) => guardPages(client.iterateContacts(filters, options)),
    enrichCompanies: (inputs, fields, options) => guard(client.enrichCompanies(inputs, fields, options)),
    enrichContacts: (inputs, fields, options) => guard(client.enrichContacts(inputs, fields, options)),
    lookup: (fieldName, options) => guard(client.lookup(fieldName, options)),
    usage: (options) => guard(client.usage(options)),
    listAudiences: (options) => guard(client.listAudiences(options)),
    getAudience: (audienceId, options) => guard(client.getAudience(audienceId, options)),
    getAudienceRows: (audienceId, options) => guard(client.getAudienceRows(audienceId, options)),
    startAudienceEnrichment: (audienceId, options) => guard(client.startAudienceEnrichment(audienceId, options)),
    getJob: (audienceId, jobId, options) => guard(client.getJob(audienceId, jobId, options)),
    waitForJob: (audienceId, jobId, options) => guard(client.waitForJob(audienceId, jobId, options)),
  };
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
  // Production's dialect (names, studio operations, paging, entitlements) is spoken at the transport edge.
  const edge = environment.profile === "production" ? productionTransport(options.transport ?? fetchTransport()) : undefined;
  if (edge) tokens.onChange(() => edge.entitlements.clear());
  const transport = edge ?? options.transport;
  const client = signOutOnRefusedSignIn(
    createServiceClient({
      baseUrl: addresses.data,
      // Production keeps the audience operations under /studio: the environment says where.
      audiencesBaseUrl: addresses.audiences,
      getAccessToken: (request) => tokens.getAccessToken(request),
      ...(transport ? { fetch: transport } : {}),
      ...(Object.keys(rateLimit).length > 0 ? { rateLimit } : {}),
    }),
    tokens,
  );
  const stores = options.stores ?? enrichmentStores;
  const engine = accountScopedEngine(
    (userKey) => {
      const persisted = options.cache && options.spendStore ? {} : stores(userKey);
      const cache = options.cache ?? persisted.cache;
      const spendStore = options.spendStore ?? persisted.spendStore;
      return createEnrichmentEngine({ client, ...(cache ? { cache } : {}), ...(spendStore ? { spendStore } : {}) });
    },
    tokens,
    environment,
  );
  return { environment, tokens, client, engine, isSignedIn: () => signedInAfterRestore(tokens) };
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
    functions: { engine: runtime.engine, isSignedIn: runtime.isSignedIn, supportsEntityCards: () => host.supportsEntityCards() },
    jobStatus: { poller: sharedJobPoller(runtime.client), isSignedIn: runtime.isSignedIn },
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
