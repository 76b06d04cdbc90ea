// What a consent gives: the OpenID scopes and claims the sign-in asked for, and of the API
// scopes asked for only those the user holds (the rest are refused, so the token lacks them).
// Shared by the sandbox's sign-in server and the production twin's.
import type Provider from "oidc-provider";

type Grant = InstanceType<Provider["Grant"]>;

interface MissingGrants {
  missingOIDCScope?: string[];
  missingOIDCClaims?: string[];
  missingResourceScopes?: Record<string, string[]>;
}

/** Adds to `grant` what the interaction's prompt says is missing, limited to `userScopes`. */
export function grantAsked(grant: Grant, details: unknown, userScopes: readonly string[]): void {
  const missing = details as MissingGrants;
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    const allowed = scopes.filter((s) => userScopes.includes(s));
    const refused = scopes.filter((s) => !userScopes.includes(s));
    if (allowed.length > 0) grant.addResourceScope(resource, allowed.join(" "));
    if (refused.length > 0) grant.rejectResourceScope(resource, refused.join(" "));
  }
}
