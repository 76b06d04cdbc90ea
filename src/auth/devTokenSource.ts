// Sandbox only: tokens from the sandbox's development endpoint (POST /__sandbox/token) without a
// sign-in dialog, so demonstrations and browser tests run without the OAuth flow. Refuses any
// other environment. Tokens stay in memory.
import { systemClock } from "../core/api/clock.js";
import { UnauthorizedError } from "../core/api/errors.js";
import type { Clock } from "../core/api/types.js";
import { singleFlight } from "../core/api/singleFlight.js";
import type { EnvironmentSettings } from "../core/settings/environment.js";
import type { AccountChangeReason, AccountInfo, TokenSource } from "./types.js";

interface DevTokenResponse {
  access_token?: unknown;
  expires_in?: unknown;
}

const SANDBOX_ACCOUNT: AccountInfo = { name: "Sandbox user", username: "sandbox" };

export function devTokenSource(environment: EnvironmentSettings, transport: typeof fetch = fetch, clock: Pick<Clock, "now"> = systemClock): TokenSource {
  if (environment.kind !== "sandbox") throw new Error("The development token source works only with the sandbox.");
  const url = `${environment.apiBaseUrl.replace(/\/+$/, "")}/__sandbox/token`;
  let token: { value: string; expiresAt: number } | undefined;
  let signedOut = false;
  const listeners = new Set<(account: AccountInfo | null, reason?: AccountChangeReason) => void>();
  const notify = (reason: AccountChangeReason) => listeners.forEach((l) => l(signedOut ? null : SANDBOX_ACCOUNT, reason));

  const fetchToken = async (): Promise<string> => {
    let response: Response;
    try {
      response = await transport(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    } catch {
      throw new UnauthorizedError("unauthorized", { userMessage: `The sandbox at ${environment.apiBaseUrl} does not answer. Start it with npm run sandbox.` });
    }
    if (!response.ok) {
      throw new UnauthorizedError("unauthorized", { status: response.status, userMessage: "The sandbox did not give a token; is it a development sandbox?" });
    }
    const body = (await response.json()) as DevTokenResponse;
    if (typeof body.access_token !== "string") {
      throw new UnauthorizedError("unauthorized", { userMessage: "The sandbox answered without a token." });
    }
    const lifetime = typeof body.expires_in === "number" ? body.expires_in : 3600;
    token = { value: body.access_token, expiresAt: clock.now() + Math.max(10, lifetime - 30) * 1000 };
    return token.value;
  };
  // One request at a time, however many callers ask at once.
  const fetchOnce = singleFlight(fetchToken);

  return {
    getAccessToken: async (request) => {
      if (signedOut) throw new UnauthorizedError("unauthorized", { userMessage: "Sign in to use the sandbox." });
      if (!request?.forceRefresh && token && token.expiresAt > clock.now()) return token.value;
      return fetchOnce();
    },
    signIn: async () => {
      signedOut = false;
      await fetchToken();
      notify("signedIn");
      return SANDBOX_ACCOUNT;
    },
    signOut: async (options) => {
      signedOut = true;
      token = undefined;
      notify(options?.reason === "expired" ? "expired" : "signedOut");
    },
    // The sandbox's development tokens need no sign-in: signed in until the user signs out.
    account: () => (signedOut ? null : SANDBOX_ACCOUNT),
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
