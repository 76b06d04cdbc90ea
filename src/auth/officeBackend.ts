// Sign-in inside Office: every interactive step goes through the Office dialog. The dialog keeps
// no tokens (session storage of a window that closes); the task pane keeps the access token in
// memory. Renewal: with the explicit-endpoint flow (production) the dialog hands over the
// refresh token, kept in memory here and rotated through the broker; otherwise the authorization
// server's session is used through the dialog (prompt=none), since no refresh token is reachable
// from a task pane whose storage may be partitioned (Office on the web).
import type { Clock } from "../core/api/types.js";
import type { SignInSettings } from "../core/settings/environment.js";
import type { OpenDialog } from "../office/dialog.js";
import { credentialsFromDialog, dialogUrl, type DialogCredentials } from "./dialogBridge.js";
import { signInExpired } from "./errors.js";
import type { Credentials, SignInBackend } from "./types.js";

export interface OfficeBackendDeps {
  /** Renews with a refresh token (oauthFlow's refreshTokens, loaded on demand). */
  refresh?: (refreshToken: string) => Promise<{ accessToken: string; expiresAt: number; refreshToken?: string }>;
  /** Dates a renewed token's expiry (default the system clock). */
  clock?: Pick<Clock, "now">;
}

export function createOfficeBackend(signIn: SignInSettings, openDialog: OpenDialog, base: string, deps: OfficeBackendDeps = {}): SignInBackend {
  let refreshToken: string | undefined;
  const keep = (result: DialogCredentials): Credentials => {
    refreshToken = result.refreshToken;
    return { accessToken: result.accessToken, expiresAt: result.expiresAt, account: result.account };
  };
  const refresh =
    deps.refresh ??
    (async (token: string) => {
      const { refreshTokens } = await import("./oauthFlow.js");
      return refreshTokens(signIn, token, deps.clock ? { clock: deps.clock } : {});
    });
  return {
    restore: async () => null,
    signIn: async () => keep(await credentialsFromDialog(openDialog, dialogUrl(base, signIn, "signin"), "signin")),
    renew: async (account) => {
      if (signIn.flow !== "oauth") return credentialsFromDialog(openDialog, dialogUrl(base, signIn, "renew"), "renew");
      if (!refreshToken) throw signInExpired();
      const spent = refreshToken;
      refreshToken = undefined;
      const tokens = await refresh(spent);
      refreshToken = tokens.refreshToken;
      return { accessToken: tokens.accessToken, expiresAt: tokens.expiresAt, account };
    },
    clear: async () => {
      refreshToken = undefined;
    },
  };
}
