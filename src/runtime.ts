// The one composition root: for an environment it builds the token source, the service client
// and the enrichment engine once per shared runtime (the task pane and the cell functions run
// in the same page and share them). Everything is typed and passed on explicitly; nothing else
// creates a client.
import { createServiceClient, UnauthorizedError, type ServiceClient, type Transport } from "./core/api/index.js";
import { createEnrichmentEngine, type CacheStore, type EnrichmentEngine } from "./core/enrich/index.js";
import type { EnvironmentSettings } from "./core/settings/environment.js";
import type { AccountChangeReason, AccountInfo, TokenSource } from "./auth/index.js";

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
    signOut: async () => {
      signedOut = true;
      token = undefined;
      notify("signedOut");
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
  engine: EnrichmentEngine;
}

export interface RuntimeOptions {
  environment: EnvironmentSettings;
  /** How tokens are obtained: signInTokenSource(platform), or devTokenSource for the sandbox in tests. */
  tokenSource: TokenSourceFactory;
  transport?: Transport;
  cache?: CacheStore;
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
    signOut: async () => (await ready).signOut(),
    account: () => source?.account() ?? null,
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function createRuntime(options: RuntimeOptions): Runtime {
  const { environment } = options;
  const tokens = options.tokenSource(environment);
  const client = createServiceClient({
    baseUrl: environment.apiBaseUrl,
    audiencesBaseUrl: environment.audiencesBaseUrl,
    getAccessToken: (request) => tokens.getAccessToken(request),
    ...(options.transport ? { fetch: options.transport } : {}),
    ...(options.requestsPerSecond ? { rateLimit: { perSecond: options.requestsPerSecond } } : {}),
  });
  const engine = createEnrichmentEngine({ client, ...(options.cache ? { cache: options.cache } : {}) });
  return { environment, tokens, client, engine };
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
