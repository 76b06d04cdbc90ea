// What an organization configures on its broker. Nothing here comes from a request.

export interface RateLimitRule {
  /** Requests allowed per client address in one window. */
  max: number;
  /** Length of the window in milliseconds. */
  windowMs: number;
}

/** Central pacing of relayed calls: each tenant's requests leave at its package rate. */
export interface RelayPacing {
  /** The tenant's requests per second at the service (its package: 5, 25 or 35). */
  perSecond: number;
  /**
   * Extra spacing as a share of 1000/perSecond (default 0.02): any one-second window at the
   * service, however it is aligned, then sees at most perSecond requests even when requests
   * reach it up to 20 ms late or early.
   */
  safetyMargin: number;
  /** Redis URL shared by every broker instance; without it each instance paces alone (in memory). */
  redisUrl?: string;
  /** Longest a request waits in its tenant's queue before the broker answers 429 with Retry-After. */
  maxQueueWaitMs: number;
  /** Token claim naming the tenant (default "account"); tokens without it share one queue. */
  tenantClaim: string;
  /**
   * The service's published signing keys (a JWKS URL): tokens whose signature they verify take
   * their tenant's slots at once. Without it, a token takes them once the service has accepted it.
   */
  jwksUrl?: string;
  /** With jwksUrl: the `iss` the service writes in its access tokens (required with a key set). */
  jwksIssuer?: string;
  /** With jwksUrl: the `aud` the service writes in this app's access tokens (required with a key set). */
  jwksAudience?: string;
}

export interface BrokerConfig {
  /** The one token endpoint every exchange and refresh goes to. */
  upstream: string;
  /** The app's client id and secret, sent upstream as HTTP Basic. */
  clientId: string;
  clientSecret: string;
  /** Browser origins (scheme://host[:port]) allowed to call the broker: the add-in's pages. */
  allowOrigins: string[];
  /**
   * The redirect URIs a code exchange may name. Empty: the add-in's redirect.html and
   * dialog.html at any path of an allowed origin.
   */
  redirectUris: string[];
  /** Base URL of the service (e.g. https://api.example.com/gtm) when the API is relayed. */
  relay?: string;
  /** Pacing of relayed calls per tenant; off when absent. */
  pacing?: RelayPacing;
  /** Largest token request body in bytes (larger ones answer 413). */
  tokenBodyLimit: number;
  /** Largest relayed request body in bytes. */
  relayBodyLimit: number;
  /** Relayed request bodies buffered at once, in bytes, in total and per organization (then 503). */
  bufferedBodyBytes: number;
  bufferedBodyBytesPerOrganization: number;
  /** Longest a request may take to arrive whole, headers and body (then 408; Node's requestTimeout). */
  requestTimeoutMs: number;
  /** Longest a connection may stay silent before it is closed (Node's server timeout). */
  connectionTimeoutMs: number;
  /** Longest the relay reads one request's body once it has taken its queue place (then 408). */
  bodyTimeoutMs: number;
  /** Largest answer of the token endpoint the broker reads, in bytes (larger ones answer 502). */
  tokenAnswerLimit: number;
  /** Largest relayed answer in bytes (larger ones answer 502). */
  relayAnswerLimit: number;
  rateLimit: { token: RateLimitRule; relay: RateLimitRule };
  /** How long an upstream call may take, in milliseconds (then 504, or 502 mid-answer). */
  upstreamTimeoutMs: number;
  /**
   * Whom to believe about the client address in X-Forwarded-For: false (nobody: the peer is
   * the client), the number of proxy hops in front of the broker, or the proxies' addresses
   * (IPs or CIDR ranges). Either way the address is read from the right.
   */
  trustProxy: false | number | string[];
}

const DEFAULT_BROKER_LIMITS = {
  tokenBodyLimit: 16 * 1024,
  // The largest request the add-in sends: a bulk upsert of 500 audience rows (a wide list: 40
  // columns of long text is about 1.5 MiB).
  relayBodyLimit: 8 * 1024 * 1024,
  // Eight of the largest bodies at once, three of them one organization's (a team sending wide audiences).
  bufferedBodyBytes: 64 * 1024 * 1024,
  bufferedBodyBytesPerOrganization: 24 * 1024 * 1024,
  // A request may wait 20 s for its queue place before its body is read: room for that and the body.
  requestTimeoutMs: 60_000,
  // Longer than any relayed call takes in silence (its queue wait, the service's 15 s, held refusals).
  connectionTimeoutMs: 120_000,
  bodyTimeoutMs: 30_000,
  tokenAnswerLimit: 64 * 1024,
  // A page of 100 records or 500 audience rows is well under this.
  relayAnswerLimit: 16 * 1024 * 1024,
  rateLimit: {
    // A user signs in or refreshes a few times an hour; 30 a minute leaves room for a team behind one address.
    token: { max: 30, windowMs: 60_000 },
    // A whole team often shares one address (an office's NAT): room for the largest package (35/s) and then some.
    relay: { max: 3000, windowMs: 60_000 },
  },
  upstreamTimeoutMs: 15_000,
  trustProxy: false,
  redirectUris: [],
} satisfies Partial<BrokerConfig>;

export const DEFAULT_PACING = { safetyMargin: 0.02, maxQueueWaitMs: 20_000, tenantClaim: "account" } satisfies Partial<RelayPacing>;

export type BrokerConfigInput = Pick<BrokerConfig, "upstream" | "clientId" | "clientSecret" | "allowOrigins"> &
  Partial<Omit<BrokerConfig, "upstream" | "clientId" | "clientSecret" | "allowOrigins" | "rateLimit" | "pacing">> & {
    rateLimit?: Partial<BrokerConfig["rateLimit"]>;
    pacing?: Pick<RelayPacing, "perSecond"> & Partial<RelayPacing>;
  };

/** Complete, checked configuration; throws with a message naming the bad setting. */
export function brokerConfig(input: BrokerConfigInput): BrokerConfig {
  const upstream = absoluteUrl(input.upstream, "upstream");
  if (!input.clientId) throw new Error("The client id is empty: set --client-id or BROKER_CLIENT_ID.");
  if (!input.clientSecret) throw new Error("The client secret is empty: set --client-secret-file or BROKER_CLIENT_SECRET.");
  if (input.allowOrigins.length === 0) throw new Error("No allowed origin: set --allow-origin to the add-in's address.");
  const allowOrigins = input.allowOrigins.map((o) => new URL(absoluteUrl(o, "allow-origin")).origin);
  const redirectUris = (input.redirectUris ?? []).map((u) => {
    const url = new URL(absoluteUrl(u, "redirect-uri"));
    if (!allowOrigins.includes(url.origin)) throw new Error(`--redirect-uri ${u} is not on an allowed origin (${allowOrigins.join(", ")}).`);
    return url.href;
  });
  const relay = input.relay ? absoluteUrl(input.relay, "relay").replace(/\/+$/, "") : undefined;
  const pacing = input.pacing ? { ...DEFAULT_PACING, ...input.pacing } : undefined;
  if (pacing && !relay) throw new Error("--relay-rate paces relayed calls: set --relay too.");
  if (pacing && !(Number.isInteger(pacing.perSecond) && pacing.perSecond >= 1))
    throw new Error(`--relay-rate must be a whole number of at least 1 (got ${pacing.perSecond}).`);
  if (pacing && !(pacing.safetyMargin >= 0 && pacing.safetyMargin < 1)) throw new Error("The pacing safety margin must be from 0 to 1.");
  if (pacing?.redisUrl !== undefined) checkRedisUrl(pacing.redisUrl);
  if (pacing?.jwksUrl !== undefined) checkKeySet(pacing);
  return {
    ...DEFAULT_BROKER_LIMITS,
    ...input,
    upstream,
    allowOrigins,
    redirectUris,
    relay,
    pacing,
    trustProxy: trustProxySetting(input.trustProxy ?? false),
    rateLimit: { ...DEFAULT_BROKER_LIMITS.rateLimit, ...input.rateLimit },
  };
}

/** A key set needs the issuer and audience the service's tokens carry: a token signed for another app must not count. */
function checkKeySet(pacing: RelayPacing): void {
  absoluteUrl(pacing.jwksUrl!, "relay-jwks");
  if (!pacing.jwksIssuer) throw new Error("--relay-jwks needs --relay-issuer: the iss the service writes in its access tokens.");
  if (!pacing.jwksAudience) throw new Error("--relay-jwks needs --relay-audience: the aud the service writes in this app's access tokens.");
}

/** A Redis URL ioredis can use: redis:// or rediss://, a host, a numeric port and database. Its password is never repeated. */
function checkRedisUrl(value: string): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  const shown = url ? `${url.protocol}//${url.host}${url.pathname}` : "(not a URL)";
  const fix = "Use redis://HOST:PORT/DB or rediss://HOST:PORT/DB, with a whole-number database (redis://redis.internal:6379/0)";
  if (!url || (url.protocol !== "redis:" && url.protocol !== "rediss:") || !url.hostname)
    throw new Error(`--relay-redis is not a Redis URL (got ${shown}). ${fix}.`);
  if (!/^\/?(\d+)?$/.test(url.pathname))
    throw new Error(`--relay-redis names the database "${url.pathname.slice(1)}", which is not a number (got ${shown}). ${fix}.`);
}

function trustProxySetting(value: false | number | string[]): false | number | string[] {
  if (value === false) return false;
  if (typeof value === "number") {
    if (!Number.isInteger(value) || value < 0) throw new Error(`--trust-proxy must be a number of hops or proxy addresses (got ${value}).`);
    return value === 0 ? false : value;
  }
  if (value.length === 0) return false;
  for (const address of value) {
    if (!/^[0-9A-Fa-f.:]+(\/\d{1,3})?$/.test(address)) throw new Error(`--trust-proxy: "${address}" is not an IP address or CIDR range.`);
  }
  return value;
}

function absoluteUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--${name} must be an absolute http(s) URL (got "${value}").`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(`--${name} must be an http(s) URL (got "${value}").`);
  return url.href;
}
