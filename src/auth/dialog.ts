// dialog.html: runs the sign-in inside an Office dialog. The task pane opens it with the
// sign-in settings in the query; it redirects to the authorization server, comes back here with
// the response, and sends the result to the task pane with messageParent (a string).
// Nothing is stored except the non-secret settings, in this window's session storage.
/* global Office */
import { PublicClientApplication } from "@azure/msal-browser";
import { systemClock } from "../core/api/clock.js";
import type { SignInSettings } from "../core/settings/environment.js";
import { cancelledOnLoginForm } from "./cancel.js";
import type { DialogMode } from "./dialogBridge.js";
import { encodeDialogMessage, type DialogErrorCode, type DialogResult } from "./dialogProtocol.js";
import { credentialsOf, loadAuthorityMetadata, msalConfiguration } from "./msalConfig.js";
import type { PendingAuthorization } from "./oauthFlow.js";
import { oauthStateOf } from "./redirectProtocol.js";

const SETTINGS_KEY = "bizdata.signin.dialog.settings";
const PENDING_KEY = "bizdata.signin.dialog.pending";

interface DialogSettings {
  mode: DialogMode;
  signIn: SignInSettings;
}

function settingsFromQuery(): DialogSettings | null {
  const q = new URLSearchParams(location.search);
  const authority = q.get("authority");
  const clientId = q.get("clientId");
  if (!authority || !clientId) return null;
  const tokenEndpoint = q.get("tokenEndpoint");
  const authorizeUrl = q.get("authorizeUrl");
  return {
    mode: q.get("mode") === "renew" ? "renew" : "signin",
    signIn: {
      flow: q.get("flow") === "oauth" ? "oauth" : "oidc",
      authority,
      clientId,
      scopes: (q.get("scopes") ?? "").split(" ").filter(Boolean),
      ...(tokenEndpoint ? { tokenEndpoint } : {}),
      ...(authorizeUrl ? { authorizeUrl } : {}),
    },
  };
}

function show(text: string) {
  const status = document.getElementById("status");
  if (status) status.textContent = text;
}

function send(result: DialogResult) {
  Office.context.ui.messageParent(encodeDialogMessage(result));
}

function errorCodeOf(error: unknown): string {
  return typeof error === "object" && error !== null && "errorCode" in error ? String((error as { errorCode: unknown }).errorCode) : "";
}

function dialogError(error: unknown): DialogResult {
  // The explicit-endpoint flow's errors are ServiceErrors already (kind + userMessage).
  const kind = typeof error === "object" && error !== null && "kind" in error ? String((error as { kind: unknown }).kind) : "";
  if (kind === "cancelled") return { type: "error", code: "cancelled", description: "the sign-in was cancelled" };
  const code = errorCodeOf(error);
  if (code === "access_denied" && cancelledOnLoginForm(error)) return { type: "error", code: "cancelled", description: "the sign-in was cancelled" };
  const mapped: DialogErrorCode =
    code === "access_denied" ? "access_denied" : ["login_required", "interaction_required", "consent_required"].includes(code) ? "login_required" : "failed";
  return { type: "error", code: mapped, description: code ? `sign-in server answered ${code}` : "unexpected failure" };
}

async function run(): Promise<void> {
  const fromQuery = settingsFromQuery();
  if (fromQuery) sessionStorage.setItem(SETTINGS_KEY, JSON.stringify(fromQuery));
  const stored = sessionStorage.getItem(SETTINGS_KEY);
  if (!stored) {
    send({ type: "error", code: "failed", description: "the sign-in window was opened without settings" });
    return;
  }
  const settings = JSON.parse(stored) as DialogSettings;
  if (settings.signIn.flow === "oauth") {
    await runExplicitFlow(settings);
    return;
  }
  const redirectUri = `${location.origin}${location.pathname}`;
  const pca = new PublicClientApplication(
    msalConfiguration(settings.signIn, {
      redirectUri,
      authorityMetadata: await loadAuthorityMetadata(settings.signIn),
      cacheLocation: "sessionStorage",
      // The task pane cannot reach this window's storage: a refresh token would be stranded here.
      offlineAccess: false,
    }),
  );
  await pca.initialize();
  const result = await pca.handleRedirectPromise();
  if (result) {
    sessionStorage.removeItem(SETTINGS_KEY);
    await pca.clearCache();
    send({ type: "signedIn", ...credentialsOf(result, systemClock) });
    show("Signed in. You can close this window.");
    return;
  }
  show(settings.mode === "renew" ? "Renewing your sign-in…" : "Opening the sign-in page…");
  await pca.loginRedirect({ scopes: settings.signIn.scopes, prompt: settings.mode === "renew" ? "none" : "login", redirectUri });
}

/** Production: explicit endpoints, no id token, the broker's token endpoint (oauthFlow.ts). */
async function runExplicitFlow(settings: DialogSettings): Promise<void> {
  const { accountFromAccessToken, beginAuthorization, completeAuthorization } = await import("./oauthFlow.js");
  const redirectUri = `${location.origin}${location.pathname}`;
  const state = oauthStateOf(location.href);
  const pendingRaw = sessionStorage.getItem(PENDING_KEY);
  if (state && pendingRaw) {
    sessionStorage.removeItem(PENDING_KEY);
    sessionStorage.removeItem(SETTINGS_KEY);
    const tokens = await completeAuthorization(settings.signIn, JSON.parse(pendingRaw) as PendingAuthorization, new URL(location.href));
    send({
      type: "signedIn",
      accessToken: tokens.accessToken,
      expiresAt: tokens.expiresAt,
      account: accountFromAccessToken(tokens.accessToken, settings.signIn),
      ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
    });
    show("Signed in. You can close this window.");
    return;
  }
  show(settings.mode === "renew" ? "Renewing your sign-in…" : "Opening the sign-in page…");
  const { url, pending } = await beginAuthorization(settings.signIn, redirectUri, settings.mode === "renew" ? "none" : "login");
  // The verifier waits in this window's session storage for the answer, then is removed.
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  location.assign(url);
}

Office.onReady(() => {
  run().catch((error: unknown) => {
    sessionStorage.removeItem(SETTINGS_KEY);
    sessionStorage.removeItem(PENDING_KEY);
    show("Sign-in did not finish. Close this window and try again.");
    send(dialogError(error));
  });
});
