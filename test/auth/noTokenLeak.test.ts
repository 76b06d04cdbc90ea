// The access token must never reach the workbook, its settings, storage written by the add-in
// (MSAL's own cache aside), logs or error messages. This plays every sign-in path with a known
// token and then searches everything it could have touched.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createTokenSource } from "../../src/auth/index.js";
import { encodeDialogMessage } from "../../src/auth/dialogProtocol.js";
import { createServiceClient } from "../../src/core/api/index.js";
import type { LogEntry, TransportResponse } from "../../src/core/api/types.js";
import { SANDBOX_ENVIRONMENT } from "../../src/core/settings/environment.js";
import { createDialogOpener } from "../../src/office/dialog.js";
import { FakeClock } from "../core/api/scripted.js";
import { FakeMsal } from "./helpers/fakeMsal.js";
import { FakeOfficeUi } from "./helpers/fakeOfficeUi.js";

const SECRET = "eyJhbGciOiJSUzI1NiJ9.secret-office-token-4f1d.c2lnbmF0dXJl";
const SECRET_PARTS = [SECRET, "secret-office-token-4f1d", "c2lnbmF0dXJl"];

class MemoryStorage {
  readonly map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.map.set(k, String(v));
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
  clear() {
    this.map.clear();
  }
}

const local = new MemoryStorage();
const session = new MemoryStorage();
const workbookSettings = new Map<string, unknown>();
const consoleLines: string[] = [];
const logs: LogEntry[] = [];
const globals = globalThis as Record<string, unknown>;
const saved: Record<string, unknown> = {};
const savedConsole = { ...console };

before(() => {
  for (const name of ["localStorage", "sessionStorage", "Office"]) saved[name] = globals[name];
  globals.localStorage = local;
  globals.sessionStorage = session;
  globals.Office = {
    context: {
      document: {
        settings: {
          get: (k: string) => workbookSettings.get(k),
          set: (k: string, v: unknown) => workbookSettings.set(k, v),
          remove: (k: string) => workbookSettings.delete(k),
          saveAsync: (cb?: () => void) => cb?.(),
        },
      },
    },
  };
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    console[level] = (...args: unknown[]) => consoleLines.push(args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : JSON.stringify(a))).join(" "));
  }
});

after(() => {
  for (const [name, value] of Object.entries(saved)) globals[name] = value;
  Object.assign(console, savedConsole);
});

function response(status: number, body: unknown): TransportResponse {
  const text = JSON.stringify(body);
  return { status, headers: { get: () => null }, text: async () => text };
}

function assertNoSecret(where: string, text: string) {
  for (const part of SECRET_PARTS) assert.ok(!text.includes(part), `the token appears in ${where}`);
}

test("no token in workbook settings, add-in storage, logs or errors after every sign-in path", async () => {
  const clock = new FakeClock();
  let renewAnswer: unknown = encodeDialogMessage({
    type: "signedIn",
    accessToken: SECRET,
    expiresAt: clock.now() + 60_000,
    account: { name: "A", username: "a@example.com" },
  });
  const ui = new FakeOfficeUi((url) =>
    new URL(url).searchParams.get("mode") === "signin"
      ? {
          message: encodeDialogMessage({
            type: "signedIn",
            accessToken: SECRET,
            expiresAt: clock.now() + 60_000,
            account: { name: "A", username: "a@example.com" },
          }),
        }
      : { message: renewAnswer },
  );
  const office = createTokenSource(SANDBOX_ENVIRONMENT, "office", {
    origin: "https://localhost:3000",
    openDialog: createDialogOpener(() => ui),
    log: (e) => logs.push(e),
    clock,
  });
  const errors: unknown[] = [];
  await office.signIn();
  assert.equal(await office.getAccessToken(), SECRET);

  // The service answers 401 and then 403 while the token is in use.
  let calls = 0;
  /** The Authorization header of each request sent, checked after the calls (a failed assertion inside fetch would read as a network error). */
  const sentAuthorizations: unknown[] = [];
  const client = createServiceClient({
    baseUrl: "https://localhost:4010",
    getAccessToken: (r) => office.getAccessToken(r),
    retry: { baseDelayMs: 1, maxAttempts: 2 },
    log: (e) => logs.push(e),
    fetch: async (_url, init) => {
      calls++;
      sentAuthorizations.push(init.headers.Authorization ?? init.headers.authorization);
      return calls === 1
        ? response(401, { errors: [{ id: "1", code: "UNAUTHORIZED", status: "401", detail: `bad token ${SECRET}` }] })
        : response(403, { errors: [{ id: "2", code: "FORBIDDEN", status: "403", detail: "missing scope api:data:contact" }] });
    },
  });
  const searchError = await client.searchContacts({}).then(
    () => undefined,
    (e: unknown) => e,
  );
  errors.push(searchError);
  // The 401 is retried once with the token asked for again; the 403 ends the call.
  assert.deepEqual(sentAuthorizations, [`Bearer ${SECRET}`, `Bearer ${SECRET}`], "every request carried the signed-in token");
  assert.equal((searchError as { status?: unknown } | undefined)?.status, 403, "the service's answer, not a network error");

  // A renewal whose answer is malformed and quotes the token.
  renewAnswer = `{"oops": "${SECRET}"`;
  await clock.advance(120_000);
  await office.getAccessToken().catch((e: unknown) => errors.push(e));
  // A renewal refused, then a sign-out.
  renewAnswer = encodeDialogMessage({ type: "error", code: "login_required", description: "no session" });
  await office.getAccessToken({ forceRefresh: true }).catch((e: unknown) => errors.push(e));
  await office.signOut();

  // Browser mode: MSAL keeps its own cache; the add-in writes nothing of its own.
  const msal = new FakeMsal(clock);
  const browser = createTokenSource(SANDBOX_ENVIRONMENT, "browser", {
    origin: "https://localhost:3000",
    createMsalClient: async () => msal,
    log: (e) => logs.push(e),
    clock,
  });
  await browser.signIn();
  const browserToken = await browser.getAccessToken();
  await clock.advance(120_000);
  await browser.getAccessToken();
  await browser.signOut();

  assert.ok(errors.length >= 2, "the failure paths ran");
  const everything = {
    workbookSettings: JSON.stringify([...workbookSettings]),
    localStorage: JSON.stringify([...local.map]),
    sessionStorage: JSON.stringify([...session.map]),
    logs: JSON.stringify(logs),
    console: consoleLines.join("\n"),
    errors: errors
      .map((e) => (e instanceof Error ? `${e.message} ${e.stack} ${JSON.stringify(e)} ${String((e as { userMessage?: string }).userMessage)}` : String(e)))
      .join("\n"),
  };
  for (const [where, text] of Object.entries(everything)) {
    assertNoSecret(where, text);
    assert.ok(!text.includes(browserToken), `the browser token appears in ${where}`);
  }
  assert.ok(logs.length > 0, "logs were captured");
});
