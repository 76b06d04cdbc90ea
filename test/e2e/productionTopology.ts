// The production topology for browser suites: the built pages, the sandbox's production profile
// (a confidential client, production's names on the wire), the token broker in front of its
// token endpoint, and Chromium whose task pane is set to that environment the way Settings
// would save it. Every token request the browser sends to the broker is recorded by grant type,
// and every request the broker receives by method and path.
import { mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { Page } from "playwright-core";
import { buildBroker } from "../../src/broker/app.js";
import { SANDBOX_PRODUCTION_ENVIRONMENT, productionAddresses, type EnvironmentSettings } from "../../src/core/settings/environment.js";
import { USER_SETTINGS_KEY } from "../../src/core/settings/userSettings.js";
import { startTestSandbox, type TestOptions, type TestSandbox } from "../helpers/sandbox.js";
import { keepRendererWarm } from "./browser.js";
import { buildTaskPane, launchChromium, serveDirectory, useStarted, type Chromium, type StaticServer } from "./helpers.js";

export const PRODUCTION_CLIENT = { clientId: "prod-chromium-client", clientSecret: "prod-chromium-secret" };

export interface ProductionTopology {
  pages: StaticServer;
  sandbox: TestSandbox;
  brokerUrl: string;
  environment: EnvironmentSettings;
  browser: Chromium;
  /** grant_type of each POST the browser sent to the broker's /token. */
  brokerGrants: string[];
  /** "POST /token" for each request the broker received. */
  brokerRequests: string[];
  close(): Promise<void>;
}

/**
 * The built pages plus `extra` files (name -> content) on one origin: a folder of links to the
 * build's entries beside the extra files, so the build itself is left as it is. The pages must
 * come from the server (not from a routed response): Chromium lets only a page on the loopback
 * address reach the loopback sandbox and broker.
 */
function pagesWith(built: string, extra: Record<string, string>): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "bizdata-e2e-pages-"));
  for (const name of readdirSync(built)) symlinkSync(join(built, name), join(dir, name));
  for (const [name, content] of Object.entries(extra)) writeFileSync(join(dir, name), content);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ProductionTopologyOptions {
  sandbox?: TestOptions;
  /** Installs Playwright's clock on the context before any page loads. */
  fakeClock?: boolean;
  /** Files served beside the built pages (name -> content). */
  extraPages?: Record<string, string>;
}

/**
 * startProductionTopology(options) before the tests of the current describe block (then
 * `ready`, in the same hook) and its close after them: see useStarted in helpers.ts.
 */
export function useProductionTopology(
  options: ProductionTopologyOptions = {},
  ready?: (topology: ProductionTopology) => Promise<void> | void,
): ProductionTopology {
  return useStarted(() => startProductionTopology(options), ready);
}

export async function startProductionTopology(options: ProductionTopologyOptions = {}): Promise<ProductionTopology> {
  const built = await buildTaskPane();
  const folder = options.extraPages ? pagesWith(built, options.extraPages) : undefined;
  const pages = await serveDirectory(folder?.dir ?? built);
  const sandbox = await startTestSandbox({ profile: "production", ...PRODUCTION_CLIENT, ...options.sandbox, corsOrigins: [pages.origin] });
  let broker: FastifyInstance | undefined;
  let browser: Chromium | undefined;
  try {
    broker = (await buildBroker({ upstream: `${sandbox.url}/gtm/oauth/v1/token`, ...PRODUCTION_CLIENT, allowOrigins: [pages.origin] }, { log: false })).app;
    const brokerRequests: string[] = [];
    broker.addHook("onRequest", async (req) => void brokerRequests.push(`${req.method} ${req.url}`));
    const brokerUrl = await broker.listen({ port: 0, host: "127.0.0.1" });
    const at = productionAddresses(`${sandbox.url}/gtm`);
    const environment: EnvironmentSettings = {
      ...SANDBOX_PRODUCTION_ENVIRONMENT,
      apiBaseUrl: at.apiBaseUrl,
      audiencesBaseUrl: at.audiencesBaseUrl,
      signIn: {
        ...SANDBOX_PRODUCTION_ENVIRONMENT.signIn,
        clientId: PRODUCTION_CLIENT.clientId,
        authority: at.authority,
        authorizeUrl: at.authorizeUrl,
        tokenEndpoint: `${brokerUrl}/token`,
      },
    };
    browser = await launchChromium();
    await keepRendererWarm(browser.context, pages.origin);
    // Before any page loads: every page and popup of the context reads this clock (it runs at
    // the real pace until a test moves it).
    if (options.fakeClock) await browser.context.clock.install();
    await browser.context.addInitScript(
      ({ key, value, origin }) => {
        if (location.origin === origin && !localStorage.getItem(key)) localStorage.setItem(key, value);
      },
      { key: USER_SETTINGS_KEY, value: JSON.stringify({ environment }), origin: pages.origin },
    );
    const brokerGrants: string[] = [];
    browser.context.on("request", (request) => {
      if (request.url().startsWith(`${brokerUrl}/token`) && request.method() === "POST") {
        brokerGrants.push(new URLSearchParams(request.postData() ?? "").get("grant_type") ?? "?");
      }
    });
    const openBroker = broker;
    const openBrowser = browser;
    return {
      pages,
      sandbox,
      brokerUrl,
      environment,
      browser,
      brokerGrants,
      brokerRequests,
      close: async () => {
        await openBrowser.close();
        await openBroker.close();
        await sandbox.close();
        await pages.close();
        folder?.remove();
      },
    };
  } catch (error) {
    await browser?.close();
    await broker?.close();
    await sandbox.close();
    await pages.close();
    folder?.remove();
    throw error;
  }
}

/** Signs in through the popup with the production profile's login form (no consent page). */
export async function signInThroughPopup(page: Page, email: string, password: string): Promise<URL> {
  const popupOpened = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Sign in", exact: true }).click({ timeout: 30_000 });
  const popup = await popupOpened;
  const authorizeUrl = new URL(popup.url());
  await popup.locator("#email").waitFor({ timeout: 30_000 });
  await popup.locator("#email").fill(email);
  await popup.locator("#password").fill(password);
  await popup.getByRole("button", { name: "Sign in" }).click();
  return authorizeUrl;
}
