// The token source: keeps the current access token in memory, renews it once for all
// concurrent callers, and tells listeners when the account changes. Platform details live in
// the SignInBackend (browser popup + refresh token, or the Office dialog).
import { isServiceError } from "../core/api/errors.js";
import { systemClock } from "../core/api/clock.js";
import type { AccessTokenRequest, Clock, Logger } from "../core/api/types.js";
import { signInExpired, signInRequired } from "./errors.js";
import { singleFlight } from "../core/api/singleFlight.js";
import type { AccountChangeReason, AccountInfo, Credentials, SignInBackend, TokenSource } from "./types.js";

export interface TokenSourceOptions {
  /** When a token was obtained and whether it is still fresh (default the system clock). */
  clock?: Pick<Clock, "now">;
  log?: Logger;
  /** Renew this long before expiry at most (ms); shorter for short-lived tokens. */
  maxRenewBeforeMs?: number;
}

export function createTokenSourceWith(backend: SignInBackend, options: TokenSourceOptions = {}): TokenSource {
  const clock = options.clock ?? systemClock;
  const now = () => clock.now();
  const log: Logger = options.log ?? (() => undefined);
  const maxRenewBeforeMs = options.maxRenewBeforeMs ?? 60_000;
  const listeners = new Set<(account: AccountInfo | null, reason?: AccountChangeReason) => void>();

  let current: (Credentials & { obtainedAt: number }) | null = null;
  let restoring: Promise<void> | null = null;
  /** Bumped on sign-in and sign-out, so a renewal that finishes late cannot resurrect a session. */
  let generation = 0;

  const emit = (reason: AccountChangeReason) => {
    const account = current ? { ...current.account } : null;
    for (const listener of [...listeners]) {
      try {
        listener(account, reason);
      } catch (error) {
        // One broken listener must not stop sign-in or sign-out for the others.
        log({ level: "error", message: "An account-change listener failed", data: { error: error instanceof Error ? error.message : String(error) } });
      }
    }
  };

  const adopt = (credentials: Credentials, reason: AccountChangeReason) => {
    const changed = !current || current.account.username !== credentials.account.username;
    current = { ...credentials, obtainedAt: now() };
    if (changed) emit(reason);
  };

  const forget = (reason: AccountChangeReason) => {
    const had = current !== null;
    current = null;
    generation++;
    if (had) emit(reason);
  };

  const fresh = (c: Credentials & { obtainedAt: number }) => {
    const lifetime = Math.max(0, c.expiresAt - c.obtainedAt);
    const margin = Math.min(maxRenewBeforeMs, lifetime / 10);
    return c.expiresAt - margin > now();
  };

  const renewOnce = singleFlight(async () => {
    const started = generation;
    const account = current?.account;
    if (!account) throw signInRequired();
    let renewed: Credentials;
    try {
      renewed = await backend.renew(account);
    } catch (error) {
      const kind = isServiceError(error) ? error.kind : "unknown";
      log({ level: "warn", message: "Access token renewal failed", data: { kind, error: error instanceof Error ? error.name : typeof error } });
      // The user signed in again meanwhile: the new sign-in's token answers the waiting callers.
      if (generation !== started && current) return current.accessToken;
      if (!isServiceError(error) || error.kind === "unauthorized") {
        if (generation === started) forget("expired");
        throw isServiceError(error) ? error : signInExpired();
      }
      throw error;
    }
    if (generation !== started) {
      if (current) return current.accessToken;
      throw signInRequired();
    }
    adopt(renewed, "signedIn");
    log({ level: "debug", message: "Access token renewed", data: { expiresInS: Math.round((renewed.expiresAt - now()) / 1000) } });
    return renewed.accessToken;
  });

  const restore = () => {
    restoring ??= (async () => {
      const started = generation;
      try {
        const restored = await backend.restore();
        if (restored && generation === started && !current) {
          adopt(restored, "restored");
          log({ level: "info", message: "Sign-in restored" });
        }
      } catch (error) {
        // No usable session left from before: the user signs in again.
        log({ level: "info", message: "No previous sign-in to restore", data: { kind: isServiceError(error) ? error.kind : "unknown" } });
        // A stored sign-in the server refused (expired, or the sandbox restarted): the sign-in screen says so.
        if (isServiceError(error) && error.kind === "unauthorized" && generation === started && !current) emit("expired");
      }
    })();
    return restoring;
  };

  // Pick up a previous session at once, so the task pane shows who is signed in on load.
  void restore();

  return {
    async getAccessToken(request?: AccessTokenRequest) {
      await restore();
      if (!current) throw signInRequired();
      if (!request?.forceRefresh && fresh(current)) return current.accessToken;
      return renewOnce();
    },

    async signIn() {
      await restore();
      const credentials = await backend.signIn();
      generation++;
      const previous = current?.account.username;
      current = { ...credentials, obtainedAt: now() };
      if (previous !== credentials.account.username) emit("signedIn");
      log({ level: "info", message: "Signed in" });
      return { ...credentials.account };
    },

    async signOut(signOutOptions) {
      await restore();
      forget(signOutOptions?.reason ?? "signedOut");
      await backend.clear();
      log({ level: "info", message: "Signed out" });
    },

    account() {
      return current ? { ...current.account } : null;
    },

    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
