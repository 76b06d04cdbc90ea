// Who a relayed request is for, read from its bearer token: the tenant whose rate limit it
// draws on, and the user, for fairness inside the tenant's queue. The broker cannot verify the
// token (the service does); the claims only choose a queue, and a forged token is refused by
// the service. Keys are hashes: no token or claim value is kept or logged.
import { createHash } from "node:crypto";

export interface Caller {
  /** Hash of the tenant claim; one shared queue for tokens without it. */
  tenant: string;
  /** Hash of the subject, or of the token when it has none. */
  user: string;
}

const digest = (text: string) => createHash("sha256").update(text).digest("base64url").slice(0, 22);

function claimsOf(token: string): Record<string, unknown> {
  const parts = token.split(".");
  if (parts.length !== 3 || !parts[1]) return {};
  try {
    const claims: unknown = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
    return claims !== null && typeof claims === "object" ? (claims as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function callerOf(authorization: string | undefined, tenantClaim: string): Caller {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1] ?? "";
  const claims = claimsOf(token);
  const tenant = claims[tenantClaim];
  const subject = claims.sub;
  return {
    tenant: typeof tenant === "string" && tenant ? digest(`tenant:${tenant}`) : "organization",
    user: typeof subject === "string" && subject ? digest(`sub:${subject}`) : digest(`token:${token}`),
  };
}
