import assert from "node:assert/strict";
import { test } from "node:test";
import { createTokenSource, createTokenSourceWith } from "../../src/auth/index.js";
import { signInExpired } from "../../src/auth/errors.js";
import { SANDBOX_ENVIRONMENT } from "../../src/core/settings/environment.js";
import { FakeClock } from "../core/api/scripted.js";
import { FakeMsal } from "./helpers/fakeMsal.js";

function browserSource(lifetimeMs = 60_000) {
  const clock = new FakeClock();
  const msal = new FakeMsal(clock, lifetimeMs);
  const source = createTokenSource(SANDBOX_ENVIRONMENT, "browser", {
    origin: "https://localhost:3000",
    createMsalClient: async () => msal,
    clock,
  });
  return { msal, source, advance: (ms: number) => clock.advance(ms) };
}

test("not signed in: getAccessToken fails with kind unauthorized", async () => {
  const { source } = browserSource();
  await assert.rejects(source.getAccessToken(), (error: { kind: string; userMessage: string }) => {
    assert.equal(error.kind, "unauthorized");
    assert.match(error.userMessage, /not signed in/);
    return true;
  });
});

test("concurrent callers with an expired token share one refresh (rotating refresh tokens)", async () => {
  const { msal, source, advance } = browserSource();
  await source.signIn();
  const first = await source.getAccessToken();
  await advance(120_000);
  let open!: () => void;
  msal.gate = new Promise<void>((resolve) => (open = resolve));
  const started = msal.refreshStarted();
  const callers = Array.from({ length: 20 }, (_, i) => source.getAccessToken(i % 2 ? { forceRefresh: true } : undefined));
  await started;
  // Every caller was started before the refresh: let their queued steps run before it ends.
  await new Promise((resolve) => setImmediate(resolve));
  open();
  const tokens = await Promise.all(callers);
  assert.equal(msal.refreshCalls, 1, "one refresh for twenty callers");
  assert.equal(new Set(tokens).size, 1);
  assert.notEqual(tokens[0], first);
  // The rotated refresh token still works afterwards: the session survived.
  assert.notEqual(await source.getAccessToken({ forceRefresh: true }), tokens[0]);
  assert.equal(msal.refreshCalls, 2);
  assert.ok(source.account());
});

test("a valid token is served without refreshing", async () => {
  const { msal, source, advance } = browserSource();
  await source.signIn();
  const token = await source.getAccessToken();
  await advance(10_000);
  assert.equal(await source.getAccessToken(), token);
  assert.equal(msal.refreshCalls, 0);
});

test("a refresh the server refuses ends the session and says sign in again", async () => {
  const { msal, source } = browserSource();
  await source.signIn();
  await msal.clearCache(); // the refresh token is gone (e.g. revoked)
  const changes: unknown[] = [];
  source.onChange((a) => changes.push(a));
  await assert.rejects(source.getAccessToken({ forceRefresh: true }), (error: { kind: string; userMessage: string }) => {
    assert.equal(error.kind, "unauthorized");
    assert.match(error.userMessage, /expired/);
    return true;
  });
  assert.equal(source.account(), null);
  assert.deepEqual(changes, [null]);
});

test("sign-out clears cached tokens and account; requests then fail as unauthorized", async () => {
  const { msal, source } = browserSource();
  await source.signIn();
  await source.getAccessToken();
  await source.signOut();
  assert.equal(source.account(), null);
  assert.equal(msal.getAllAccounts().length, 0);
  assert.equal(msal.storage.size, 0);
  await assert.rejects(source.getAccessToken(), (error: { kind: string }) => error.kind === "unauthorized");
});

test("sign-out because the service keeps refusing the sign-in says it expired", async () => {
  const { source } = browserSource();
  await source.signIn();
  const reasons: unknown[] = [];
  source.onChange((account, reason) => reasons.push([account, reason]));
  await source.signOut({ reason: "expired" });
  assert.deepEqual(reasons, [[null, "expired"]]);
});

test("an unreachable sign-in server is a clear error, and the next try starts over", async () => {
  let attempts = 0;
  const source = createTokenSource(SANDBOX_ENVIRONMENT, "browser", {
    origin: "https://localhost:3000",
    fetchJson: async () => {
      attempts++;
      throw new Error("connect ECONNREFUSED");
    },
  });
  await assert.rejects(source.signIn(), (error: { kind: string; userMessage: string }) => {
    assert.equal(error.kind, "network");
    assert.match(error.userMessage, /could not be reached/);
    return true;
  });
  const before = attempts;
  await assert.rejects(source.signIn());
  assert.ok(attempts > before, "tried again");
});

test("a renewal overtaken by sign-out does not bring the session back", async () => {
  const { msal, source, advance } = browserSource();
  await source.signIn();
  await advance(120_000);
  let open!: () => void;
  msal.gate = new Promise<void>((resolve) => (open = resolve));
  const started = msal.refreshStarted();
  const pending = source.getAccessToken();
  await started;
  await source.signOut();
  open();
  await assert.rejects(pending, (error: { kind: string }) => error.kind === "unauthorized");
  assert.equal(source.account(), null);
});

test("a new page restores the signed-in account from MSAL's cache", async () => {
  const clock = new FakeClock();
  const msal = new FakeMsal(clock);
  const first = createTokenSource(SANDBOX_ENVIRONMENT, "browser", { origin: "https://localhost:3000", createMsalClient: async () => msal, clock });
  await first.signIn();
  const reloaded = createTokenSource(SANDBOX_ENVIRONMENT, "browser", { origin: "https://localhost:3000", createMsalClient: async () => msal, clock });
  const changes: unknown[] = [];
  reloaded.onChange((account, reason) => changes.push([account?.username, reason]));
  assert.ok(await reloaded.getAccessToken());
  assert.deepEqual(reloaded.account(), { name: "Avery Analyst", username: "analyst@example.com" });
  assert.deepEqual(changes, [["analyst@example.com", "restored"]]);
});

test("a listener that throws does not break sign-in for the others", async () => {
  const { source } = browserSource();
  const seen: unknown[] = [];
  source.onChange(() => {
    throw new Error("broken listener");
  });
  source.onChange((account) => seen.push(account?.username));
  await source.signIn();
  assert.deepEqual(seen, ["analyst@example.com"]);
});

test("a stored sign-in the server no longer accepts (a restarted sandbox) tells the sign-in screen why", async () => {
  const reasons: Array<string | undefined> = [];
  const source = createTokenSourceWith({
    restore: async () => {
      throw signInExpired();
    },
    signIn: async () => ({ accessToken: "t", expiresAt: Date.now() + 60_000, account: { name: "", username: "u" } }),
    renew: async () => {
      throw signInExpired();
    },
    clear: async () => undefined,
  });
  source.onChange((account, reason) => reasons.push(`${account === null ? "none" : account.username}:${reason}`));
  await assert.rejects(source.getAccessToken());
  assert.deepEqual(reasons, ["none:expired"]);
});

/** A sign-in backend whose renewal the test finishes by hand, and which renews even after sign-out (the request was already at the server). */
function scriptedBackend(clock: FakeClock) {
  const user = (name: string) => ({ name, username: `${name}@example.com` });
  const credentials = (name: string, token: string) => ({ accessToken: token, expiresAt: clock.now() + 60_000, account: user(name) });
  let signInAs = "alice";
  let finishRenewal: () => void = () => undefined;
  let renewalStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (renewalStarted = resolve));
  const backend = {
    restore: async () => null,
    signIn: async () => credentials(signInAs, `AT-${signInAs}-signin`),
    renew: async (account: { name: string }) => {
      renewalStarted();
      await new Promise<void>((resolve) => (finishRenewal = resolve));
      return credentials(account.name, `AT-${account.name}-renewed`);
    },
    clear: async () => undefined,
  };
  return { backend, started, finish: () => finishRenewal(), switchTo: (name: string) => (signInAs = name) };
}

test("a renewal that succeeds after sign-out installs no token: the session stays over", async () => {
  const clock = new FakeClock();
  const { backend, started, finish } = scriptedBackend(clock);
  const source = createTokenSourceWith(backend, { clock });
  await source.signIn();
  const pending = source.getAccessToken({ forceRefresh: true });
  await started;
  await source.signOut();
  finish();
  await assert.rejects(pending, (error: { kind: string }) => error.kind === "unauthorized");
  assert.equal(source.account(), null);
  await assert.rejects(source.getAccessToken(), (error: { kind: string }) => error.kind === "unauthorized");
});

test("a renewal of the previous user that succeeds after another user signed in leaves the new user's token", async () => {
  const clock = new FakeClock();
  const { backend, started, finish, switchTo } = scriptedBackend(clock);
  const source = createTokenSourceWith(backend, { clock });
  await source.signIn();
  const pending = source.getAccessToken({ forceRefresh: true });
  await started;
  switchTo("bob");
  await source.signIn();
  finish();
  assert.equal(await pending, "AT-bob-signin", "the waiting caller gets the signed-in user's token");
  assert.equal(source.account()?.username, "bob@example.com");
  assert.equal(await source.getAccessToken(), "AT-bob-signin");
});
