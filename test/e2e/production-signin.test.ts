// Production topology in headless Chromium (browser mode): the task pane, set to the sandbox's
// production profile, signs in through a popup (no discovery, no scope, no id token) with the
// code exchanged through the token broker, then searches through the production edge.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { BROWSER_SKIP } from "./helpers.js";
import { signInThroughPopup, useProductionTopology } from "./productionTopology.js";

describe("production topology in Chromium: sign-in through the broker and a search", { skip: BROWSER_SKIP }, () => {
  let page: Page;
  const topology = useProductionTopology({}, async ({ browser, pages }) => {
    page = await browser.context.newPage();
    await page.goto(`${pages.origin}/taskpane.html`);
  });

  test("signs in through the popup and the broker, then a search goes through the production edge", async () => {
    const authorize = await signInThroughPopup(page, "analyst@example.com", "analyst-pass");
    assert.equal(authorize.searchParams.get("scope"), null, "no scope asked");
    await page.getByText("Signed in as").waitFor({ timeout: 30_000 });
    assert.deepEqual(topology.brokerGrants, ["authorization_code"]);

    const response = page.waitForResponse((r) => r.url().includes("/gtm/data/v1/companies/search") && r.request().method() === "POST", { timeout: 30_000 });
    await page.getByRole("tab", { name: "Companies" }).click();
    await page.locator("[role=tabpanel] > div:not([hidden])").getByRole("button", { name: "Search", exact: true }).click();
    assert.equal((await response).status(), 200);
    await page.getByText(/companies match/).waitFor({ timeout: 30_000 });
  });
});
