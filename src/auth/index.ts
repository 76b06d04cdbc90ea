// Sign-in for the add-in: one token source per shared runtime (task pane and cell functions).
import type { Clock, Logger } from "../core/api/types.js";
import type { EnvironmentSettings } from "../core/settings/environment.js";
import { createDialogOpener, type OpenDialog } from "../office/dialog.js";
import { createBrowserBackend, type MsalClient } from "./browserBackend.js";
import type { FetchLike } from "./msalConfig.js";
import { createOAuthBackend, type PopupHandle } from "./oauthBackend.js";
import { createOfficeBackend } from "./officeBackend.js";
import { createTokenSourceWith } from "./tokenSource.js";
import type { SignInBackend, TokenSource } from "./types.js";

export type { AccountChangeReason, AccountInfo, Credentials, SignInBackend, TokenSource } from "./types.js";
export { createTokenSourceWith } from "./tokenSource.js";
export { addinPageUrl, dialogUrl } from "./dialogBridge.js";

export interface TokenSourceDeps {
  /**
   * Where the add-in's pages are served: its origin, or the folder of its pages when it lives
   * under a path (dialog.html and redirect.html sit beside the task pane). Default: the folder
   * of the current page.
   */
  origin?: string;
  /** Replaces the platform's sign-in (tests). */
  backend?: SignInBackend;
  /** Office: opens the dialog (tests pass one over a fake Office.context.ui). */
  openDialog?: OpenDialog;
  /** Browser: builds the MSAL client (tests pass a fake). */
  createMsalClient?: (signIn: EnvironmentSettings["signIn"], redirectUri: string) => Promise<MsalClient>;
  fetchJson?: FetchLike;
  /** Browser, explicit-endpoint flow: opens the popup (tests). */
  openPopup?: (url: string) => PopupHandle | null;
  log?: Logger;
  /** Token times and the browser's closed-popup watch (default the system clock). */
  clock?: Clock;
}

export function createTokenSource(environment: EnvironmentSettings, platform: "office" | "browser", deps: TokenSourceDeps = {}): TokenSource {
  const clock = deps.clock ? { clock: deps.clock } : {};
  const base = deps.origin ?? (globalThis.location ? new URL(".", globalThis.location.href).href : "https://localhost:3000/");
  const backend =
    deps.backend ??
    (platform === "office"
      ? createOfficeBackend(environment.signIn, deps.openDialog ?? createDialogOpener(), base, clock)
      : environment.signIn.flow === "oauth"
        ? // Explicit endpoints without an id token: msal-browser cannot (docs/sign-in.md).
          createOAuthBackend(environment.signIn, { base, ...clock, ...(deps.openPopup ? { openPopup: deps.openPopup } : {}) })
        : createBrowserBackend(environment.signIn, {
            base,
            ...clock,
            ...(deps.createMsalClient ? { createClient: deps.createMsalClient } : {}),
            ...(deps.fetchJson ? { fetchJson: deps.fetchJson } : {}),
          }));
  return createTokenSourceWith(backend, { ...clock, ...(deps.log ? { log: deps.log } : {}) });
}
