// Bundled for the browser by production-office-dialog.test.ts: the task pane's side of sign-in
// inside Office (the real token source, Office backend and dialog opener), on a page whose
// Office.context.ui is a stand-in that opens the dialog page in a popup. Two buttons drive it:
// sign in, and call the service with the current access token (renewing it when it expired).
import { createTokenSource } from "../../src/auth/index.js";
import type { EnvironmentSettings } from "../../src/core/settings/environment.js";

const query = new URLSearchParams(location.search);
const environment = JSON.parse(query.get("environment") ?? "null") as EnvironmentSettings;
const probeUrl = query.get("probe") ?? "";
const tokens = createTokenSource(environment, "office");
const status = document.getElementById("status") as HTMLElement;

function describe(error: unknown): string {
  const user = typeof error === "object" && error !== null ? (error as { userMessage?: unknown }).userMessage : undefined;
  return typeof user === "string" ? user : error instanceof Error ? error.message : String(error);
}

document.getElementById("sign-in")?.addEventListener("click", () => {
  status.textContent = "Signing in";
  tokens.signIn().then(
    (account) => (status.textContent = `Signed in as ${account.username}`),
    (error: unknown) => (status.textContent = `Sign-in failed: ${describe(error)}`),
  );
});

document.getElementById("call")?.addEventListener("click", () => {
  status.textContent = "Calling";
  tokens
    .getAccessToken()
    .then((token) => fetch(probeUrl, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } }))
    .then(
      (response) => (status.textContent = `The service answered ${response.status}`),
      (error: unknown) => (status.textContent = `Call failed: ${describe(error)}`),
    );
});
