// Verifying access tokens (jose, RS256, issuer, audience, expiry) and minting dev tokens.
import { SignJWT, createLocalJWKSet, importJWK, jwtVerify, errors as joseErrors, type JWTPayload } from "jose";
import { DATA_ROLES, ENTITLEMENT_SCOPES, ERROR_CODES, INSIGHTS_SCOPE, SCOPES } from "../core/contract/index.js";
import { sandboxClock, type Clock, type SigningKeys, type TokenPrincipal } from "./context.js";
import { ApiError } from "./errors.js";
import { ALL_ROLES } from "./plan/roles.js";

export const DEFAULT_API_AUDIENCE = "bizdata-api";
const DEFAULT_ACCOUNT = "default";
/** The longest an access token may live (24 h): a leaked one is not usable for longer. */
export const MAX_ACCESS_TOKEN_LIFETIME_SECONDS = 24 * 3600;
const ALL_DATA_SCOPES = [
  SCOPES.company,
  SCOPES.contact,
  SCOPES.lookup,
  SCOPES.intent,
  SCOPES.news,
  SCOPES.scoops,
  SCOPES.accountSummary,
  SCOPES.recommendations,
  // What the plan allows, and insights (docs/entitlements.md).
  ENTITLEMENT_SCOPES[0],
  INSIGHTS_SCOPE,
];

/** 401: no usable token. The detail never repeats the token. */
export function unauthorized(detail: string): ApiError {
  return new ApiError(401, ERROR_CODES.unauthorized, detail, { header: "Authorization" });
}
function forbidden(detail: string): ApiError {
  return new ApiError(403, ERROR_CODES.forbidden, detail);
}

interface CachedPrincipal {
  principal: TokenPrincipal;
  expiresAtMs: number;
}

export interface Authenticator {
  authenticate(authorization: string | undefined): Promise<TokenPrincipal>;
}

/**
 * Verifies bearer tokens against the key set and issuers as they are at call time (features
 * may add keys or issuers). Verified tokens are remembered until they expire, which keeps a
 * signature check off the hot path of every request.
 */
export function createAuthenticator(keys: SigningKeys, trustedIssuers: () => string[], audience: () => string, clock: Clock = sandboxClock): Authenticator {
  let keySetFor: unknown = undefined;
  let keySet = createLocalJWKSet(keys.publicJwks);
  const cache = new Map<string, CachedPrincipal>();

  return {
    async authenticate(authorization) {
      if (!authorization) throw unauthorized("Sign in first: the request has no Authorization header.");
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      if (!match) throw unauthorized('The Authorization header must be "Bearer" followed by an access token.');
      const token = match[1]!;
      const now = clock.now();
      const cached = cache.get(token);
      let principal: TokenPrincipal;
      if (cached && cached.expiresAtMs > now) {
        principal = cached.principal;
      } else {
        if (keySetFor !== JSON.stringify(keys.publicJwks.keys.map((k) => k.kid))) {
          keySet = createLocalJWKSet(keys.publicJwks);
          keySetFor = JSON.stringify(keys.publicJwks.keys.map((k) => k.kid));
        }
        let payload: JWTPayload;
        try {
          ({ payload } = await jwtVerify(token, keySet, {
            issuer: trustedIssuers(),
            audience: audience(),
            algorithms: ["RS256"],
            currentDate: new Date(now),
            requiredClaims: ["exp"],
          }));
        } catch (error) {
          throw unauthorized(describeTokenError(error));
        }
        principal = principalOf(payload, now);
        if (cache.size > 5000) cache.clear();
        cache.set(token, { principal, expiresAtMs: (payload.exp ?? 0) * 1000 });
      }
      if (!principal.roles.some((r) => (DATA_ROLES as readonly string[]).includes(r))) {
        throw forbidden(`Your account is missing the role ${DATA_ROLES.join(" or ")} needed for the data API.`);
      }
      return principal;
    },
  };
}

function describeTokenError(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return "Your sign-in has expired: the access token is past its expiry time.";
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    // A token that never expires would stay usable forever if it leaked.
    if (error.claim === "exp" && error.reason === "missing") return "The access token has no expiry time (exp); sign in again for a token that expires.";
    if (error.claim === "iss") return "The access token was issued by a server this service does not trust.";
    if (error.claim === "aud") return "The access token is not meant for this service (wrong audience).";
    return `The access token has an invalid "${error.claim}" claim.`;
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed || error instanceof joseErrors.JWKSNoMatchingKey) {
    return "The access token's signature could not be verified.";
  }
  return "The access token is not valid.";
}

/** The token's principal; a token naming no account, or living longer than the cap, is refused. */
function principalOf(payload: JWTPayload, nowMs: number): TokenPrincipal {
  // The lifetime counts from now when the token claims to be issued later: a future iat with a
  // long exp would otherwise pass the cap.
  const nowSeconds = Math.floor(nowMs / 1000);
  const issuedAt = typeof payload.iat === "number" ? Math.min(payload.iat, nowSeconds) : nowSeconds;
  if ((payload.exp ?? 0) - issuedAt > MAX_ACCESS_TOKEN_LIFETIME_SECONDS) {
    throw unauthorized("The access token lives longer than 24 hours; sign in again for a token that expires sooner.");
  }
  // Without an account the token cannot say whose credits and audiences it reaches.
  if (typeof payload.account !== "string" || payload.account === "") throw unauthorized("The access token names no account; sign in again.");
  const scopeClaim = payload.scope;
  const scopes = typeof scopeClaim === "string" ? scopeClaim.split(/\s+/).filter(Boolean) : Array.isArray(scopeClaim) ? scopeClaim.map(String) : [];
  const rolesClaim = payload.roles;
  const roles = Array.isArray(rolesClaim) ? rolesClaim.map(String) : typeof rolesClaim === "string" ? rolesClaim.split(/\s+/).filter(Boolean) : [];
  return { subject: typeof payload.sub === "string" ? payload.sub : "unknown", account: payload.account, scopes, roles };
}

/** 403 unless the principal holds one of the scopes (none: nothing to hold); the refusal names the first. */
export function requireAnyScope(principal: TokenPrincipal, scopes: readonly string[]): void {
  if (scopes.length > 0 && !scopes.some((scope) => principal.scopes.includes(scope))) requireScope(principal, scopes[0]!);
}

/** 403 unless the principal holds the scope. */
export function requireScope(principal: TokenPrincipal, scope: string): void {
  if (!principal.scopes.includes(scope)) {
    throw forbidden(`Your access does not include the scope ${scope} needed for this operation.`);
  }
}

interface DevTokenRequest {
  scopes?: string[];
  roles?: string[];
  account?: string;
  subject?: string;
  expiresIn?: number;
}

export async function mintDevToken(
  keys: SigningKeys,
  issuer: string,
  audience: string,
  request: DevTokenRequest,
  clock: Clock = sandboxClock,
): Promise<{ token: string; expiresIn: number }> {
  const expiresIn = request.expiresIn ?? 3600;
  if (expiresIn > MAX_ACCESS_TOKEN_LIFETIME_SECONDS) throw new RangeError(`A development token lives at most ${MAX_ACCESS_TOKEN_LIFETIME_SECONDS} s.`);
  const key = await importJWK(keys.privateJwk, "RS256");
  const now = Math.floor(clock.now() / 1000);
  const token = await new SignJWT({
    scope: (request.scopes ?? ALL_DATA_SCOPES).join(" "),
    // Every role unless the token asks for fewer (a plan without intent, research or insights).
    roles: request.roles ?? [...ALL_ROLES],
    account: request.account ?? DEFAULT_ACCOUNT,
  })
    .setProtectedHeader({ alg: "RS256", kid: keys.privateJwk.kid, typ: "at+jwt" })
    .setIssuer(issuer)
    .setAudience(audience)
    .setSubject(request.subject ?? `dev-user@${request.account ?? DEFAULT_ACCOUNT}`)
    .setIssuedAt(now)
    .setExpirationTime(now + expiresIn)
    .setJti(crypto.randomUUID())
    .sign(key);
  return { token, expiresIn };
}
