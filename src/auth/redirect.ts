// redirect.html: where the authorization server sends the sign-in popup back. It hands the
// response to the window that opened the popup (msal-browser's redirect bridge) and nothing else.
import { broadcastResponseToMainFrame } from "@azure/msal-browser/redirect-bridge";

const status = document.getElementById("status");
broadcastResponseToMainFrame().catch((error: unknown) => {
  if (status) {
    status.textContent = "Sign-in could not be finished in this window. Close it and sign in again from the add-in.";
  }
  // The reason only (no URL: it holds the authorization code).
  console.error("Sign-in relay failed:", error instanceof Error ? error.name : "unknown error");
});
