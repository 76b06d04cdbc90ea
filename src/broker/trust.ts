// Whose slots a relayed request may take. A token's tenant claim chooses the queue it waits in,
// so the claim must be the service's own before it counts. With the service's published keys (a
// JWKS address, cached by jose and fetched again when a token names a key it has not seen, so
// key rotation is followed) only a verified signature proves a token, with its issuer, audience,
// expiry, issue time and lifetime checked; a key id the set still lacks after that one fetch is
// refused. Without a key set, a token is proven once the service has answered one of the
// relay's operations for it with a success (proof.ts). Until then a request is "unproven" and
// goes through the per-address probation lane (probation.ts) without taking any tenant's slots.
// A token the service refused (401) is refused by the relay from then on.
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from "jose";
import type { Clock } from "../core/contract/index.js";
import { bearerToken, callerOfClaims, claimsOf, type Caller } from "./caller.js";
import { proves, tokenKey, type ProvenTokens } from "./proof.js";

export type Standing =
  | { kind: "proven"; caller: Caller }
  | { kind: "unproven" }
  /** The signature or a time claim is wrong (JWKS mode): the service would refuse it too. */
  | { kind: "refused" };

/** Signing algorithms a service's published keys can verify (never "none" or a shared secret). */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];
/** Clocks of the broker and the service may differ this much. */
const CLOCK_TOLERANCE_SECONDS = 60;
/** A key set is fetched again at most this often when a token names an unknown key. */
const JWKS_COOLDOWN_MS = 5000;
const JWKS_MAX_AGE_MS = 10 * 60 * 1000;
const JWKS_TIMEOUT_MS = 5000;

/** Longest lifetime (exp - iat) of a token the relay believes. */
const LONGEST_LIFETIME_SECONDS = 24 * 3600;

/** Errors that say the key set could not be read (the token is then neither proven nor refused). */
const KEYS_UNREADABLE = [joseErrors.JWKSTimeout, joseErrors.JWKSInvalid];

export interface KeySetOptions {
  /** The service's published signing keys. */
  jwksUrl: string;
  /** The `iss` the service writes in its access tokens. */
  issuer: string;
  /** The `aud` the service writes in its access tokens for this app. */
  audience: string;
  /** Least time between two fetches of the key set for an unknown key (default 5 s). */
  cooldownMs?: number;
}

export interface TrustOptions {
  tenantClaim: string;
  /** The service's published keys; without them tokens are proven by the service's answers alone. */
  keys?: KeySetOptions;
}

type Verified = JWTPayload | "bad" | "unverifiable";

export class TokenTrust {
  private readonly verify: ((token: string) => Promise<Verified>) | undefined;

  constructor(
    private readonly options: TrustOptions,
    private readonly proofs: ProvenTokens,
    clock: Pick<Clock, "now">,
  ) {
    this.verify = options.keys ? jwksVerifier(options.keys, clock) : undefined;
  }

  async standing(authorization: string | undefined): Promise<Standing> {
    const token = bearerToken(authorization);
    if (!token) return { kind: "unproven" };
    if (this.proofs.isWithdrawn(tokenKey(token))) return { kind: "refused" };
    if (this.verify) {
      const verified = await this.verify(token);
      if (verified === "bad") return { kind: "refused" };
      if (verified === "unverifiable") return { kind: "unproven" };
      return { kind: "proven", caller: callerOfClaims(verified, token, this.options.tenantClaim) };
    }
    if (!this.proofs.has(tokenKey(token))) return { kind: "unproven" };
    return { kind: "proven", caller: callerOfClaims(claimsOf(token), token, this.options.tenantClaim) };
  }

  /** The service answered one of the relay's operations, carrying this token, with `status`. */
  answered(authorization: string | undefined, status: number): void {
    const token = bearerToken(authorization);
    if (!token) return;
    const key = tokenKey(token);
    const exp = claimsOf(token).exp;
    const expiresAt = typeof exp === "number" && Number.isFinite(exp) ? exp : undefined;
    if (status === 401) return this.proofs.withdraw(key, expiresAt);
    // With a key set only a signature proves a token.
    if (!this.verify && proves(status)) this.proofs.add(key, expiresAt);
  }
}

function jwksVerifier(options: KeySetOptions, clock: Pick<Clock, "now">) {
  const keys = createRemoteJWKSet(new URL(options.jwksUrl), {
    cooldownDuration: options.cooldownMs ?? JWKS_COOLDOWN_MS,
    cacheMaxAge: JWKS_MAX_AGE_MS,
    timeoutDuration: JWKS_TIMEOUT_MS,
  });
  const checks = {
    algorithms: ALGORITHMS,
    issuer: options.issuer,
    audience: options.audience,
    requiredClaims: ["exp"],
    // Requires iat, and refuses one further ahead than the tolerance.
    maxTokenAge: LONGEST_LIFETIME_SECONDS,
    clockTolerance: CLOCK_TOLERANCE_SECONDS,
  };
  return async (token: string): Promise<Verified> => {
    try {
      const { payload } = await jwtVerify(token, keys, { ...checks, currentDate: new Date(clock.now()) });
      return payload.exp! - payload.iat! > LONGEST_LIFETIME_SECONDS ? "bad" : payload;
    } catch (error) {
      // The key set unreachable or unreadable: not proven (probation), not refused. Anything else
      // (a key id the set lacks even after fetching it again, a wrong signature or claim) is refused.
      const unreadable = KEYS_UNREADABLE.some((kind) => error instanceof kind) || !(error instanceof joseErrors.JOSEError);
      return unreadable ? "unverifiable" : "bad";
    }
  };
}
