// Sign-in inside Office: opens dialog.html (beside the task pane) through the Office dialog,
// and turns what comes back into credentials or an error the user understands.
import { serviceError } from "../core/api/errors.js";
import type { SignInSettings } from "../core/settings/environment.js";
import type { OpenDialog } from "../office/dialog.js";
import { MalformedDialogMessage, parseDialogMessage } from "./dialogProtocol.js";
import { dialogFailed, signInCancelled, signInDenied, signInExpired, signInFailed, signInWindowClosed } from "./errors.js";
import type { Credentials } from "./types.js";

/** signin: the user signs in (prompt=login); renew: only an existing session is used (prompt=none). */
export type DialogMode = "signin" | "renew";

const DIALOG_PAGE = "dialog.html";

/** A page of the add-in, given its base address (an origin, or the folder its pages live in). */
export function addinPageUrl(base: string, page: string): string {
  return new URL(page, base.endsWith("/") ? base : `${base}/`).href;
}

/** The dialog page's address; it carries the (non-secret) sign-in settings, since the dialog shares no storage with the task pane. */
export function dialogUrl(base: string, signIn: SignInSettings, mode: DialogMode): string {
  const params = new URLSearchParams({
    mode,
    authority: signIn.authority,
    clientId: signIn.clientId,
    scopes: signIn.scopes.join(" "),
  });
  if (signIn.tokenEndpoint) params.set("tokenEndpoint", signIn.tokenEndpoint);
  if (signIn.flow) params.set("flow", signIn.flow);
  if (signIn.authorizeUrl) params.set("authorizeUrl", signIn.authorizeUrl);
  return `${addinPageUrl(base, DIALOG_PAGE)}?${params}`;
}

/** Credentials, and the explicit-endpoint flow's refresh token when the dialog passed one. */
export type DialogCredentials = Credentials & { refreshToken?: string };

export async function credentialsFromDialog(open: OpenDialog, url: string, mode: DialogMode): Promise<DialogCredentials> {
  const outcome = await open(url);
  if (outcome.kind === "closed") throw mode === "renew" ? signInExpired() : signInWindowClosed();
  if (outcome.kind === "failed") throw dialogFailed(outcome.code);
  let result;
  try {
    result = parseDialogMessage(outcome.message);
  } catch (error) {
    if (error instanceof MalformedDialogMessage) {
      throw serviceError("invalidResponse", {
        userMessage: "The sign-in window sent an answer the add-in does not understand. Try signing in again.",
        message: error.message,
      });
    }
    throw error;
  }
  if (result.type === "signedIn") {
    return {
      accessToken: result.accessToken,
      expiresAt: result.expiresAt,
      account: result.account,
      ...(result.refreshToken ? { refreshToken: result.refreshToken } : {}),
    };
  }
  switch (result.code) {
    case "access_denied":
      throw signInDenied("You did not allow the add-in to use your account, so you are not signed in. To use the add-in, sign in again and choose Allow.");
    case "login_required":
      throw signInExpired();
    case "cancelled":
      throw signInCancelled("You cancelled sign-in. Sign in again when you are ready.");
    default:
      throw signInFailed(`Sign-in did not finish${result.description ? `: ${result.description}` : "."} Try again.`, "The sign-in dialog reported a failure");
  }
}
