// redirect.html: where the authorization server sends the sign-in popup back. An answer of the
// explicit-endpoint flow (production) goes to the opening window on a same-origin channel;
// any other is msal-browser's, handed over by its redirect bridge. Nothing else happens here.
import { broadcastResponseToMainFrame } from "@azure/msal-browser/redirect-bridge";
import { ANSWERED_CHANNEL, OAUTH_CHANNEL, oauthStateOf, type RedirectMessage } from "./redirectProtocol.js";

const status = document.getElementById("status");
const say = (text: string) => {
  if (status) status.textContent = text;
};

const state = oauthStateOf(location.href);
if (state) {
  const channel = new BroadcastChannel(OAUTH_CHANNEL);
  const message: RedirectMessage = { state, url: location.href };
  channel.postMessage(message);
  channel.close();
  say("Signed in. You can close this window.");
  window.close();
} else {
  // First tell the opening window an answer came (the bridge closes this window at once, while
  // msal there still exchanges the code: that close is no cancel).
  const answered = new BroadcastChannel(ANSWERED_CHANNEL);
  answered.postMessage("answered");
  answered.close();
  broadcastResponseToMainFrame().catch((error: unknown) => {
    say("Sign-in could not be finished in this window. Close it and sign in again from the add-in.");
    // The reason only (no URL: it holds the authorization code).
    console.error("Sign-in relay failed:", error instanceof Error ? error.name : "unknown error");
  });
}
