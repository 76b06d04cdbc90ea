// What an organization configures on its broker. Nothing here comes from a request.

export interface RateLimitRule {
  /** Requests allowed per client address in one window. */
  max: number;
  /** Length of the window in milliseconds. */
  windowMs: number;
}

export interface BrokerConfig {
  /** The one token endpoint every exchange and refresh goes to. */
  upstream: string;
  /** The app's client id and secret, sent upstream as HTTP Basic. */
  clientId: string;
  clientSecret: string;
  /** Browser origins (scheme://host[:port]) allowed to call the broker: the add-in's pages. */
  allowOrigins: string[];
  /** Base URL of the service (e.g. https://api.example.com/gtm) when the API is relayed. */
  relay?: string;
  /** Largest token request body in bytes (larger ones answer 413). */
  tokenBodyLimit: number;
  /** Largest relayed request body in bytes. */
  relayBodyLimit: number;
  rateLimit: { token: RateLimitRule; relay: RateLimitRule };
  /** How long an upstream call may take, in milliseconds. */
  upstreamTimeoutMs: number;
  /** Trust X-Forwarded-For from a load balancer in front (the client address comes from it). */
  trustProxy: boolean;
}

const DEFAULT_BROKER_LIMITS = {
  tokenBodyLimit: 16 * 1024,
  relayBodyLimit: 1024 * 1024,
  rateLimit: {
    // A user signs in or refreshes a few times an hour; 30 a minute leaves room for a team behind one address.
    token: { max: 30, windowMs: 60_000 },
    relay: { max: 600, windowMs: 60_000 },
  },
  upstreamTimeoutMs: 15_000,
  trustProxy: false,
} satisfies Partial<BrokerConfig>;

export type BrokerConfigInput = Pick<BrokerConfig, "upstream" | "clientId" | "clientSecret" | "allowOrigins"> &
  Partial<Omit<BrokerConfig, "upstream" | "clientId" | "clientSecret" | "allowOrigins" | "rateLimit">> & {
    rateLimit?: Partial<BrokerConfig["rateLimit"]>;
  };

/** Complete, checked configuration; throws with a message naming the bad setting. */
export function brokerConfig(input: BrokerConfigInput): BrokerConfig {
  const upstream = absoluteUrl(input.upstream, "upstream");
  if (!input.clientId) throw new Error("The client id is empty: set --client-id or BROKER_CLIENT_ID.");
  if (!input.clientSecret) throw new Error("The client secret is empty: set --client-secret-file or BROKER_CLIENT_SECRET.");
  if (input.allowOrigins.length === 0) throw new Error("No allowed origin: set --allow-origin to the add-in's address.");
  const allowOrigins = input.allowOrigins.map((o) => new URL(absoluteUrl(o, "allow-origin")).origin);
  const relay = input.relay ? absoluteUrl(input.relay, "relay").replace(/\/+$/, "") : undefined;
  return {
    ...DEFAULT_BROKER_LIMITS,
    ...input,
    upstream,
    allowOrigins,
    relay,
    rateLimit: { ...DEFAULT_BROKER_LIMITS.rateLimit, ...input.rateLimit },
  };
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
