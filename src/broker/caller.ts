// Who a relayed request is for, read from its bearer token: the tenant whose rate limit it
// draws on, and the user, for fairness inside the tenant's queue. The claims are trusted only
// once the token is proven (trust.ts): its signature verified against the service's keys, or
// the service having accepted it. Keys are hashes: no token or claim value is kept or logged.
import { createHash } from "node:crypto";

export interface Caller {
  /** Hash of the tenant claim; one shared queue for tokens without it. */
  tenant: string;
  /** Hash of the subject, or of the token when it has none. */
  user: string;
}

const digest = (text: string) => createHash("sha256").update(text).digest("base64url").slice(0, 22);

/** The bearer token of an Authorization header ("" when there is none). */
export function bearerToken(authorization: string | undefined): string {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1] ?? "";
}

/** The token's claims as written, unverified ({} for a token that is not a JWT). */
export function claimsOf(token: string): Record<string, unknown> {
  const parts = token.split(".");
  if (parts.length !== 3 || !parts[1]) return {};
  try {
    const claims: unknown = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
    return claims !== null && typeof claims === "object" ? (claims as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The caller named by claims that are known to be the service's own. */
export function callerOfClaims(claims: Record<string, unknown>, token: string, tenantClaim: string): Caller {
  const tenant = claims[tenantClaim];
  const subject = claims.sub;
  return {
    tenant: typeof tenant === "string" && tenant ? digest(`tenant:${tenant}`) : "organization",
    user: typeof subject === "string" && subject ? digest(`sub:${subject}`) : digest(`token:${token}`),
  };
}
