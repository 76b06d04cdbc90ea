// What the rest of the add-in sees of sign-in: one token source per shared runtime.
import type { AccessTokenRequest } from "../core/api/types.js";

/** Who is signed in (never a token). */
export interface AccountInfo {
  name: string;
  username: string;
}

export interface TokenSource {
  /** A bearer token; renews when it is about to expire or when forceRefresh is asked (after a 401). */
  getAccessToken(request?: AccessTokenRequest): Promise<string>;
  /** Interactive sign-in (popup in a browser, Office dialog in Excel). Call from a user action. */
  signIn(): Promise<AccountInfo>;
  /**
   * Forgets every cached token and account. `reason: "expired"` when the service keeps refusing
   * the sign-in (a 401 that a refresh did not fix): the sign-in screen then says it expired.
   */
  signOut(options?: { reason?: "signedOut" | "expired" }): Promise<void>;
  account(): AccountInfo | null;
  /**
   * Called when the signed-in account changes (null: signed out, or the sign-in expired and
   * could not be renewed: `reason` says which). Returns the unsubscribe.
   */
  onChange(listener: (account: AccountInfo | null, reason?: AccountChangeReason) => void): () => void;
}

export type AccountChangeReason = "signedIn" | "signedOut" | "expired" | "restored";

/** An access token and what is known about it. Lives in memory only. */
export interface Credentials {
  accessToken: string;
  /** Epoch ms. */
  expiresAt: number;
  account: AccountInfo;
}

/**
 * How a platform signs in and renews. The token source adds caching, single-flight renewal
 * and change events on top.
 */
export interface SignInBackend {
  /** Credentials from a previous session, when the platform keeps one (browser cache). */
  restore(): Promise<Credentials | null>;
  /** Interactive sign-in. */
  signIn(): Promise<Credentials>;
  /** A new access token without asking the user (refresh token, or the dialog with prompt=none). */
  renew(account: AccountInfo): Promise<Credentials>;
  /** Forget everything cached. */
  clear(): Promise<void>;
}
