// Sign-in with explicit endpoints (production) outside Office: the authorize page in a popup,
// its answer relayed by redirect.html on a same-origin channel, the code exchanged and every
// renewal made through the organization's broker. The refresh token rotates (each one works
// once: the token source's single flight keeps two renewals from overlapping) and is kept in
// this window's session storage, like msal-browser keeps its cache, so a reload restores.
import type { Clock } from "../core/api/types.js";
import type { SignInSettings } from "../core/settings/environment.js";
import { addinPageUrl } from "./dialogBridge.js";
import { signInExpired, signInFailed } from "./errors.js";
import { accountFromAccessToken, beginAuthorization, completeAuthorization, refreshTokens, type FlowOptions, type TokenSet } from "./oauthFlow.js";
import { watchClosed } from "./popupWatch.js";
import { isRedirectMessage, OAUTH_CHANNEL } from "./redirectProtocol.js";
import type { AccountInfo, Credentials, SignInBackend } from "./types.js";

const REDIRECT_PAGE = "redirect.html";
const SESSION_KEY = "bizdata.signin.session";

/** The popup window, as far as the backend needs it. */
export interface PopupHandle {
  readonly closed: boolean;
  close(): void;
}

export interface SessionStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface OAuthBackendDeps extends FlowOptions {
  /** The add-in's base address (its pages live there). */
  base: string;
  /** Opens the popup (default window.open); null when the browser blocked it. */
  openPopup?: (url: string) => PopupHandle | null;
  /** Token expiry dates and the closed-popup watch (default the system clock). */
  clock?: Clock;
  /** Where the refresh token lives between page loads (default sessionStorage). */
  session?: SessionStore;
}

interface StoredSession {
  refreshToken: string;
  account: AccountInfo;
}

function memoryStore(): SessionStore {
  const map = new Map<string, string>();
  return { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
}

function defaultPopup(url: string): PopupHandle | null {
  const width = 520;
  const height = 640;
  const left = Math.max(0, window.screenX + (window.outerWidth - width) / 2);
  const top = Math.max(0, window.screenY + (window.outerHeight - height) / 2);
  return window.open(url, "bizdata-signin", `popup=yes,width=${width},height=${height},left=${left},top=${top}`);
}

/** Waits for the redirect page's answer for `state`, or for the user to close the popup. */
function answerFor(state: string, popup: PopupHandle, clock: Clock | undefined): Promise<URL> {
  const channel = new BroadcastChannel(OAUTH_CHANNEL);
  const watch = watchClosed(() => popup, clock);
  const answered = new Promise<URL>((resolve) => {
    channel.onmessage = (event: MessageEvent<unknown>) => {
      if (isRedirectMessage(event.data) && event.data.state === state) resolve(new URL(event.data.url));
    };
  });
  return Promise.race([answered, watch.closed]).finally(() => {
    watch.stop();
    channel.close();
  });
}

export function createOAuthBackend(signIn: SignInSettings, deps: OAuthBackendDeps): SignInBackend {
  const redirectUri = addinPageUrl(deps.base, REDIRECT_PAGE);
  const session = deps.session ?? (typeof sessionStorage !== "undefined" ? sessionStorage : memoryStore());
  const flow: FlowOptions = { ...(deps.fetch ? { fetch: deps.fetch } : {}), ...(deps.clock ? { clock: deps.clock } : {}) };

  const stored = (): StoredSession | null => {
    const raw = session.getItem(SESSION_KEY);
    if (!raw) return null;
    try {
      const value = JSON.parse(raw) as StoredSession;
      return typeof value.refreshToken === "string" && typeof value.account?.username === "string" ? value : null;
    } catch {
      return null;
    }
  };

  const adopt = (tokens: TokenSet, account: AccountInfo): Credentials => {
    if (tokens.refreshToken) session.setItem(SESSION_KEY, JSON.stringify({ refreshToken: tokens.refreshToken, account }));
    else session.removeItem(SESSION_KEY);
    return { accessToken: tokens.accessToken, expiresAt: tokens.expiresAt, account };
  };

  const renewFrom = async (saved: StoredSession | null): Promise<Credentials> => {
    if (!saved) throw signInExpired();
    try {
      const tokens = await refreshTokens(signIn, saved.refreshToken, flow);
      return adopt(tokens, saved.account);
    } catch (error) {
      // A refused refresh token is spent: forget it.
      if (error instanceof Error && "kind" in error && error.kind === "unauthorized") session.removeItem(SESSION_KEY);
      throw error;
    }
  };

  return {
    async restore() {
      const saved = stored();
      return saved ? renewFrom(saved) : null;
    },

    async signIn() {
      const { url, pending } = await beginAuthorization(signIn, redirectUri, "login");
      const popup = (deps.openPopup ?? defaultPopup)(url);
      if (!popup) throw signInFailed("Your browser blocked the sign-in window. Allow pop-ups for this site and try again.", "popup blocked");
      const answer = await answerFor(pending.state, popup, deps.clock);
      popup.close();
      const tokens = await completeAuthorization(signIn, pending, answer, flow);
      return adopt(tokens, accountFromAccessToken(tokens.accessToken, signIn));
    },

    renew: async () => renewFrom(stored()),

    async clear() {
      session.removeItem(SESSION_KEY);
    },
  };
}
