// The one composition root: for an environment it builds the token source, the service client
// and the enrichment engine once per shared runtime (the task pane and the cell functions run
// in the same page and share them). Everything is typed and passed on explicitly; nothing else
// creates a client.
import { createServiceClient, UnauthorizedError, type ServiceClient, type Transport } from "./core/api/index.js";
import { createEnrichmentEngine, type CacheStore, type EnrichmentEngine } from "./core/enrich/index.js";
import type { EnvironmentSettings } from "./core/settings/environment.js";

export interface SignedInAccount {
  name: string;
  username: string;
}

/** Where bearer tokens come from. The sign-in module's createTokenSource implements it too. */
export interface TokenSource {
  getAccessToken(request?: { forceRefresh?: boolean }): Promise<string>;
  signIn(): Promise<void>;
  signOut(): Promise<void>;
  account(): SignedInAccount | null;
  /** Called on sign-in and sign-out; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
}

export type TokenSourceFactory = (environment: EnvironmentSettings) => TokenSource;

interface DevTokenResponse {
  access_token?: unknown;
  expires_in?: unknown;
}

/**
 * Sandbox only: takes a token from the sandbox's development endpoint (POST /__sandbox/token)
 * without a sign-in dialog, so the sandbox works in a plain browser and in tests. Refuses any
 * other environment. Tokens stay in memory.
 */
export function devTokenSource(environment: EnvironmentSettings, transport: typeof fetch = fetch): TokenSource {
  if (environment.kind !== "sandbox") throw new Error("The development token source works only with the sandbox.");
  const url = `${environment.apiBaseUrl.replace(/\/+$/, "")}/__sandbox/token`;
  let token: { value: string; expiresAt: number } | undefined;
  let inflight: Promise<string> | undefined;
  let signedOut = false;
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());

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
    const first = token === undefined;
    token = { value: body.access_token, expiresAt: Date.now() + Math.max(10, lifetime - 30) * 1000 };
    if (first) notify();
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
      notify();
    },
    signOut: async () => {
      signedOut = true;
      token = undefined;
      notify();
    },
    account: () => (token && !signedOut ? { name: "Sandbox user", username: "sandbox" } : null),
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
  /** How tokens are obtained; defaults to the sandbox's development tokens (sandbox only). */
  tokenSource?: TokenSourceFactory;
  transport?: Transport;
  cache?: CacheStore;
  /** Requests per second the client allows itself (the plan's allowance). */
  requestsPerSecond?: number;
}

/**
 * The token source for an environment. The sign-in module's createTokenSource replaces the
 * development source here (one line) once it is wired; until then only the sandbox signs in.
 */
export function defaultTokenSource(environment: EnvironmentSettings): TokenSource {
  if (environment.kind === "sandbox") return devTokenSource(environment);
  return unavailableTokenSource(environment);
}

function unavailableTokenSource(environment: EnvironmentSettings): TokenSource {
  const refuse = async (): Promise<never> => {
    throw new UnauthorizedError("unauthorized", { userMessage: `Signing in to ${environment.label} is not available in this build yet.` });
  };
  return { getAccessToken: refuse, signIn: refuse, signOut: async () => undefined, account: () => null, onChange: () => () => undefined };
}

export function createRuntime(options: RuntimeOptions): Runtime {
  const { environment } = options;
  const tokens = (options.tokenSource ?? defaultTokenSource)(environment);
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
