// How the redirect page hands an answer of the explicit-endpoint flow (oauthFlow.ts) to the
// window that opened the popup: on a same-origin BroadcastChannel, keyed by the state.
// msal-browser's own answers (other states) go to its redirect bridge instead.

/** Marks the state of the explicit-endpoint flow. */
export const OAUTH_STATE_PREFIX = "bz1.";
export const OAUTH_CHANNEL = "bizdata-signin-redirect";
/**
 * Where the redirect page says, before handing msal-browser its answer, that an answer came: the
 * window then closes while msal still exchanges the code, and that close is not a cancel.
 */
export const ANSWERED_CHANNEL = "bizdata-signin-answered";

export interface RedirectMessage {
  state: string;
  /** The redirect page's address with the authorization answer (code or error) in its query. */
  url: string;
}

/** The state of an answer in a redirect address (query or fragment), when it is this flow's. */
export function oauthStateOf(href: string): string | undefined {
  const url = new URL(href);
  const state = url.searchParams.get("state") ?? new URLSearchParams(url.hash.replace(/^#/, "")).get("state");
  return state?.startsWith(OAUTH_STATE_PREFIX) ? state : undefined;
}

export function isRedirectMessage(value: unknown): value is RedirectMessage {
  return (
    value !== null && typeof value === "object" && typeof (value as RedirectMessage).state === "string" && typeof (value as RedirectMessage).url === "string"
  );
}
