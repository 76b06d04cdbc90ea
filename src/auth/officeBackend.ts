// Sign-in inside Office: every interactive step and every renewal goes through the Office
// dialog. The dialog keeps no tokens (session storage of a window that closes); the task pane
// keeps the access token in memory. Renewal uses the authorization server's session
// (prompt=none): no refresh token is ever reachable from a task pane whose storage may be
// partitioned (Office on the web).
import type { SignInSettings } from "../core/settings/environment.js";
import type { OpenDialog } from "../office/dialog.js";
import { credentialsFromDialog, dialogUrl } from "./dialogBridge.js";
import type { SignInBackend } from "./types.js";

export function createOfficeBackend(signIn: SignInSettings, openDialog: OpenDialog, base: string): SignInBackend {
  return {
    restore: async () => null,
    signIn: () => credentialsFromDialog(openDialog, dialogUrl(base, signIn, "signin"), "signin"),
    renew: () => credentialsFromDialog(openDialog, dialogUrl(base, signIn, "renew"), "renew"),
    clear: async () => undefined,
  };
}
