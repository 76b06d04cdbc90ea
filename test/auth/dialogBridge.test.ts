import assert from "node:assert/strict";
import { test } from "node:test";
import { createTokenSource } from "../../src/auth/index.js";
import { encodeDialogMessage } from "../../src/auth/dialogProtocol.js";
import { createOfficeBackend } from "../../src/auth/officeBackend.js";
import { SANDBOX_ENVIRONMENT, SANDBOX_PRODUCTION_ENVIRONMENT } from "../../src/core/settings/environment.js";
import { createDialogOpener } from "../../src/office/dialog.js";
import { FakeClock } from "../core/api/scripted.js";
import { FakeOfficeUi, type DialogScript } from "./helpers/fakeOfficeUi.js";

const ORIGIN = "https://localhost:3000";
const TOKEN = "eyJhbGciOiJSUzI1NiJ9.office-dialog-token.sig";

function officeSource(script: (url: string) => DialogScript) {
  const ui = new FakeOfficeUi(script);
  const source = createTokenSource(SANDBOX_ENVIRONMENT, "office", { origin: ORIGIN, openDialog: createDialogOpener(() => ui) });
  return { ui, source };
}

const success = (token = TOKEN, expiresAt = Date.now() + 3600_000): DialogScript => ({
  message: encodeDialogMessage({
    type: "signedIn",
    accessToken: token,
    expiresAt,
    account: { name: "Avery Analyst", username: "analyst@example.com" },
  }),
});

test("dialog success: the account is signed in and the token is served from memory", async () => {
  const { ui, source } = officeSource(() => success());
  const changes: unknown[] = [];
  source.onChange((a) => changes.push(a));
  const account = await source.signIn();
  assert.deepEqual(account, { name: "Avery Analyst", username: "analyst@example.com" });
  assert.deepEqual(source.account(), account);
  assert.equal(await source.getAccessToken(), TOKEN);
  assert.equal(ui.opened.length, 1, "no second dialog for a valid token");
  assert.equal(ui.closed, 1, "the dialog is closed after its message");
  const opened = new URL(ui.opened[0]!);
  assert.equal(opened.origin + opened.pathname, `${ORIGIN}/dialog.html`);
  assert.equal(opened.searchParams.get("mode"), "signin");
  assert.equal(opened.searchParams.get("clientId"), "excel-addin");
  assert.deepEqual(changes, [{ name: "Avery Analyst", username: "analyst@example.com" }]);
});

test("dialog closed (12006): the message covers the user closing it and a sign-in page sending COOP same-origin", async () => {
  const { source } = officeSource(() => ({ event: 12006 }));
  await assert.rejects(source.signIn(), (error: { kind: string; userMessage: string }) => {
    assert.equal(error.kind, "cancelled");
    assert.match(error.userMessage, /closed before sign-in finished/);
    assert.match(error.userMessage, /If you closed it/, "the user is not told they closed it");
    assert.doesNotMatch(error.userMessage, /You closed/);
    assert.match(error.userMessage, /administrator.*Cross-Origin-Opener-Policy: unsafe-none/, "what the administrator changes");
    assert.match(error.userMessage, /add-in's web address/, "or the page on the add-in's domain");
    return true;
  });
  assert.equal(source.account(), null);
  await assert.rejects(source.getAccessToken(), (error: { kind: string }) => error.kind === "unauthorized");
});

test("consent denied: the user is told they did not allow access", async () => {
  const { source } = officeSource(() => ({
    message: encodeDialogMessage({ type: "error", code: "access_denied", description: "sign-in server answered access_denied" }),
  }));
  await assert.rejects(source.signIn(), (error: { kind: string; userMessage: string }) => {
    assert.equal(error.kind, "unauthorized");
    assert.match(error.userMessage, /did not allow/);
    return true;
  });
  assert.equal(source.account(), null);
});

for (const [label, message] of [
  ["not JSON", "<html>"],
  ["not text", 42],
  ["another sender", JSON.stringify({ type: "signedIn", accessToken: "x", expiresAt: 1, account: { name: "", username: "" } })],
  ["incomplete", JSON.stringify({ source: "bizdata-signin", v: 1, type: "signedIn", accessToken: "" })],
] as const) {
  test(`malformed dialog message (${label}) is refused with a clear message`, async () => {
    const { source } = officeSource(() => ({ message }));
    await assert.rejects(source.signIn(), (error: { kind: string; userMessage: string; message: string }) => {
      assert.equal(error.kind, "invalidResponse");
      assert.match(error.userMessage, /does not understand/);
      if (typeof message === "string" && message.length > 0) assert.ok(!error.message.includes(message));
      return true;
    });
    assert.equal(source.account(), null);
  });
}

for (const [code, kind, said] of [
  [12011, "network", /browser blocked the sign-in window.*Allow pop-ups/],
  [12009, "cancelled", /chose Ignore.*choose Allow/],
  [12004, "network", /not on a web address this add-in trusts/],
] as const) {
  test(`a dialog that cannot open says why (${code})`, async () => {
    const { ui, source } = officeSource(() => ({ openError: code }));
    await assert.rejects(source.signIn(), (error: { kind: string; userMessage: string; message: string }) => {
      assert.equal(error.kind, kind);
      assert.match(error.userMessage, said);
      assert.doesNotMatch(error.userMessage, /Office error/);
      assert.match(error.message, new RegExp(String(code)));
      return true;
    });
    assert.equal(ui.opened.length, 1, "only 12007 is retried");
    assert.equal(source.account(), null);
  });
}

/** An opener over `ui` whose retry wait is recorded instead of slept. */
function retryingOpener(ui: FakeOfficeUi, sleeps: number[]) {
  return createDialogOpener(() => ui, { clock: { sleep: async (ms) => void sleeps.push(ms) }, retryDelayMs: 300 });
}

test("a dialog already open (12007): the previous one is closed, then the open is retried once and succeeds", async () => {
  let calls = 0;
  const ui = new FakeOfficeUi(() => (++calls === 2 ? { openError: 12007 } : success()));
  const sleeps: number[] = [];
  const source = createTokenSource(SANDBOX_ENVIRONMENT, "office", { origin: ORIGIN, openDialog: retryingOpener(ui, sleeps) });
  await source.signIn();
  assert.equal(ui.closed, 1);
  await source.signOut();
  await source.signIn();
  assert.equal(ui.opened.length, 3, "the refused open is tried again once");
  assert.deepEqual(sleeps, [300], "Office is given time to finish closing the previous dialog");
  assert.equal(ui.closed, 3, "the previous dialog is closed again before the retry, the new one after its message");
  assert.equal(await source.getAccessToken(), TOKEN);
});

test("a dialog still open after the retry (12007 twice): said clearly, no third try", async () => {
  const ui = new FakeOfficeUi(() => ({ openError: 12007 }));
  const sleeps: number[] = [];
  const source = createTokenSource(SANDBOX_ENVIRONMENT, "office", { origin: ORIGIN, openDialog: retryingOpener(ui, sleeps) });
  await assert.rejects(source.signIn(), (error: { userMessage: string }) => /still open. Finish or close it/.test(error.userMessage));
  assert.equal(ui.opened.length, 2);
  assert.deepEqual(sleeps, [300]);
});

test("the opener opens one dialog at a time: a second open waits for the first to settle", async () => {
  const ui = new FakeOfficeUi(() => success(), { manual: true });
  const open = createDialogOpener(() => ui);
  const first = open(`${ORIGIN}/dialog.html?n=1`);
  const second = open(`${ORIGIN}/dialog.html?n=2`);
  await new Promise<void>((resolve) => setImmediate(resolve));
  assert.equal(ui.opened.length, 1, "the second waits while the first is open");
  ui.deliverAll();
  assert.equal((await first).kind, "message");
  await new Promise<void>((resolve) => setImmediate(resolve));
  assert.equal(ui.opened.length, 2);
  ui.deliverAll();
  assert.equal((await second).kind, "message");
});

test("outside Office the opener says sign-in needs Excel", async () => {
  const source = createTokenSource(SANDBOX_ENVIRONMENT, "office", {
    origin: ORIGIN,
    openDialog: createDialogOpener(() => {
      throw new Error("no Office");
    }),
  });
  await assert.rejects(source.signIn(), (error: { userMessage: string }) => /needs Excel/.test(error.userMessage));
});

test("an expired token is renewed through the dialog with prompt=none mode", async () => {
  const clock = new FakeClock();
  const ui = new FakeOfficeUi((url) =>
    new URL(url).searchParams.get("mode") === "renew" ? success("renewed-token", clock.now() + 3600_000) : success(TOKEN, clock.now() + 60_000),
  );
  const source = createTokenSource(SANDBOX_ENVIRONMENT, "office", { origin: ORIGIN, openDialog: createDialogOpener(() => ui), clock });
  await source.signIn();
  assert.equal(await source.getAccessToken(), TOKEN);
  await clock.advance(61_000);
  assert.equal(await source.getAccessToken(), "renewed-token");
  assert.deepEqual(
    ui.opened.map((u) => new URL(u).searchParams.get("mode")),
    ["signin", "renew"],
  );
  // Office's Allow/Ignore prompt stays on for every open, as Microsoft recommends.
  assert.deepEqual(
    ui.options.map((o) => o.promptBeforeOpen),
    [true, true],
  );
});

test("renewal the user closes ends the session (back to the sign-in screen)", async () => {
  const clock = new FakeClock();
  const ui = new FakeOfficeUi((url) => (new URL(url).searchParams.get("mode") === "renew" ? { event: 12006 } : success(TOKEN, clock.now() + 60_000)));
  const source = createTokenSource(SANDBOX_ENVIRONMENT, "office", { origin: ORIGIN, openDialog: createDialogOpener(() => ui), clock });
  const changes: unknown[] = [];
  await source.signIn();
  source.onChange((a) => changes.push(a));
  await assert.rejects(source.getAccessToken({ forceRefresh: true }), (error: { kind: string }) => error.kind === "unauthorized");
  assert.equal(source.account(), null);
  assert.deepEqual(changes, [null]);
});

test("the dialog carries production's explicit endpoints, hands over the rotating refresh token, and Cancel is not a refusal", async () => {
  const signIn = SANDBOX_PRODUCTION_ENVIRONMENT.signIn;
  const opened: string[] = [];
  const answers = [
    encodeDialogMessage({ type: "signedIn", accessToken: "at-1", expiresAt: 1, account: { name: "A", username: "a" }, refreshToken: "rt-1" }),
    encodeDialogMessage({ type: "error", code: "cancelled", description: "the sign-in was cancelled" }),
  ];
  const refreshed: string[] = [];
  const backend = createOfficeBackend(
    signIn,
    async (url) => {
      opened.push(url);
      return { kind: "message", message: answers.shift() ?? "" };
    },
    "https://localhost:3000/",
    {
      refresh: async (token) => {
        refreshed.push(token);
        return { accessToken: `at-${refreshed.length + 1}`, expiresAt: 2, refreshToken: `rt-${refreshed.length + 1}` };
      },
    },
  );
  const first = await backend.signIn();
  assert.equal(first.accessToken, "at-1");
  const query = new URL(opened[0]!).searchParams;
  assert.equal(query.get("flow"), "oauth");
  assert.equal(query.get("authorizeUrl"), signIn.authorizeUrl);
  assert.equal(query.get("tokenEndpoint"), signIn.tokenEndpoint);
  assert.equal(query.get("scopes"), "");
  const renewed = await backend.renew(first.account);
  const again = await backend.renew(first.account);
  assert.deepEqual([renewed.accessToken, again.accessToken], ["at-2", "at-3"]);
  assert.deepEqual(refreshed, ["rt-1", "rt-2"], "each refresh token is used once, the newest next");
  assert.equal(opened.length, 1, "renewal needs no dialog");
  await assert.rejects(backend.signIn(), (error: { kind?: string; userMessage?: string }) => {
    assert.equal(error.kind, "cancelled");
    assert.doesNotMatch(error.userMessage ?? "", /did not allow/);
    return true;
  });
});
