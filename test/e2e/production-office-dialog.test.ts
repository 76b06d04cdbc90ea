// Sign-in inside Office on the production topology, driven in headless Chromium as far as a
// browser can: Office itself is absent, so a harness page gives the task pane's real sign-in code
// (token source, Office backend, dialog opener: test/e2e/officeDialogHarness.ts, bundled here) a
// stand-in Office.context.ui.displayDialogAsync that opens the dialog page in a popup, and the
// dialog page's office.js is a stand-in whose messageParent hands the message back to it. The
// dialog page (dialog.html) is the built one: it runs the explicit-endpoint flow against the
// sandbox's production profile (no discovery, no scope) with the code exchanged through the
// token broker; the renewal is made through the broker with the refresh token the dialog passed.
// Not covered here: Office's own dialog window and office.js (only Office can provide them).
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { DEFAULT_OIDC_SETTINGS } from "../../src/sandbox/oidc/provider.js";
import { BROWSER_SKIP, dialogOfficeStub, useStarted } from "./helpers.js";
import { startProductionTopology } from "./productionTopology.js";

const PAST_EXPIRY_MS = (DEFAULT_OIDC_SETTINGS.accessTokenTtlSeconds + 60) * 1000;
const CHANNEL = "office-dialog-stand-in";

/** Office.context.ui of the task pane: the dialog is a popup; its messageParent arrives on a same-origin channel. */
const TASK_PANE_OFFICE = `
  window.Office = { context: { ui: { displayDialogAsync(url, options, callback) {
    const popup = window.open(url, "office-dialog", "popup=yes,width=420,height=640");
    if (!popup) { callback({ status: "failed", error: { code: 12011 } }); return; }
    const handlers = {};
    const channel = new BroadcastChannel(${JSON.stringify(CHANNEL)});
    channel.onmessage = (event) => handlers.dialogMessageReceived && handlers.dialogMessageReceived({ message: event.data, origin: location.origin });
    callback({ status: "succeeded", value: {
      addEventHandler(type, handler) { handlers[type] = handler; },
      close() { channel.close(); popup.close(); },
    } });
  } } } };
`;

/** office.js of the dialog page: ready at once, messageParent posts on the channel. */
const DIALOG_OFFICE = dialogOfficeStub(`(message) => new BroadcastChannel(${JSON.stringify(CHANNEL)}).postMessage(message)`);

async function bundleHarness(): Promise<string> {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [join(import.meta.dirname, "officeDialogHarness.ts")],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/** The Office stand-in page and its bundled script, served beside the built pages. */
async function harnessPages(): Promise<Record<string, string>> {
  return {
    "office-harness.js": await bundleHarness(),
    "office-harness.html": `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Office stand-in</title><script>${TASK_PANE_OFFICE}</script></head>
      <body><button id="sign-in">Sign in</button><button id="call">Call the service</button><p id="status" role="status"></p>
      <script src="office-harness.js"></script></body></html>`,
  };
}

describe("production sign-in through the Office dialog path in Chromium (Office stood in for)", { skip: BROWSER_SKIP, timeout: 300_000 }, () => {
  let page: Page;
  const errors: string[] = [];
  const popups: Page[] = [];
  const authorizeRequests: URL[] = [];

  const start = async () => startProductionTopology({ fakeClock: true, extraPages: await harnessPages() });
  const topology = useStarted(start, async ({ browser, pages, environment }) => {
    const { context } = browser;
    const origin = pages.origin;
    await context.route("**/assets/office-js/office.js", (route) => route.fulfill({ contentType: "text/javascript", body: DIALOG_OFFICE }));
    page = await context.newPage();
    page.on("pageerror", (e) => errors.push(e.message));
    context.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname === "/gtm/oauth/v1/authorize") authorizeRequests.push(url);
    });
    context.on("page", (p) => {
      if (p !== page) popups.push(p);
    });
    const probe = `${environment.apiBaseUrl}/data/v1/lookup/enrich?filter[entity]=company&filter[fieldType]=output`;
    await page.goto(`${origin}/office-harness.html?${new URLSearchParams({ environment: JSON.stringify(environment), probe })}`);
  });

  test("the dialog page signs in without discovery or scope; the code is exchanged through the broker; messageParent carries the result", async () => {
    const status = page.getByRole("status");
    const dialogOpened = page.waitForEvent("popup");
    await page.getByRole("button", { name: "Sign in" }).click();
    const dialog = await dialogOpened;
    await dialog.locator("#email").waitFor({ timeout: 30_000 });
    assert.equal(authorizeRequests.length, 1, "the dialog page went to the authorize endpoint");
    const authorize = authorizeRequests[0]!;
    assert.equal(authorize.origin, new URL(topology.sandbox.url).origin);
    assert.equal(authorize.searchParams.get("scope"), null, "no scope asked");
    assert.equal(authorize.searchParams.get("redirect_uri"), `${topology.pages.origin}/dialog.html`);
    assert.equal(authorize.searchParams.get("code_challenge_method"), "S256");
    await dialog.locator("#email").fill("analyst@example.com");
    await dialog.locator("#password").fill("analyst-pass");
    const closed = dialog.waitForEvent("close", { timeout: 30_000 });
    await dialog.getByRole("button", { name: "Sign in" }).click();
    await status.filter({ hasText: /^Signed in as / }).waitFor({ timeout: 30_000 });
    await closed;
    assert.deepEqual(topology.brokerGrants, ["authorization_code"], "the dialog exchanged the code at the broker");
    assert.deepEqual(
      topology.brokerRequests.filter((r) => r.startsWith("POST")),
      ["POST /token"],
    );

    await page.getByRole("button", { name: "Call the service" }).click();
    await status.filter({ hasText: /^(The service answered|Call failed)/ }).waitFor({ timeout: 30_000 });
    assert.equal(await status.innerText(), "The service answered 200");
    assert.deepEqual(errors, []);
  });

  test("once the access token has expired, the next call renews it through the broker with the refresh token, without a dialog", async () => {
    const status = page.getByRole("status");
    const popupsBefore = popups.length;
    const grantsBefore = topology.brokerGrants.length;
    await page.clock.fastForward(PAST_EXPIRY_MS);
    await page.getByRole("button", { name: "Call the service" }).click();
    await status.filter({ hasText: /^(The service answered|Call failed)/ }).waitFor({ timeout: 30_000 });
    assert.equal(await status.innerText(), "The service answered 200");
    assert.deepEqual(topology.brokerGrants.slice(grantsBefore), ["refresh_token"]);
    assert.equal(popups.length, popupsBefore, "no dialog for a renewal");
    assert.deepEqual(errors, []);
  });
});
