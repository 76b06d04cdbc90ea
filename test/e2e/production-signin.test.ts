// Production topology in headless Chromium (browser mode): the task pane, set to the sandbox's
// production profile, signs in through a popup (no discovery, no scope, no id token) with the
// code exchanged through the token broker, then searches through the production edge.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { FastifyInstance } from "fastify";
import type { Page } from "playwright-core";
import { buildBroker } from "../../src/broker/app.js";
import { SANDBOX_PRODUCTION_ENVIRONMENT, productionAddresses } from "../../src/core/settings/environment.js";
import { USER_SETTINGS_KEY } from "../../src/core/settings/userSettings.js";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { buildTaskPane, chromiumAvailable, launchChromium, serveDirectory, type Chromium, type StaticServer } from "./helpers.js";

const CLIENT = { clientId: "prod-chromium-client", clientSecret: "prod-chromium-secret" };
const skip = chromiumAvailable() ? false : "Debian chromium is not installed (apt-get install -y chromium)";

describe("production topology in Chromium: sign-in through the broker and a search", { skip }, () => {
  let pages: StaticServer;
  let sandbox: TestSandbox;
  let broker: FastifyInstance;
  let browser: Chromium;
  let page: Page;
  const tokenCalls: string[] = [];

  before(async () => {
    pages = await serveDirectory(await buildTaskPane());
    sandbox = await startTestSandbox({ profile: "production", ...CLIENT, corsOrigins: [pages.origin] });
    broker = (await buildBroker({ upstream: `${sandbox.url}/gtm/oauth/v1/token`, ...CLIENT, allowOrigins: [pages.origin] }, { log: false })).app;
    const brokerUrl = await broker.listen({ port: 0, host: "127.0.0.1" });
    const at = productionAddresses(`${sandbox.url}/gtm`);
    const environment = {
      ...SANDBOX_PRODUCTION_ENVIRONMENT,
      apiBaseUrl: at.apiBaseUrl,
      audiencesBaseUrl: at.audiencesBaseUrl,
      signIn: {
        ...SANDBOX_PRODUCTION_ENVIRONMENT.signIn,
        clientId: CLIENT.clientId,
        authority: at.authority,
        authorizeUrl: at.authorizeUrl,
        tokenEndpoint: `${brokerUrl}/token`,
      },
    };
    browser = await launchChromium();
    await browser.context.addInitScript(
      ({ key, value, origin }) => {
        if (location.origin === origin && !localStorage.getItem(key)) localStorage.setItem(key, value);
      },
      { key: USER_SETTINGS_KEY, value: JSON.stringify({ environment }), origin: pages.origin },
    );
    browser.context.on("request", (request) => {
      if (request.url().startsWith(`${brokerUrl}/token`) && request.method() === "POST") {
        tokenCalls.push(new URLSearchParams(request.postData() ?? "").get("grant_type") ?? "?");
      }
    });
    page = await browser.context.newPage();
    await page.goto(`${pages.origin}/taskpane.html`);
  });

  after(async () => {
    await browser?.close();
    await broker?.close();
    await sandbox?.close();
    await pages?.close();
  });

  test("signs in through the popup and the broker, then a search goes through the production edge", async () => {
    const popupOpened = page.waitForEvent("popup");
    await page.getByRole("button", { name: "Sign in", exact: true }).click({ timeout: 30_000 });
    const popup = await popupOpened;
    assert.equal(new URL(popup.url()).searchParams.get("scope"), null, "no scope asked");
    await popup.locator("#email").waitFor({ timeout: 30_000 });
    await popup.locator("#email").fill("analyst@example.com");
    await popup.locator("#password").fill("analyst-pass");
    await popup.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("Signed in as").waitFor({ timeout: 30_000 });
    assert.deepEqual(tokenCalls, ["authorization_code"]);

    const response = page.waitForResponse((r) => r.url().includes("/gtm/data/v1/companies/search") && r.request().method() === "POST", { timeout: 30_000 });
    await page.getByRole("tab", { name: "Companies" }).click();
    await page.locator("[role=tabpanel] > div:not([hidden])").getByRole("button", { name: "Search", exact: true }).click();
    assert.equal((await response).status(), 200);
    await page.getByText(/companies match/).waitFor({ timeout: 30_000 });
  });
});
