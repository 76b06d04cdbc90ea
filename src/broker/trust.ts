// Whose slots a relayed request may take. A token's tenant claim chooses the queue it waits in,
// so the claim must be the service's own before it counts: either the token's signature is
// verified against the service's published keys (a JWKS address, cached by jose and fetched
// again when a token names a key it has not seen, so key rotation is followed), or the service
// has accepted the token once (proof.ts). Until then a request is "unproven" and goes through
// the per-address probation lane (probation.ts) without taking any tenant's slots.
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

/** Errors that say the token is bad, not that the keys could not be read. */
const BAD_TOKEN = [
  joseErrors.JWSSignatureVerificationFailed,
  joseErrors.JWTExpired,
  joseErrors.JWTClaimValidationFailed,
  joseErrors.JOSEAlgNotAllowed,
  joseErrors.JOSENotSupported,
  joseErrors.JWSInvalid,
  joseErrors.JWTInvalid,
];

export interface TrustOptions {
  tenantClaim: string;
  /** The service's published signing keys; without it tokens are proven by the service's answers alone. */
  jwksUrl?: string;
  /** Least time between two fetches of the key set for an unknown key (default 5 s). */
  jwksCooldownMs?: number;
}

export class TokenTrust {
  private readonly verify: ((token: string) => Promise<JWTPayload | "bad" | "unverifiable">) | undefined;

  constructor(
    private readonly options: TrustOptions,
    private readonly proofs: ProvenTokens,
    clock: Pick<Clock, "now">,
  ) {
    this.verify = options.jwksUrl ? jwksVerifier(options.jwksUrl, options.jwksCooldownMs ?? JWKS_COOLDOWN_MS, clock) : undefined;
  }

  async standing(authorization: string | undefined): Promise<Standing> {
    const token = bearerToken(authorization);
    if (!token) return { kind: "unproven" };
    const verified = this.verify ? await this.verify(token) : "unverifiable";
    if (verified === "bad") return { kind: "refused" };
    if (verified !== "unverifiable") return { kind: "proven", caller: callerOfClaims(verified, token, this.options.tenantClaim) };
    if (!this.proofs.has(tokenKey(token))) return { kind: "unproven" };
    return { kind: "proven", caller: callerOfClaims(claimsOf(token), token, this.options.tenantClaim) };
  }

  /** The service answered a request carrying this token with `status`. */
  answered(authorization: string | undefined, status: number): void {
    const token = bearerToken(authorization);
    if (!token) return;
    const key = tokenKey(token);
    if (status === 401) return this.proofs.forget(key);
    if (!proves(status)) return;
    const exp = claimsOf(token).exp;
    this.proofs.add(key, typeof exp === "number" && Number.isFinite(exp) ? exp : undefined);
  }
}

function jwksVerifier(jwksUrl: string, cooldownMs: number, clock: Pick<Clock, "now">) {
  const keys = createRemoteJWKSet(new URL(jwksUrl), { cooldownDuration: cooldownMs, cacheMaxAge: JWKS_MAX_AGE_MS, timeoutDuration: JWKS_TIMEOUT_MS });
  return async (token: string): Promise<JWTPayload | "bad" | "unverifiable"> => {
    try {
      const { payload } = await jwtVerify(token, keys, { algorithms: ALGORITHMS, currentDate: new Date(clock.now()), clockTolerance: CLOCK_TOLERANCE_SECONDS });
      return payload;
    } catch (error) {
      // An unknown key (a rotation not yet published, the key set unreachable): the service decides.
      return BAD_TOKEN.some((kind) => error instanceof kind) ? "bad" : "unverifiable";
    }
  };
}
