// The authorization-code flow with PKCE against explicit endpoints (production): nothing is
// discovered, no scope is asked unless the settings name some, no id token is expected, and the
// token requests go to the organization's broker, which adds the client credentials. PKCE,
// state and the token requests are oauth4webapi's (msal-browser cannot do this: docs/sign-in.md).
import * as oauth from "oauth4webapi";
import { systemClock } from "../core/api/clock.js";
import type { Clock } from "../core/api/types.js";
import type { SignInSettings } from "../core/settings/environment.js";
import { OAUTH_STATE_PREFIX } from "./redirectProtocol.js";
import { signInCancelled, signInDenied, signInExpired, signInFailed, signInNotHere } from "./errors.js";
import type { AccountInfo } from "./types.js";

export interface PendingAuthorization {
  state: string;
  codeVerifier: string;
  redirectUri: string;
}

export interface TokenSet {
  accessToken: string;
  /** Epoch ms. */
  expiresAt: number;
  /** Rotates: each one works once, and the newest replaces it. */
  refreshToken?: string;
}

export interface FlowOptions {
  fetch?: typeof fetch;
  /** Dates the tokens' expiry (default the system clock). */
  clock?: Pick<Clock, "now">;
}

interface ExplicitEndpoints {
  authorizeUrl: string;
  tokenEndpoint: string;
}

function endpoints(signIn: SignInSettings): ExplicitEndpoints {
  if (!signIn.authorizeUrl || !signIn.tokenEndpoint) {
    throw signInFailed("Sign-in is not set up: the sign-in address or the token broker address is missing in Settings.", "oauth flow without endpoints");
  }
  return { authorizeUrl: signIn.authorizeUrl, tokenEndpoint: signIn.tokenEndpoint };
}

function server(signIn: SignInSettings): oauth.AuthorizationServer {
  const e = endpoints(signIn);
  return { issuer: signIn.authority, authorization_endpoint: e.authorizeUrl, token_endpoint: e.tokenEndpoint };
}

/** Plain http only to a loopback host (local tests and the sandbox over --http). */
function isLoopbackHttp(url: string): boolean {
  const u = new URL(url);
  return u.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(u.hostname);
}

function requestOptions(signIn: SignInSettings, options: FlowOptions): oauth.TokenEndpointRequestOptions {
  return {
    ...(options.fetch ? { [oauth.customFetch]: options.fetch } : {}),
    ...(isLoopbackHttp(endpoints(signIn).tokenEndpoint) ? { [oauth.allowInsecureRequests]: true } : {}),
  };
}

/** The authorize address to open, and what the answer is checked and exchanged with. */
export async function beginAuthorization(
  signIn: SignInSettings,
  redirectUri: string,
  prompt?: "login" | "none",
): Promise<{ url: string; pending: PendingAuthorization }> {
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = `${OAUTH_STATE_PREFIX}${oauth.generateRandomState()}`;
  const url = new URL(endpoints(signIn).authorizeUrl);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", signIn.clientId);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", state);
  // No scope by default: the service then grants every scope of the app, while asking for one
  // the app lacks would fail the whole request.
  if (signIn.scopes.length > 0) url.searchParams.set("scope", signIn.scopes.join(" "));
  if (prompt) url.searchParams.set("prompt", prompt);
  return { url: url.href, pending: { state, codeVerifier, redirectUri } };
}

function tokenSet(answer: oauth.TokenEndpointResponse, now: number): TokenSet {
  const lifetime = typeof answer.expires_in === "number" && answer.expires_in > 0 ? answer.expires_in : 300;
  return {
    accessToken: answer.access_token,
    expiresAt: now + lifetime * 1000,
    ...(typeof answer.refresh_token === "string" && answer.refresh_token !== "" ? { refreshToken: answer.refresh_token } : {}),
  };
}

/** The answer the authorization server sent back (the redirect page's address) exchanged for tokens. */
export async function completeAuthorization(
  signIn: SignInSettings,
  pending: PendingAuthorization,
  callback: URL | URLSearchParams,
  options: FlowOptions = {},
): Promise<TokenSet> {
  const as = server(signIn);
  const client: oauth.Client = { client_id: signIn.clientId };
  try {
    const params = oauth.validateAuthResponse(as, client, callback, pending.state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      pending.redirectUri,
      pending.codeVerifier,
      requestOptions(signIn, options),
    );
    const answer = await oauth.processAuthorizationCodeResponse(as, client, response);
    return tokenSet(answer, (options.clock ?? systemClock).now());
  } catch (error) {
    throw flowError(error, signIn, "signin");
  }
}

/** A new access token (and the next refresh token) through the broker. */
export async function refreshTokens(signIn: SignInSettings, refreshToken: string, options: FlowOptions = {}): Promise<TokenSet> {
  const as = server(signIn);
  const client: oauth.Client = { client_id: signIn.clientId };
  try {
    const response = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, requestOptions(signIn, options));
    const answer = await oauth.processRefreshTokenResponse(as, client, response);
    return tokenSet(answer, (options.clock ?? systemClock).now());
  } catch (error) {
    throw flowError(error, signIn, "renew");
  }
}

/** oauth4webapi's failures in the user's terms (never quoting a code, verifier or token). */
export function flowError(error: unknown, signIn: SignInSettings, step: "signin" | "renew"): Error {
  const broker = (() => {
    try {
      return new URL(signIn.tokenEndpoint ?? "").host;
    } catch {
      return "the token broker";
    }
  })();
  if (answeredNotFound(error)) return signInNotHere(broker);
  if (error instanceof oauth.AuthorizationResponseError) {
    const description = error.error_description ?? "";
    if (error.error === "access_denied" && /abort|cancel/i.test(description)) {
      return signInCancelled("You cancelled sign-in. Sign in again when you are ready.");
    }
    if (error.error === "access_denied") {
      return signInDenied("You did not allow the add-in to use your account, so you are not signed in. To use the add-in, sign in again and choose Allow.");
    }
    if (["login_required", "interaction_required", "consent_required"].includes(error.error)) return signInExpired();
    return signInFailed("The sign-in server refused the sign-in. Try again; if it keeps happening, tell your administrator.", `authorize: ${error.error}`);
  }
  if (error instanceof oauth.ResponseBodyError) {
    if (error.error === "invalid_grant") {
      return step === "renew" ? signInExpired() : signInFailed("The sign-in took too long or was used twice. Sign in again.", "token: invalid_grant");
    }
    if (error.error === "invalid_client" || error.status === 401) return brokerRefused(broker);
    return signInFailed(`Sign-in did not finish: the token broker answered "${error.error}". Try again.`, `token: ${error.error} (${error.status})`);
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) return brokerRefused(broker);
  if (error instanceof oauth.OperationProcessingError) {
    return signInFailed(
      "The token broker sent an answer the add-in does not understand. Tell your administrator.",
      `token: ${error.code ?? "unexpected answer"}`,
    );
  }
  if (error instanceof TypeError) {
    return signInFailed(
      `The token broker at ${broker} could not be reached. Check your connection and the token broker address in Settings.`,
      "token: network",
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}

/** The token endpoint answered 404 (an address of another environment). */
function answeredNotFound(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { status, cause } = error as { status?: unknown; cause?: unknown };
  const causeStatus = typeof cause === "object" && cause !== null ? (cause as { status?: unknown }).status : undefined;
  return status === 404 || causeStatus === 404;
}

function brokerRefused(broker: string): Error {
  return signInFailed(
    `Your organization's token broker (${broker}) was refused by the service: its client id or secret is wrong. Tell your administrator.`,
    "token: invalid_client",
  );
}

/**
 * Who is signed in, for display and for keeping each user's data apart. There is no id token:
 * the access token's claims are read when it is a JWT (not verified: the service verifies it),
 * otherwise the account is named after the client id and the sign-in server.
 */
export function accountFromAccessToken(accessToken: string, signIn: SignInSettings): AccountInfo {
  const payload = accessToken.split(".")[1];
  if (payload) {
    try {
      const text = atob(
        payload
          .replace(/-/g, "+")
          .replace(/_/g, "/")
          .padEnd(Math.ceil(payload.length / 4) * 4, "="),
      );
      const claims = JSON.parse(text) as Record<string, unknown>;
      const pick = (...names: string[]) => names.map((n) => claims[n]).find((v): v is string => typeof v === "string" && v !== "");
      const username = pick("email", "preferred_username", "username", "sub");
      if (username) return { name: pick("name") ?? username, username };
    } catch {
      // Not a JWT: fall through.
    }
  }
  return { name: "", username: `${signIn.clientId}@${new URL(signIn.authority).host}` };
}
