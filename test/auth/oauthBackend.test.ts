// Sign-in with explicit endpoints (production's way) against a server that issues no id token:
// the popup's answer comes back on the redirect page's channel, the code is exchanged, renewal
// uses the rotating refresh token, and no scope is asked.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createTokenSourceWith } from "../../src/auth/index.js";
import { createOAuthBackend, type PopupHandle } from "../../src/auth/oauthBackend.js";
import { POPUP_CHECK_MS } from "../../src/auth/popupWatch.js";
import { OAUTH_CHANNEL, oauthStateOf } from "../../src/auth/redirectProtocol.js";
import { SANDBOX_PRODUCTION_ENVIRONMENT, type SignInSettings } from "../../src/core/settings/environment.js";
import { FakeClock } from "../core/api/scripted.js";
import { startOAuthServer, type OAuthServer } from "./oauthServer.js";

let server: OAuthServer;
let signIn: SignInSettings;
before(async () => {
  server = await startOAuthServer();
  signIn = {
    ...SANDBOX_PRODUCTION_ENVIRONMENT.signIn,
    authority: `${server.url}/gtm/oauth/v1`,
    authorizeUrl: server.authorizeUrl,
    tokenEndpoint: server.tokenUrl,
  };
});
after(() => server.close());

/** Plays the user and the redirect page: follows the authorize redirect and posts what came back. */
function userWhoSignsIn(popups: string[]): (url: string) => PopupHandle {
  return (url) => {
    popups.push(url);
    const handle = { closed: false, close: () => void (handle.closed = true) };
    void fetch(url, { redirect: "manual" }).then((answer) => {
      const back = answer.headers.get("location") ?? "";
      const state = oauthStateOf(back);
      const channel = new BroadcastChannel(OAUTH_CHANNEL);
      channel.postMessage({ state, url: back });
      channel.close();
    });
    return handle;
  };
}

function memorySession() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

test("signs in through the popup with PKCE and no scope, without an id token, and renews through the token endpoint", async () => {
  const popups: string[] = [];
  const session = memorySession();
  const clock = new FakeClock();
  const backend = createOAuthBackend(signIn, { base: "https://localhost:3000/", openPopup: userWhoSignsIn(popups), session, clock });
  const tokens = createTokenSourceWith(backend, { clock });
  const account = await tokens.signIn();
  assert.deepEqual(account, { name: "Ada Lovelace", username: "ada@example.com" });
  assert.equal(clock.pendingTimers, 0, "the closed-window watch stops once the answer is in");

  const authorize = server.authorizeRequests.at(-1)!;
  assert.equal(authorize.get("scope"), null, "no scope is asked");
  assert.equal(authorize.get("code_challenge_method"), "S256");
  assert.equal(authorize.get("redirect_uri"), "https://localhost:3000/redirect.html");
  assert.equal(authorize.get("prompt"), "login");
  const exchange = server.tokenRequests.at(-1)!;
  assert.equal(exchange.get("grant_type"), "authorization_code");
  assert.equal(exchange.get("scope"), null);
  assert.equal(exchange.get("client_secret"), null, "the add-in holds no secret");

  const first = await tokens.getAccessToken();
  const renewed = await tokens.getAccessToken({ forceRefresh: true });
  assert.notEqual(renewed, first);
  assert.equal(server.tokenRequests.at(-1)!.get("grant_type"), "refresh_token");
  // Concurrent renewals share one refresh: the rotated token is used once only.
  const together = await Promise.all([tokens.getAccessToken({ forceRefresh: true }), tokens.getAccessToken({ forceRefresh: true })]);
  assert.equal(together[0], together[1]);

  // A new page in the same window restores the sign-in from the rotated refresh token.
  const spent = session.getItem("bizdata.signin.session")!;
  const restored = createTokenSourceWith(createOAuthBackend(signIn, { base: "https://localhost:3000/", session }));
  const token = await restored.getAccessToken();
  assert.ok(token.length > 0);
  assert.equal(restored.account()?.username, "ada@example.com");
  // A refresh token works once: presented again, the renewal says the sign-in expired and forgets it.
  const stale = memorySession();
  stale.setItem("bizdata.signin.session", spent);
  const late = createOAuthBackend(signIn, { base: "https://localhost:3000/", session: stale });
  await assert.rejects(late.renew({ name: "", username: "ada@example.com" }), (error: { kind?: string; userMessage?: string }) => {
    assert.equal(error.kind, "unauthorized");
    assert.match(error.userMessage ?? "", /expired/);
    return true;
  });
  assert.equal(stale.getItem("bizdata.signin.session"), null);
});

test("closing the sign-in window is noticed at once and said", async () => {
  const clock = new FakeClock();
  const popup = { closed: false, close: () => undefined };
  let opened!: () => void;
  const popupOpened = new Promise<void>((resolve) => (opened = resolve));
  const openPopup = () => {
    opened();
    return popup;
  };
  const backend = createOAuthBackend(signIn, { base: "https://localhost:3000/", openPopup, clock, session: memorySession() });
  const signingIn = backend.signIn();
  let ended = false;
  signingIn.catch(() => (ended = true));
  await popupOpened;
  await clock.advance(POPUP_CHECK_MS);
  popup.closed = true;
  await clock.advance(POPUP_CHECK_MS);
  assert.equal(ended, false, "closed once: the redirect page's last message may still be on its way");
  await clock.advance(POPUP_CHECK_MS);
  await assert.rejects(signingIn, (error: { kind?: string; userMessage?: string }) => {
    assert.equal(error.kind, "cancelled");
    assert.match(error.userMessage ?? "", /sign-in window was closed/);
    return true;
  });
});

test("Cancel on the login form is a cancelled sign-in, Deny is a refusal", async () => {
  const backend = createOAuthBackend(signIn, { base: "https://localhost:3000/", openPopup: userWhoSignsIn([]), session: memorySession() });
  server.nextAuthorize = { error: "access_denied", description: "End-User aborted interaction" };
  await assert.rejects(backend.signIn(), (error: { kind?: string; userMessage?: string }) => {
    assert.equal(error.kind, "cancelled");
    assert.doesNotMatch(error.userMessage ?? "", /did not allow/);
    return true;
  });
  server.nextAuthorize = { error: "access_denied" };
  await assert.rejects(backend.signIn(), (error: { userMessage?: string }) => /did not allow/.test(error.userMessage ?? ""));
});

test("a blocked popup and an unreachable broker are said in the user's terms", async () => {
  const blocked = createOAuthBackend(signIn, { base: "https://localhost:3000/", openPopup: () => null, session: memorySession() });
  await assert.rejects(blocked.signIn(), (error: { userMessage?: string }) => /blocked the sign-in window/.test(error.userMessage ?? ""));
  const session = memorySession();
  session.setItem("bizdata.signin.session", JSON.stringify({ refreshToken: "r", account: { name: "", username: "u" } }));
  const offline = createOAuthBackend({ ...signIn, tokenEndpoint: "http://127.0.0.1:9/token" }, { base: "https://localhost:3000/", session });
  await assert.rejects(offline.renew({ name: "", username: "u" }), (error: { userMessage?: string }) => /could not be reached/.test(error.userMessage ?? ""));
});

test("a token address that answers 404 belongs to another environment: the message points at Settings", async () => {
  const session = memorySession();
  session.setItem("bizdata.signin.session", JSON.stringify({ refreshToken: "r", account: { name: "", username: "u" } }));
  const elsewhere = createOAuthBackend({ ...signIn, tokenEndpoint: `${server.url}/not-this-environment/token` }, { base: "https://localhost:3000/", session });
  await assert.rejects(elsewhere.renew({ name: "", username: "u" }), (error: { userMessage?: string }) =>
    /^This environment's sign-in is not here: .*Under Connection settings \(below\), choose the environment/.test(error.userMessage ?? ""),
  );
});
