// Sign-in outside Office (browser mode): msal-browser's popup for the interactive step
// (redirect.html relays the response), and the refresh token in MSAL's cache for renewal.
import {
  CacheLookupPolicy,
  InteractionRequiredAuthError,
  PublicClientApplication,
  type AccountInfo as MsalAccount,
  type AuthenticationResult,
  type IPublicClientApplication,
} from "@azure/msal-browser";
import { systemClock } from "../core/api/clock.js";
import { isServiceError } from "../core/api/errors.js";
import type { Clock } from "../core/api/types.js";
import type { SignInSettings } from "../core/settings/environment.js";
import { cancelledOnLoginForm } from "./cancel.js";
import { addinPageUrl } from "./dialogBridge.js";
import { watchNextPopup } from "./popupWatch.js";
import { signInCancelled, signInDenied, signInExpired, signInFailed } from "./errors.js";
import { credentialsOf, loadAuthorityMetadata, msalConfiguration, type FetchLike } from "./msalConfig.js";
import type { Credentials, SignInBackend } from "./types.js";

const REDIRECT_PAGE = "redirect.html";

export type MsalClient = Pick<
  IPublicClientApplication,
  "initialize" | "getAllAccounts" | "getActiveAccount" | "setActiveAccount" | "loginPopup" | "acquireTokenSilent" | "clearCache"
>;

export interface BrowserBackendDeps {
  /** The add-in's base address (an origin, or the folder its pages live in). */
  base: string;
  /** Builds the MSAL client (tests pass a fake). */
  createClient?: (signIn: SignInSettings, redirectUri: string) => Promise<MsalClient>;
  fetchJson?: FetchLike;
  /** Token expiry without one from msal, and the closed-popup watch (default the system clock). */
  clock?: Clock;
}

async function defaultClient(signIn: SignInSettings, redirectUri: string, fetchJson?: FetchLike): Promise<MsalClient> {
  const authorityMetadata = await loadAuthorityMetadata(signIn, fetchJson);
  return new PublicClientApplication(
    msalConfiguration(signIn, {
      redirectUri,
      authorityMetadata,
      cacheLocation: "sessionStorage",
      offlineAccess: true,
    }),
  );
}

/**
 * Whether MSAL's cache (this window's sessionStorage, see defaultClient) lists an account:
 * without one there is no sign-in to restore, and loading the authority's metadata would only
 * call a sign-in server that may not be there.
 */
function msalCacheHoldsAccount(): boolean {
  if (typeof sessionStorage === "undefined") return true;
  for (let i = 0; i < sessionStorage.length; i++) {
    const key = sessionStorage.key(i) ?? "";
    if (!key.startsWith("msal.") || !key.endsWith("account.keys")) continue;
    const value = sessionStorage.getItem(key);
    if (value && value !== "[]") return true;
  }
  return false;
}

function errorCode(error: unknown): string {
  return typeof error === "object" && error !== null && "errorCode" in error ? String((error as { errorCode: unknown }).errorCode) : "";
}

/** MSAL's failures of an interactive sign-in, in the user's terms. */
function interactiveError(error: unknown): Error {
  if (isServiceError(error)) return error;
  const code = errorCode(error);
  if (code === "user_cancelled") return signInCancelled("The sign-in window was closed before sign-in finished. Sign in again when you are ready.");
  if (code === "access_denied" && cancelledOnLoginForm(error)) return signInCancelled("You cancelled sign-in. Sign in again when you are ready.");
  if (code === "access_denied") {
    return signInDenied("You did not allow the add-in to use your account, so you are not signed in. To use the add-in, sign in again and choose Allow.");
  }
  if (code === "popup_window_error" || code === "empty_window_error") {
    return signInFailed("Your browser blocked the sign-in window. Allow pop-ups for this site and try again.", `MSAL: ${code}`);
  }
  if (code === "interaction_in_progress") return signInFailed("A sign-in is already in progress. Finish it first.", `MSAL: ${code}`);
  return signInFailed("Sign-in did not finish. Check your connection and try again.", `MSAL: ${code || "unknown error"}`);
}

export function createBrowserBackend(signIn: SignInSettings, deps: BrowserBackendDeps): SignInBackend {
  const scopes = signIn.scopes;
  const redirectUri = addinPageUrl(deps.base, REDIRECT_PAGE);
  const clock = deps.clock ?? systemClock;
  const toCredentials = (result: AuthenticationResult): Credentials => credentialsOf(result, clock);
  let client: Promise<MsalClient> | undefined;
  const msal = () => {
    if (!client) {
      const starting = (async () => {
        const created = await (deps.createClient ? deps.createClient(signIn, redirectUri) : defaultClient(signIn, redirectUri, deps.fetchJson));
        await created.initialize();
        return created;
      })();
      // A failed start (server unreachable) is retried on the next call.
      starting.catch(() => {
        if (client === starting) client = undefined;
      });
      client = starting;
    }
    return client;
  };

  /** A sign-in whose window was closed: msal still counts it as in progress. */
  let abandoned = false;
  const findAccount = (accounts: MsalAccount[], username?: string) => accounts.find((a) => username === undefined || a.username === username);

  return {
    async restore() {
      // Nothing signed in before: the sign-in server is not asked (it may not be running).
      if (!deps.createClient && !msalCacheHoldsAccount()) return null;
      const pca = await msal();
      const account = pca.getActiveAccount() ?? findAccount(pca.getAllAccounts());
      if (!account) return null;
      try {
        const result = await pca.acquireTokenSilent({ scopes, account, cacheLookupPolicy: CacheLookupPolicy.AccessTokenAndRefreshToken });
        return toCredentials(result);
      } catch (error) {
        // The server no longer accepts the stored sign-in (expired, or it restarted and forgot it).
        if (error instanceof InteractionRequiredAuthError || ["invalid_grant", "no_tokens_found", "refresh_token_expired"].includes(errorCode(error))) {
          throw signInExpired();
        }
        throw error;
      }
    },

    async signIn() {
      let result: AuthenticationResult;
      let pca: MsalClient;
      const watch = typeof window !== "undefined" ? watchNextPopup(window, clock) : undefined;
      try {
        pca = await msal();
        // login: always ask who signs in (after a sign-out another user may); consent: the
        // server grants offline_access (a refresh token) only after consent. After a closed
        // window msal still waits for it: the next sign-in takes over.
        const popup = pca.loginPopup({ scopes, prompt: "login consent", redirectUri, ...(abandoned ? { overrideInteractionInProgress: true } : {}) });
        popup.catch(() => undefined);
        abandoned = false;
        result = await (watch ? Promise.race([popup, watch.closed]) : popup);
      } catch (error) {
        if (isServiceError(error) && error.kind === "cancelled") abandoned = true;
        throw interactiveError(error);
      } finally {
        watch?.stop();
      }
      // Who the next page load restores.
      if (result.account) pca.setActiveAccount(result.account);
      return toCredentials(result);
    },

    async renew(current) {
      const pca = await msal();
      const account = findAccount(pca.getAllAccounts(), current.username);
      if (!account) throw signInExpired();
      try {
        // Refresh token only: no hidden iframe against a server that may refuse frames.
        const result = await pca.acquireTokenSilent({ scopes, account, forceRefresh: true, cacheLookupPolicy: CacheLookupPolicy.RefreshToken });
        return toCredentials(result);
      } catch (error) {
        if (error instanceof InteractionRequiredAuthError || ["invalid_grant", "no_tokens_found", "refresh_token_expired"].includes(errorCode(error))) {
          throw signInExpired();
        }
        throw signInFailed("Your sign-in could not be renewed. Check your connection and try again.", `MSAL: ${errorCode(error) || "unknown error"}`);
      }
    },

    async clear() {
      const pca = await msal();
      await pca.clearCache();
    },
  };
}
