// What the sandbox's parts share: the database, signing keys, the record store, the credit
// ledger, request statistics and options. Every feature (plugin.ts) receives it.
import type Database from "better-sqlite3";
import type { JWK } from "jose";
import type { CreditKind } from "../core/contract/index.js";
import type { Clock } from "../core/contract/index.js";

export interface RateLimitWindows {
  perSecond: number;
  perHour: number;
  perDay: number;
}

export interface FaultOptions {
  /** Added latency of every API response, in ms. */
  latencyMs: number;
  /** Share of API requests answered 5xx (0..1). */
  failRate: number;
  /** Share of API requests whose connection is dropped (0..1). */
  resetRate: number;
  /** Answer 401/403/429 in the production gateway's {"error":{...}} shape. */
  gatewayErrors: boolean;
  /** Seed of the deterministic fault sequence. */
  seed: number;
}

export interface SandboxOptions {
  /** Folder for the SQLite file and keys; undefined keeps everything in memory. */
  dataDir?: string;
  /** Start over: delete the data in dataDir first. */
  reset?: boolean;
  seed: number;
  companies: number;
  contacts: number;
  rateLimit: RateLimitWindows;
  faults: FaultOptions;
  /** The URL clients reach the sandbox at (issuer of dev tokens), e.g. https://localhost:4010. */
  publicUrl: string;
  /** Origins allowed by CORS (the add-in's), e.g. https://localhost:3000. */
  corsOrigins: string[];
  /** Audience job speed: rows enriched per second. */
  jobRowsPerSecond: number;
  /** "production": also serve the production profile (src/sandbox/production). Default: the specification only. */
  profile?: "default" | "production";
  /** The production profile's confidential client. */
  clientId?: string;
  clientSecret?: string;
  /** Budget of the search page cache in bytes (approximate: the cached rows' JSON size). */
  pageCacheBytes: number;
  /** Lifetime of the sign-in server's access tokens, seconds (default: SANDBOX_ACCESS_TOKEN_TTL, else 900). */
  accessTokenTtlSeconds?: number;
}

/** Claims the API reads from a verified access token. */
export interface TokenPrincipal {
  subject: string;
  account: string;
  scopes: string[];
  roles: string[];
}

export interface SigningKeys {
  /** RS256 private key as a JWK (with kid), for oidc-provider's `jwks` and dev tokens. */
  privateJwk: JWK;
  /** The public key set the API verifies with. */
  publicJwks: { keys: JWK[] };
}

/** Charging records of one kind to an account's credit balance (12-month management window). */
export interface CreditLedger {
  /**
   * Enrich `ids` for `account`: ids already under management cost nothing; new ids cost one
   * credit each while credits last; the rest are refused. Returns which ids were which.
   */
  charge(account: string, kind: CreditKind, ids: number[]): { free: number[]; charged: number[]; refused: number[] };
  balance(account: string): number;
  /** Whether the account could enrich at least one new record now. */
  canSpend(account: string): boolean;
  /** When the record went under management for this account, if it is. */
  purchaseDate(account: string, kind: CreditKind, id: number): string | undefined;
}

/** Reading seeded records as enrichment output (only the requested fields; empty fields omitted). */
export interface RecordStore {
  companyAttributes(ids: number[], fields: string[]): Map<number, Record<string, unknown>>;
  contactAttributes(ids: number[], fields: string[]): Map<number, Record<string, unknown>>;
  companyCount(): number;
  contactCount(): number;
}

export interface SandboxStats {
  /** API requests received, by route (e.g. "POST /data/v1/companies/enrich"), including rejected ones. */
  requests: Map<string, number>;
  reset(): void;
}

export { sandboxClock } from "./clock.js";
export type { Clock };

export interface SandboxContext {
  options: SandboxOptions;
  clock: Clock;
  db: Database.Database;
  keys: SigningKeys;
  /** API token audience. */
  apiAudience: string;
  /** Issuers whose tokens the API accepts (dev tokens; the sign-in server adds its own). */
  trustedIssuers: string[];
  records: RecordStore;
  credits: CreditLedger;
  stats: SandboxStats;
  faults: FaultOptions;
  /** Fires "jobs" after background jobs move (tests await it instead of waiting on time). */
  jobEvents: EventTarget;
  /**
   * Authenticate and authorize an API request (401/403 replies are sent by the caller's hook).
   * Features use it for their own routes.
   */
  authenticate(authorization: string | undefined): Promise<TokenPrincipal>;
}
