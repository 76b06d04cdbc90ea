// Sign-in end to end in headless Chromium (browser mode): the task pane signs in through the
// sandbox's own login and consent pages in a popup (msal-browser, PKCE), searches, renews an
// expired access token with the rotating refresh token, signs out (requests stop), and shows
// the clear 403 message to a user whose token lacks api:data:contact.
//
// Time in the browser is Playwright's clock (installed on the context): expiry is reached by
// moving that clock past the token's lifetime, so no step sleeps; the sandbox keeps its usual
// token lifetime. That the API itself refuses an expired token is covered in
// test/sandbox/auth.test.ts.
//
// The sandbox runs on HTTPS (msal-browser refuses an http authority) with the shared localhost
// certificates; Chromium ignores their issuer (ignoreHTTPSErrors). The task pane is pointed at
// it the way a user would: through the saved environment settings, not a dev-token override.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { DATA_SCOPES } from "../../src/core/settings/environment.js";
import { USER_SETTINGS_KEY } from "../../src/core/settings/userSettings.js";
import { DEFAULT_OIDC_SETTINGS } from "../../src/sandbox/oidc/provider.js";
import { BROWSER_SKIP, useHttpsE2E } from "./helpers.js";

/** The sandbox's access-token lifetime (its default); the page's clock is moved past it. */
const ACCESS_TOKEN_TTL_S = DEFAULT_OIDC_SETTINGS.accessTokenTtlSeconds;
/** Further than the token's lifetime, so the page holds an expired token. */
const PAST_EXPIRY_MS = (ACCESS_TOKEN_TTL_S + 60) * 1000;
const ENVIRONMENT_LABEL = "Sandbox over HTTPS";

let page: Page;
const tokenGrants: string[] = [];
const dataRequests: { url: string; at: number }[] = [];
const pageErrors: string[] = [];
const consoleLines: string[] = [];
/** Every bearer token the page sent (to search for it where it must not be). */
const tokensSeen = new Set<string>();
let popupsOpened = 0;

async function signInThroughPopup(email: string, password: string): Promise<void> {
  const popupOpened = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  const popup = await popupOpened;
  // Listened for from the start: the redirect page may close the window before a click on
  // Allow returns, and a close that already happened is never announced again.
  const closed = new Promise<void>((resolve) => popup.once("close", () => resolve()));
  await popup.locator("#email").waitFor({ timeout: 30_000 });
  await popup.locator("#email").fill(email);
  await popup.locator("#password").fill(password);
  await popup.getByRole("button", { name: "Sign in" }).click();
  await popup.getByRole("heading", { name: "Allow access" }).waitFor({ timeout: 30_000 });
  await popup.getByRole("button", { name: "Allow" }).click();
  const shut = await Promise.race([closed.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 30_000).unref())]);
  if (!shut) {
    // Where the popup stopped (the path only: the query may hold the authorization code).
    const at = new URL(popup.url());
    const text = await popup
      .locator("body")
      .innerText({ timeout: 1_000 })
      .catch(() => "(unreadable)");
    throw new Error(`The sign-in popup did not close within 30 s; it shows ${at.origin}${at.pathname}: ${text.slice(0, 300)}`);
  }
}

async function search(kind: "Companies" | "Contacts") {
  await page.getByRole("tab", { name: kind }).click();
  const panel = page.locator(`[role=tabpanel] > div:not([hidden])`);
  const response = page.waitForResponse((r) => r.url().includes(`/data/v1/${kind.toLowerCase()}/search`) && r.request().method() === "POST", {
    timeout: 30_000,
  });
  await panel.getByRole("button", { name: "Search", exact: true }).click();
  return { status: (await response).status(), panel };
}

describe("sign-in end to end (browser mode, headless Chromium)", { skip: BROWSER_SKIP }, () => {
  const rateLimit = { perSecond: 100_000, perHour: 10_000_000, perDay: 100_000_000 };
  const e2e = useHttpsE2E({ companies: 2000, contacts: 5000, rateLimit }, async ({ pages, sandbox, chromium: browser }) => {
    // Before any page loads: every page and popup of the context reads this clock (it runs at
    // the real pace until a test moves it).
    await browser.context.clock.install();
    const environment = {
      kind: "custom",
      label: ENVIRONMENT_LABEL,
      apiBaseUrl: sandbox.url,
      audiencesBaseUrl: sandbox.url,
      signIn: { authority: `${sandbox.url}/oauth`, clientId: "excel-addin", scopes: DATA_SCOPES },
    };
    // What Settings would have saved: the sandbox on HTTPS with the real sign-in.
    await browser.context.addInitScript(
      ({ key, value, origin }) => {
        if (location.origin === origin && !localStorage.getItem(key)) localStorage.setItem(key, value);
      },
      { key: USER_SETTINGS_KEY, value: JSON.stringify({ environment }), origin: pages.origin },
    );
    browser.context.on("request", (request) => {
      const url = request.url();
      // msal-browser adds telemetry parameters to the token endpoint's query string.
      if (new URL(url).pathname.endsWith("/oauth/token") && request.method() === "POST") {
        tokenGrants.push(new URLSearchParams(request.postData() ?? "").get("grant_type") ?? "?");
      }
      if (url.includes("/data/v1/")) {
        dataRequests.push({ url, at: Date.now() });
        const bearer = /^Bearer (.+)$/.exec(request.headers().authorization ?? "");
        if (bearer) tokensSeen.add(bearer[1]!);
      }
    });
    browser.context.on("page", (p) => {
      if (p !== page) popupsOpened++;
    });
    page = await browser.context.newPage();
    page.on("pageerror", (e) => pageErrors.push(e.message));
    page.on("console", (m) => consoleLines.push(m.text()));
    await page.goto(`${pages.origin}/taskpane.html`);
  });

  test("signed out: closing the sign-in window is said at once, Cancel on the login form is a cancel, sandbox fields are fixed", async () => {
    const signInButton = page.getByRole("button", { name: "Sign in", exact: true });
    await signInButton.waitFor({ timeout: 30_000 });
    let popupOpened = page.waitForEvent("popup");
    await signInButton.click();
    let popup = await popupOpened;
    await popup.locator("#email").waitFor({ timeout: 30_000 });
    await popup.close();
    // msal-browser alone would wait for its bridge timeout (about a minute), then blame the connection.
    await page.getByText("The sign-in window was closed before sign-in finished").waitFor({ timeout: 10_000 });
    assert.equal(await signInButton.isEnabled(), true);

    popupOpened = page.waitForEvent("popup");
    await signInButton.click();
    popup = await popupOpened;
    await popup.getByRole("button", { name: "Cancel" }).click({ timeout: 30_000 });
    await page.getByText("You cancelled sign-in").waitFor({ timeout: 30_000 });
    assert.equal(await page.getByText("You did not allow").count(), 0);

    await page.getByRole("heading", { name: "Connection settings" }).waitFor();
    assert.equal(await page.getByLabel("Data API address").isEditable(), true, "custom endpoints are editable");
    await page.getByRole("radio", { name: /^Sandbox \(local/ }).check();
    assert.equal(await page.getByLabel("Data API address").isEditable(), false, "the sandbox's are fixed");
    await page.getByRole("radio", { name: "Custom endpoints" }).check();
  });

  test("the analyst signs in through the sandbox's login page and searches companies", async () => {
    await page.getByRole("button", { name: "Sign in", exact: true }).waitFor({ timeout: 30_000 });
    await signInThroughPopup("analyst@example.com", "analyst-pass");
    await page.getByText("Signed in as Avery Analyst").waitFor({ timeout: 30_000 });
    assert.equal(await page.locator("#signed-in-environment").textContent(), ENVIRONMENT_LABEL);
    assert.deepEqual(tokenGrants, ["authorization_code"]);

    const { status, panel } = await search("Companies");
    assert.equal(status, 200);
    await panel.getByText(/companies match/).waitFor();
    assert.ok((await panel.locator("[data-testid=preview-table] tbody tr").count()) > 0);
  });

  test("after the access token expires the next search succeeds through a refresh", async () => {
    const grantsBefore = tokenGrants.length;
    const popupsBefore = popupsOpened;
    // The page's clock passes the token's expiry: the add-in must renew before using it.
    await page.clock.fastForward(PAST_EXPIRY_MS);
    const { status, panel } = await search("Companies");
    assert.equal(status, 200);
    await panel.getByText(/companies match/).waitFor();
    assert.ok(tokenGrants.slice(grantsBefore).includes("refresh_token"), "renewed with the refresh token");
    assert.ok(!tokenGrants.slice(grantsBefore).includes("authorization_code"), "no new sign-in");
    assert.equal(popupsOpened, popupsBefore, "no sign-in window");
  });

  test("a reload keeps the sign-in without a sign-in window", async () => {
    const popupsBefore = popupsOpened;
    await page.reload();
    await page.getByText("Signed in as Avery Analyst").waitFor({ timeout: 30_000 });
    const { status } = await search("Companies");
    assert.equal(status, 200);
    assert.equal(popupsOpened, popupsBefore);
  });

  test("sign-out clears the session and requests stop", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    assert.equal(await page.getByRole("tab", { name: "Companies" }).count(), 0, "search is gone");
    const cached = await page.evaluate(() => Object.keys(sessionStorage).filter((k) => /token/i.test(k)));
    assert.deepEqual(cached, [], "no cached tokens left");
    const signedOutAt = Date.now();
    const apiBefore = [...e2e.sandbox.ctx.stats.requests.values()].reduce((a, b) => a + b, 0);
    // Every timer the page holds for the next hour fires (polls, refreshes): none may call the API.
    await page.clock.runFor(3_600_000);
    // Let what those timers started settle, then a request of the page's own: an API request
    // started before it is reported before it answers.
    await page.evaluate(
      () =>
        new Promise((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve(null);
          channel.port2.postMessage(null);
        }),
    );
    await page.evaluate(() => fetch("/after-sign-out").then((r) => r.status));
    assert.equal(dataRequests.filter((r) => r.at >= signedOutAt).length, 0, "the page sends no API request");
    assert.equal(
      [...e2e.sandbox.ctx.stats.requests.values()].reduce((a, b) => a + b, 0),
      apiBefore,
    );
  });

  test("nocontact@ signs in and sees which permission a contact search needs", async () => {
    await signInThroughPopup("nocontact@example.com", "nocontact-pass");
    await page.getByText("Signed in as Noel Nocontact").waitFor({ timeout: 30_000 });
    const { status, panel } = await search("Contacts");
    assert.equal(status, 403);
    const message = panel.getByText(/api:data:contact/);
    await message.waitFor({ timeout: 10_000 });
    assert.match((await message.textContent()) ?? "", /not allowed|permission|scope/i);
    assert.deepEqual(pageErrors, []);
  });

  test("a sign-in that cannot be renewed returns to the sign-in screen with a message", async () => {
    // The refresh token is gone (as if revoked); once the access token expires, renewal fails.
    await page.evaluate(() => {
      for (const key of Object.keys(sessionStorage)) if (/refreshtoken/i.test(key)) sessionStorage.removeItem(key);
    });
    await page.clock.fastForward(PAST_EXPIRY_MS);
    const popupsBefore = popupsOpened;
    const ended = page.getByText("Your sign-in has ended: the sign-in server no longer accepts it");
    // The usage gauge's read, held since the last search, may be the first request to meet the
    // expired sign-in; otherwise the user's next search is. Either way the pane must say so.
    const searched = (async () => {
      await page.getByRole("tab", { name: "Contacts" }).click({ timeout: 5_000 });
      await page.locator("[role=tabpanel] > div:not([hidden])").getByRole("button", { name: "Search", exact: true }).click({ timeout: 5_000 });
    })();
    searched.catch(() => undefined); // the sign-in screen may replace the tabs first
    await ended.waitFor({ timeout: 30_000 });
    assert.equal(await page.getByRole("button", { name: "Sign in", exact: true }).count(), 1);
    assert.equal(popupsOpened, popupsBefore, "no window opens by itself");
  });

  test("no token in the console, the add-in's local storage or the page's text", async () => {
    assert.ok(tokensSeen.size >= 3, "tokens were used");
    const local = await page.evaluate(() => JSON.stringify(Object.entries(localStorage)));
    const text = await page.evaluate(() => document.documentElement.outerHTML);
    for (const token of tokensSeen) {
      const signature = token.split(".")[2]!;
      assert.ok(!consoleLines.some((line) => line.includes(signature)), "token in the console");
      assert.ok(!local.includes(signature), "token in localStorage");
      assert.ok(!text.includes(signature), "token in the page");
    }
  });
});
