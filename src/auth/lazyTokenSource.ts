// A token source whose implementation loads on demand (the sign-in library is large, so it is
// not in the first bundle): calls wait for it, account events pass through.
import type { EnvironmentSettings } from "../core/settings/environment.js";
import type { AccountChangeReason, AccountInfo, TokenSource } from "./types.js";

type AccountListener = (account: AccountInfo | null, reason?: AccountChangeReason) => void;

export function lazyTokenSource(load: () => Promise<TokenSource>): TokenSource {
  let source: TokenSource | undefined;
  const listeners = new Set<AccountListener>();
  const ready = load().then((loaded) => {
    source = loaded;
    loaded.onChange((account, reason) => listeners.forEach((l) => l(account, reason)));
    const account = loaded.account();
    if (account) listeners.forEach((l) => l(account, "restored"));
    return loaded;
  });
  // A failed load is reported by the first call that needs the source, not here.
  ready.catch(() => undefined);
  return {
    getAccessToken: async (request) => (await ready).getAccessToken(request),
    signIn: async () => (await ready).signIn(),
    signOut: async (options) => (await ready).signOut(options),
    account: () => source?.account() ?? null,
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The real sign-in (OAuth code flow with PKCE) for the platform the page runs on, loaded with import(). */
export function signInTokenSource(platform: "office" | "browser"): (environment: EnvironmentSettings) => TokenSource {
  return (environment) => lazyTokenSource(() => import("./index.js").then((m) => m.createTokenSource(environment, platform)));
}
