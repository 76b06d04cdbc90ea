// The whole production walk-through driven in the browser (the task pane in browser mode, in
// headless Chromium, 350 px wide), on the production topology: the sandbox's production profile
// behind the token broker. The seeded limited user (account "limited-fields", not entitled to
// some output fields) signs in through the popup and the broker, searches with a filter whose
// name differs on production's wire, enriches a column of ids asking a renamed field and an
// unentitled one, reads an audience's rows, starts a job and follows it to its end in the status
// panel, and, once the access token has expired, the next call renews it through the broker with
// the refresh token. After each step the pane is checked for sideways overflow.
//
// Time in the browser is Playwright's clock: expiry is reached by moving that clock past the
// token's lifetime, so no step sleeps.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page, Request, Route } from "playwright-core";
import { DEFAULT_OIDC_SETTINGS } from "../../src/sandbox/oidc/provider.js";
import { openSection, overflow, BROWSER_SKIP } from "./helpers.js";
import { signInThroughPopup, useProductionTopology } from "./productionTopology.js";

/** Further than the access token's lifetime, so the page holds an expired token. */
const PAST_EXPIRY_MS = (DEFAULT_OIDC_SETTINGS.accessTokenTtlSeconds + 60) * 1000;
const PANE_WIDTH = 350;
const AUDIENCE_NAME = "Limited accounts";
const NOT_ENTITLED_REVENUE = "Your account is not entitled to the field revenue. Ask your administrator, or remove it";

async function assertFits(page: Page, where: string): Promise<void> {
  assert.deepEqual(await overflow(page), [], `fits ${PANE_WIDTH} px: ${where}`);
}

async function sheet(page: Page): Promise<{ headers: string[]; rows: string[][] }> {
  const table = page.getByTestId("sheet-table");
  const headers = (await table.locator("thead th").allInnerTexts()).map((h) => h.trim());
  const rows: string[][] = [];
  for (const row of await table.locator("tbody tr").all()) rows.push(await row.locator("td").allInnerTexts());
  return { headers, rows };
}

const pathOf = (url: string) => new URL(url).pathname;
const isCompanyLookup = (url: URL) => url.pathname.endsWith("/gtm/data/v1/lookup/enrich") && url.searchParams.get("filter[entity]") === "company";

const SUITE = "production walk-through in the browser: sign-in, renamed names, entitlements, audience rows, a job, renewal";

describe(SUITE, { skip: BROWSER_SKIP, timeout: 600_000 }, () => {
  let page: Page;
  const errors: string[] = [];
  /** The company entitlement lookup is held until released: the user chooses fields before it answers. */
  const heldLookups: Route[] = [];
  let lookupsReleased = false;
  /** Resolves when the pane first asks the company entitlement lookup (the Enrich field picker does). */
  let lookupAsked: () => void = () => {};
  const firstLookup = new Promise<void>((resolve) => (lookupAsked = resolve));
  const dataRequests: Request[] = [];

  const topology = useProductionTopology({ fakeClock: true }, async ({ browser, pages }) => {
    page = await browser.context.newPage();
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("request", (r) => {
      if (r.url().includes("/gtm/data/v1/") || r.url().includes("/gtm/studio/v1/")) dataRequests.push(r);
    });
    await page.route(
      (url) => isCompanyLookup(url),
      (route) => {
        if (lookupsReleased) return route.continue();
        heldLookups.push(route);
        lookupAsked();
      },
    );
    await page.setViewportSize({ width: PANE_WIDTH, height: 800 });
    await page.goto(`${pages.origin}/taskpane.html`);
  });

  test("the limited user signs in through the popup; the code is exchanged through the broker", async () => {
    const authorize = await signInThroughPopup(page, "limited@example.com", "limited-pass");
    assert.equal(authorize.searchParams.get("scope"), null, "no scope asked");
    assert.equal(authorize.origin, new URL(topology.sandbox.url).origin);
    await page
      .getByText(/Signed in as/)
      .first()
      .waitFor({ timeout: 30_000 });
    assert.deepEqual(topology.brokerGrants, ["authorization_code"]);
    assert.deepEqual(
      topology.brokerRequests.filter((r) => r.startsWith("POST")),
      ["POST /token"],
    );
    await assertFits(page, "signed in");
  });

  test("a company search with a renamed filter (Contacts held from) goes out under production's name", async () => {
    await openSection(page, "Companies");
    const form = page.getByRole("region", { name: "Company search" });
    await form.getByRole("textbox", { name: "Company name" }).fill("Northwind Traders");
    await form.getByRole("button", { name: /^More size and revenue filters/ }).click();
    await form.getByRole("textbox", { name: "Contacts held from" }).fill("1");
    const searched = page.waitForRequest((r) => pathOf(r.url()).endsWith("/gtm/data/v1/companies/search") && r.method() === "POST");
    await form.getByRole("button", { name: "Search", exact: true }).click();
    const request = await searched;
    const attributes = (request.postDataJSON() as { data: { attributes: Record<string, unknown> } }).data.attributes;
    assert.equal(attributes.zoominfoContactsMin, "1", "production's name on the wire");
    assert.ok(!("serviceContactsMin" in attributes), "the contract's name stays inside the add-in");
    assert.equal((await request.response())?.status(), 200);
    await form.getByText(/compan(y|ies) match/).waitFor({ timeout: 30_000 });
    await page.getByTestId("preview-table").waitFor();
    await assertFits(page, "search results");
    await form.getByRole("button", { name: "Insert into sheet" }).click();
    await form
      .getByRole("status")
      .filter({ hasText: /Inserted \d+ compan/ })
      .waitFor({ timeout: 60_000 });
  });

  test("Enrich selection asking a renamed field and an unentitled one: the entitled fields arrive, the unentitled column says why", async () => {
    const before = await sheet(page);
    assert.equal(before.headers[0], "Company ID");
    assert.ok(before.rows.length > 0);
    await page.getByTestId("sheet-table").getByRole("button", { name: "Company ID", exact: true }).click();
    await openSection(page, "Enrich");
    const panel = page.getByRole("region", { name: "Enrich selection" });
    // The entitlement lookup has not answered yet: every field can still be chosen.
    // The pane asks the entitlement lookup (the insert's columns no longer do: they follow the search answer).
    await firstLookup;
    assert.ok(heldLookups.length > 0, "the pane asked the entitlement lookup");
    for (const name of ["Employee range", "Primary industry", "Phone", "Founded", "Description"]) {
      await panel.getByRole("checkbox", { name, exact: true }).uncheck();
    }
    await panel.getByRole("checkbox", { name: "Company name", exact: true }).check();
    await panel.getByRole("checkbox", { name: "Contacts held", exact: true }).check();
    await panel.getByRole("checkbox", { name: "Revenue ($K)", exact: true }).check();
    await panel.getByText("Fields (3 chosen)").waitFor();
    await panel.getByRole("button", { name: "Check selection" }).click();
    const plan = panel.getByRole("region", { name: "Before you run" });
    await plan.waitFor();
    await assertFits(page, "the Enrich plan");

    const enrichRequests: Request[] = [];
    const collect = (r: Request) => {
      if (pathOf(r.url()).endsWith("/gtm/data/v1/companies/enrich") && r.method() === "POST") enrichRequests.push(r);
    };
    page.on("request", collect);
    await plan.getByRole("button", { name: /^Enrich \d+ ids$/ }).click();
    // Now the lookup answers: it lists every field (production does not cut it to the entitlement).
    lookupsReleased = true;
    for (const route of heldLookups.splice(0)) await route.continue();
    const notice = panel.getByRole("status").filter({ hasText: /^Wrote 3 columns/ });
    await notice.waitFor({ timeout: 60_000 });
    page.off("request", collect);
    const asked = enrichRequests.map((r) => (r.postDataJSON() as { data: { attributes: { outputFields: string[] } } }).data.attributes.outputFields);
    assert.ok(asked[0]!.includes("numberOfContactsInZoomInfo"), `the renamed field under production's name: ${asked[0]!.join(", ")}`);
    // The service refuses revenue (400 PFAPI0001); the same ids go once more without it.
    assert.equal((await enrichRequests[0]!.response())?.status(), 400);
    assert.ok(asked[0]!.includes("revenue") && !asked[1]!.includes("revenue"), asked.map((a) => a.join(",")).join(" | "));
    assert.equal((await enrichRequests[1]!.response())?.status(), 200);
    assert.ok(
      asked.slice(1).every((fields) => !fields.includes("revenue")),
      "once refused, revenue is never asked again",
    );

    assert.match(await notice.innerText(), /"Revenue \(\$K\)" not filled: Your account is not entitled to the field revenue/);
    assert.doesNotMatch(await notice.innerText(), /with a problem/, "no row was refused");
    await assertFits(page, "the Enrich result");

    const after = await sheet(page);
    // The browser workbook numbers a repeated header ("Company name 2").
    const at = (prefix: string) => after.headers.reduce((found, h, i) => (h.startsWith(prefix) ? i : found), -1);
    const [name, held, revenue] = [at("Company name"), at("Contacts held"), at("Revenue ($K)")];
    assert.ok(name >= before.headers.length && held === name + 1 && revenue === held + 1, after.headers.join("|"));
    assert.equal(after.headers.includes("Enrichment status"), false);
    for (const row of after.rows) {
      assert.match(row[name] ?? "", /^Northwind Traders/);
      assert.match(row[held] ?? "", /^[\d,]+$/, "the renamed field arrived under the contract's column");
      assert.equal(row[revenue], NOT_ENTITLED_REVENUE);
    }
    // Once known, the picker marks the field and it can no longer be chosen.
    const marked = panel.getByRole("checkbox", { name: "Revenue ($K) (not in your account's plan)" });
    await marked.waitFor();
    assert.equal(await marked.isDisabled(), true);
    assert.deepEqual(errors, []);
  });

  test("an audience's rows are read through the studio search, and a job is started and followed to its end", async () => {
    const created = await fetch(`${topology.sandbox.url}/__sandbox/audiences`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: AUDIENCE_NAME, type: "COMPANY", recordIds: [21, 22, 23, 1, 2, 3], account: "limited-fields" }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    await openSection(page, "Jobs");
    await page.getByRole("button", { name: "Start enrichment" }).waitFor({ timeout: 30_000 });
    await page.getByRole("combobox", { name: "Audience" }).selectOption({ label: `${AUDIENCE_NAME} (6 companies)` });

    const rowsRead = page.waitForRequest((r) => /\/gtm\/studio\/v1\/audiences\/[^/]+\/rows\/actions\/search$/.test(pathOf(r.url())) && r.method() === "POST");
    await page.getByRole("radio", { name: "Chosen rows" }).check();
    assert.equal((await (await rowsRead).response())?.status(), 200);
    const boxes = page.getByRole("group", { name: "Rows of the audience" }).getByRole("checkbox");
    await boxes.first().waitFor({ timeout: 30_000 });
    assert.equal(await boxes.count(), 6, "every row of the audience");
    assert.ok(
      dataRequests.every((r) => !(r.method() === "GET" && /\/rows(\?|$)/.test(r.url()))),
      "never GET .../rows (production answers 404)",
    );
    for (let i = 0; i < 3; i++) await boxes.nth(i).check();
    await page.getByText("3 rows chosen").waitFor();
    await assertFits(page, "the audience's rows");

    await page.getByRole("button", { name: "Start enrichment" }).click();
    await page.getByRole("button", { name: /^Start: at most/ }).click();
    await page.getByRole("status").filter({ hasText: "started" }).waitFor({ timeout: 30_000 });
    const item = page.locator("li[data-job-id]").filter({ hasText: AUDIENCE_NAME }).first();
    const terminal = page.locator(["SUCCEEDED", "PARTIALLY_SUCCEEDED", "FAILED"].map((s) => `[data-state="${s}"]`).join(", "));
    await item.and(terminal).waitFor({ timeout: 60_000 });
    assert.equal(await item.getAttribute("data-state"), "SUCCEEDED");
    assert.equal(await item.getByTestId("job-percent").innerText(), "100%");
    await assertFits(page, "the finished job");
    assert.deepEqual(errors, []);
  });

  test("after the access token expires, the next call renews it through the broker with the refresh token", async () => {
    const grantsBefore = topology.brokerGrants.length;
    const brokerBefore = topology.brokerRequests.length;
    const popups: Page[] = [];
    page.context().on("page", (p) => popups.push(p));
    // The page's clock passes the token's expiry: the add-in must renew before using it.
    await page.clock.fastForward(PAST_EXPIRY_MS);
    await openSection(page, "Companies");
    const form = page.getByRole("region", { name: "Company search" });
    const searched = page.waitForResponse((r) => pathOf(r.url()).endsWith("/gtm/data/v1/companies/search") && r.request().method() === "POST", {
      timeout: 30_000,
    });
    await form.getByRole("button", { name: "Search", exact: true }).click();
    assert.equal((await searched).status(), 200);
    assert.deepEqual(topology.brokerGrants.slice(grantsBefore), ["refresh_token"], "one renewal, with the refresh token, through the broker");
    assert.deepEqual(
      topology.brokerRequests.slice(brokerBefore).filter((r) => r.startsWith("POST")),
      ["POST /token"],
    );
    assert.deepEqual(popups, [], "no sign-in window");
    await page
      .getByText(/Signed in as/)
      .first()
      .waitFor();
    assert.deepEqual(errors, []);
  });
});
