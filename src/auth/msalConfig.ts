// msal-browser configuration for the service's own (non-Microsoft) authorization server:
// OIDC protocol mode, the authority's host as a known authority, and its discovery document
// passed in (with the token endpoint replaced when the settings name a different one); and
// what the add-in keeps of msal's answer.
import { ProtocolMode, type AuthenticationResult, type Configuration } from "@azure/msal-browser";
import type { Clock } from "../core/api/types.js";
import type { SignInSettings } from "../core/settings/environment.js";
import { signInFailed, signInNotHere } from "./errors.js";
import type { Credentials } from "./types.js";

const OIDC_SCOPES = ["openid", "profile"];
const OFFLINE_SCOPE = "offline_access";

export interface MsalConfigOptions {
  redirectUri: string;
  /** The discovery document as a JSON string (loadAuthorityMetadata). */
  authorityMetadata: string;
  cacheLocation: "sessionStorage" | "localStorage" | "memoryStorage";
  /** Ask for a refresh token (offline_access). */
  offlineAccess: boolean;
}

export function msalConfiguration(signIn: SignInSettings, options: MsalConfigOptions): Configuration {
  return {
    auth: {
      clientId: signIn.clientId,
      authority: signIn.authority,
      knownAuthorities: [new URL(signIn.authority).host],
      authorityMetadata: options.authorityMetadata,
      redirectUri: options.redirectUri,
      OIDCOptions: { defaultScopes: options.offlineAccess ? [...OIDC_SCOPES, OFFLINE_SCOPE] : OIDC_SCOPES },
    },
    cache: { cacheLocation: options.cacheLocation },
    system: { protocolMode: ProtocolMode.OIDC },
  };
}

/** An msal answer as credentials; without an expiry, the token counts as good for 5 minutes from `clock`'s now. */
export function credentialsOf(result: AuthenticationResult, clock: Pick<Clock, "now">): Credentials {
  const account = result.account;
  return {
    accessToken: result.accessToken,
    expiresAt: result.expiresOn ? result.expiresOn.getTime() : clock.now() + 5 * 60_000,
    account: { name: account?.name || account?.username || "", username: account?.username ?? "" },
  };
}

export type FetchLike = (url: string) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

/** The authority's discovery document, with token_endpoint from the settings when given. */
export async function loadAuthorityMetadata(signIn: SignInSettings, fetchJson: FetchLike = (u) => fetch(u)): Promise<string> {
  const url = `${signIn.authority.replace(/\/+$/, "")}/.well-known/openid-configuration`;
  let document: unknown;
  let status: number | undefined;
  try {
    const response = await fetchJson(url);
    status = response.status;
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    document = await response.json();
  } catch (error) {
    // A server that answers "not found" is there, but it is not this environment's sign-in.
    if (status === 404) throw signInNotHere(new URL(signIn.authority).host);
    throw signInFailed(
      `The sign-in server ${new URL(signIn.authority).host} could not be reached. Check your connection and the sign-in authority in Settings.`,
      `Discovery failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (typeof document !== "object" || document === null || typeof (document as { authorization_endpoint?: unknown }).authorization_endpoint !== "string") {
    throw signInFailed("The sign-in server's configuration could not be read. Check the sign-in authority in Settings.", "Bad discovery document");
  }
  const metadata = { ...(document as Record<string, unknown>) };
  if (signIn.tokenEndpoint) metadata.token_endpoint = signIn.tokenEndpoint;
  return JSON.stringify(metadata);
}
