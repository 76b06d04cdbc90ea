// The task pane at a task pane's width (320 and 400 px) in headless Chromium against the
// sandbox: every tab fits without sideways scrolling and passes axe; each message state (busy
// search, stale preview, failed search, cancelled and finished inserts, enrichment plan
// warnings and result, the jobs 402, a user without a data role) wraps inside the pane; pickers
// and menus open inside the viewport.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { assertFits, boxOf, chromiumAvailable, openSection, seriousAccessibilityViolations, startE2E, type E2E } from "./helpers.js";

const skip = chromiumAvailable() ? false : "Chromium is not installed (/usr/bin/chromium)";

const TABS: Record<string, (page: Page) => Promise<unknown>> = {
  Companies: (page) => page.getByRole("region", { name: "Company search" }).waitFor(),
  Contacts: (page) => page.getByRole("region", { name: "Contact search" }).waitFor(),
  Saved: (page) => page.getByText("No saved searches in this workbook yet.").waitFor(),
  Enrich: (page) => page.getByRole("region", { name: "Enrich selection" }).waitFor(),
  Jobs: (page) => page.getByRole("button", { name: "Start enrichment" }).waitFor(),
  Settings: (page) => page.getByRole("region", { name: "Settings" }).waitFor(),
};

/** Opens a section (the More menu, when it opens, must fit too) and waits until it is ready. */
async function openTab(page: Page, name: string, ready: (page: Page) => Promise<unknown> = TABS[name]!): Promise<void> {
  await openSection(page, name, { whenMenuOpen: () => assertFits(page, `the More menu (for ${name})`) });
  await ready(page);
}

async function openNarrow(e2e: E2E, width: number): Promise<{ page: Page; errors: string[] }> {
  const opened = await e2e.openTaskPane();
  await opened.page.setViewportSize({ width, height: 800 });
  // Seven tabs never fit 400 px: the strip shows what fits and a More menu.
  await opened.page.getByRole("button", { name: /^More sections/ }).waitFor();
  return opened;
}

/** Presses Tab until the focused element is `target`; returns how many Tabs it took (at most `max`). */
async function tabTo(page: Page, target: Locator, max: number): Promise<number> {
  for (let tabs = 1; tabs <= max; tabs++) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((el) => el === document.activeElement)) return tabs;
  }
  return Infinity;
}

/** The usage takes a summary line or two before the tabs; its disclosure shows every gauge with what is left, inside the pane. */
async function assertUsageCompact(page: Page): Promise<void> {
  const usage = page.getByRole("region", { name: "Account usage" });
  const closed = await boxOf(usage);
  assert.ok(closed.height <= 56, `the usage summary is ${closed.height} px high`);
  const tabs = await boxOf(page.getByRole("tablist", { name: "Task pane sections" }));
  assert.ok(tabs.y < 200, `the tabs start at ${tabs.y} px`);
  await usage.getByTestId("usage-summary").click();
  await usage
    .getByText(/ used · [\d,]+ left/)
    .first()
    .waitFor();
  assert.equal(await usage.getByText(/ used · [\d,]+ left/).count(), 4, "requests, records, AI credits and credits");
  await assertFits(page, "the usage details");
  await usage.getByTestId("usage-summary").click();
  await usage
    .getByText(/ used · [\d,]+ left/)
    .first()
    .waitFor({ state: "hidden" });
}

describe("the task pane at a task pane's width", { skip, timeout: 600_000 }, () => {
  let e2e: E2E;
  before(async () => {
    e2e = await startE2E({ sandbox: { companies: 300 } });
  });
  after(async () => {
    await e2e?.close();
  });

  for (const width of [320, 400]) {
    test(`${width} px: every tab fits, keeps the header in place and passes axe`, async () => {
      const { page, errors } = await openNarrow(e2e, width);
      await assertUsageCompact(page);
      const heading = page.getByRole("heading", { name: "BizData" });
      const home = await boxOf(heading);
      for (const name of Object.keys(TABS)) {
        await openTab(page, name);
        await assertFits(page, name);
        assert.deepEqual(await boxOf(heading), home, `${name} does not shift the pane`);
        const violations = await seriousAccessibilityViolations(page);
        assert.deepEqual(violations, [], `${name}: ${JSON.stringify(violations, null, 2)}`);
      }
      // A picker opens inside the pane, also when its field is mid-pane.
      await openTab(page, "Companies");
      const form = page.getByRole("region", { name: "Company search" });
      await form.getByRole("button", { name: "Industry and technology", exact: true }).scrollIntoViewIfNeeded();
      const industries = form.getByRole("combobox", { name: "Industries" });
      await industries.click();
      await page.getByRole("menuitemcheckbox", { name: "Software", exact: true }).waitFor();
      await assertFits(page, "Industries picker open");
      await page.keyboard.press("Escape");
      const state = form.getByRole("combobox", { name: "State" });
      await state.click();
      await page.getByRole("option", { name: "California", exact: true }).waitFor();
      await assertFits(page, "State picker open");
      // State filters as you type, like Industries.
      await state.fill("Cal");
      await page.getByRole("option", { name: "California", exact: true }).waitFor();
      assert.equal(await page.getByRole("option", { name: "Texas", exact: true }).count(), 0, "Texas is filtered out");
      await page.keyboard.press("Escape");
      await state.fill("");
      // One Tab stop per picker: Tab goes from State straight on to Zip code.
      await state.focus();
      await page.keyboard.press("Tab");
      assert.equal(await page.evaluate(() => document.activeElement?.id), "filter-zipCode");
      assert.deepEqual(errors, []);
      await page.close();
    });

    test(`${width} px: search, preview and insert messages wrap; one search at a time`, async () => {
      const { page, errors } = await openNarrow(e2e, width);
      const form = page.getByRole("region", { name: "Company search" });
      const searches: string[] = [];
      // Searches the service took: a request refused 429 and sent again (the pane's lookups may fill
      // the sandbox's second under load) is the same search, not a second one.
      page.on("response", (r) => r.request().method() === "POST" && r.url().includes("/companies/search") && r.status() !== 429 && searches.push(r.url()));

      // Busy: the button is disabled with a spinner; a second click starts nothing. The search is
      // held long enough that a busy machine still finds it under way when it looks.
      await e2e.sandbox.setFaults({ latencyMs: 3000 });
      const search = form.getByRole("button", { name: "Search", exact: true });
      await search.click();
      await form.getByRole("status").filter({ hasText: "Searching…" }).waitFor();
      assert.equal(await search.isDisabled(), true);
      await search.dispatchEvent("click");
      await assertFits(page, "searching");
      const status = form.getByRole("status").filter({ hasText: /companies match/ });
      await status.waitFor();
      await e2e.sandbox.setFaults({ latencyMs: 0 });
      assert.equal(searches.length, 1, "one search request");
      await assertFits(page, "preview");

      // Thousands separators are understood; a negative employee count is refused.
      await form.getByRole("textbox", { name: "Revenue from ($K)" }).fill("1,000");
      assert.equal(await form.getByText("Revenue from ($K) must be a whole number", { exact: false }).count(), 0);
      await form.getByRole("textbox", { name: "Employees from" }).fill("-5");
      await form.getByText("Employees from must be 0 or more.", { exact: true }).waitFor();
      await form.getByRole("textbox", { name: "Employees from" }).fill("");
      await form.getByRole("textbox", { name: "Revenue from ($K)" }).fill("");

      // The form changed: the preview says it no longer matches.
      const name = form.getByRole("textbox", { name: "Company name" });
      await name.fill("Formula");
      await form.getByTestId("preview-stale").waitFor();
      await assertFits(page, "stale preview");
      // Enter in a text field runs the search.
      await name.press("Enter");
      await form.getByRole("status").filter({ hasText: "5 companies match." }).waitFor();
      await form.getByTestId("preview-stale").waitFor({ state: "detached" });
      assert.equal(await form.getByRole("button", { name: "Next page" }).count(), 0, "one page: no paging buttons");

      // A failed search leaves no earlier results under its message.
      await e2e.sandbox.setFaults({ failRate: 1 });
      await name.fill("Formula Plus");
      await name.press("Enter");
      await form
        .locator(".fui-MessageBar")
        .filter({ hasText: /problem|try again/i })
        .first()
        .waitFor({ timeout: 60_000 });
      await e2e.sandbox.setFaults({ failRate: 0 });
      assert.equal(await form.getByTestId("preview-table").count(), 0, "no old results under the error");
      await assertFits(page, "failed search");

      // Cancelled and finished inserts.
      await name.fill("");
      await e2e.sandbox.setFaults({ latencyMs: 1500 });
      await form.getByRole("button", { name: "Insert into sheet" }).click();
      // Pages are fetched side by side, so a small search has no moment with some rows written:
      // cancel while its first requests wait on the latency (Cancel is there only while inserting).
      await form.getByRole("button", { name: "Cancel" }).click();
      await form
        .getByRole("status")
        .filter({ hasText: /^Stopped/ })
        .waitFor();
      await e2e.sandbox.setFaults({ latencyMs: 0 });
      await assertFits(page, "cancelled insert");
      await form.getByRole("button", { name: "Insert into sheet" }).click();
      await form
        .getByRole("status")
        .filter({ hasText: /^Inserted 300 companies/ })
        .waitFor({ timeout: 60_000 });
      await assertFits(page, "finished insert");
      assert.deepEqual(errors, []);
      await page.close();
    });

    test(`${width} px: enrichment plan warnings, its result and the jobs 402 wrap`, async () => {
      const { page, errors } = await openNarrow(e2e, width);
      const form = page.getByRole("region", { name: "Company search" });
      await form.getByRole("textbox", { name: "Company name" }).fill("Formula");
      await form.getByRole("button", { name: "Insert into sheet" }).click();
      await form
        .getByRole("status")
        .filter({ hasText: /^Inserted 5 companies/ })
        .waitFor();
      await page.getByTestId("sheet-table").getByRole("button", { name: "Company ID" }).click();
      await openTab(page, "Enrich");
      const panel = page.getByRole("region", { name: "Enrich selection" });
      // One instruction paragraph for browser mode.
      assert.equal(await panel.getByText(/Select a column of company ids/).count(), 0);
      await panel.getByText(/Pick the column of ids/).waitFor();

      // Today's limit of 1 and an account with no credits: both said before running.
      await panel.getByRole("spinbutton", { name: "New records per day" }).fill("1");
      await panel.getByRole("button", { name: "Save", exact: true }).click();
      await panel.getByText("Saved: up to 1 new records a day.").waitFor();
      await e2e.sandbox.setAccount("default", 0);
      await panel.getByRole("button", { name: "Check selection" }).click();
      await panel.getByText(/new records are left of today's limit/).waitFor();
      await panel.getByText(/Your account has no credits left for new records/).waitFor();
      await assertFits(page, "plan warnings");
      await panel.getByRole("button", { name: "Enrich 5 ids" }).click();
      await panel.getByText(/Wrote \d+ columns to /).waitFor({ timeout: 60_000 });
      await assertFits(page, "enrich result");
      // The defaults add columns the table does not have.
      const headers = await page.getByTestId("sheet-table").locator("thead th").allInnerTexts();
      assert.deepEqual(
        headers.filter((h) => / 2$/.test(h)),
        [],
        headers.join(" | "),
      );

      await openTab(page, "Jobs");
      await page.getByRole("button", { name: "Start enrichment" }).click();
      await page.getByRole("button", { name: /^Start: at most/ }).click();
      // The start refused for no credits: the one sentence (the estimate's warning above goes on after it).
      await page.getByText(/^Your account has no credits left for new records\. Ask your administrator for more credits\.( \(Reference: [^)]+\))?$/).waitFor();
      await assertFits(page, "jobs 402");
      await e2e.sandbox.setAccount("default", 100_000);
      assert.deepEqual(errors, []);
      await page.close();
    });

    test(`${width} px: a user without a data role sees both roles named and Try again in view`, async () => {
      const page = await e2e.chromium.context.newPage();
      // The development token of a user with no role (like the sandbox's norole user).
      await page.route("**/__sandbox/token", (route) => route.continue({ postData: JSON.stringify({ roles: [] }) }));
      await page.setViewportSize({ width, height: 800 });
      await page.goto(e2e.taskPaneUrl());
      const form = page.getByRole("region", { name: "Company search" });
      await form.getByRole("button", { name: "Search", exact: true }).click();
      await form.getByText(/one of the roles "fea:zia" or "fea:api"/).waitFor();
      await assertFits(page, "norole search");
      // Jobs shows why the audiences cannot be read, with Try again, instead of its Start button.
      const retry = page.getByRole("button", { name: "Try again" });
      await openTab(page, "Jobs", () => retry.waitFor());
      const box = await boxOf(retry);
      assert.ok(box.x >= 0 && box.x + box.width <= width, `Try again at x ${box.x}`);
      await assertFits(page, "norole jobs");
      const violations = await seriousAccessibilityViolations(page);
      assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
      await page.close();
    });
  }

  test("350 px: after Start the new job is scrolled into view", async () => {
    const opened = await e2e.openTaskPane();
    const { page, errors } = opened;
    await page.setViewportSize({ width: 350, height: 600 });
    // The strip is laid out again for the new width before a tab is looked for.
    await page.getByRole("button", { name: /^More sections/ }).waitFor();
    await openTab(page, "Jobs");
    const heading = page.getByRole("heading", { name: "Your jobs" });
    const inView = (box: { y: number; height: number }) => box.y >= 0 && box.y + box.height <= 600;
    // Before Start the list is below the fold, so the scroll is what brings it into view.
    assert.equal(inView(await boxOf(heading)), false, "the job list starts below the fold");
    const audience = page.getByRole("combobox", { name: "Audience" });
    const first = await audience.locator("option").nth(1).getAttribute("value");
    await audience.selectOption(first!);
    await page.getByRole("button", { name: "Start enrichment" }).click();
    await page.getByRole("button", { name: /^Start: at most/ }).click();
    await page.getByRole("status").filter({ hasText: "started" }).waitFor();
    const job = page.locator("[data-job-id]").first();
    await job.waitFor();
    assert.ok(inView(await boxOf(heading)), "the Your jobs heading is in view");
    const box = await boxOf(job);
    assert.ok(box.y >= 0 && box.y < 600, `the new job at y ${box.y}`);
    assert.deepEqual(errors, []);
    await page.close();
  });

  for (const width of [350, 320]) {
    test(`${width} px: from the page's start to an inserted table in at most 15 Tabs; focus moves to each result`, async () => {
      const { page, errors } = await e2e.openTaskPane();
      await page.setViewportSize({ width, height: 900 });
      const form = page.getByRole("region", { name: "Company search" });
      const name = form.getByRole("textbox", { name: "Company name" });
      await name.waitFor();
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const toName = await tabTo(page, name, 15);
      await page.keyboard.type("a");
      await page.keyboard.press("Enter");
      // After Search: the results have the focus.
      const results = form.getByRole("region", { name: "Search results" });
      await page.getByTestId("preview-table").waitFor();
      await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label") === "Search results");
      const insert = form.getByRole("button", { name: "Insert into sheet" });
      const toInsert = await tabTo(page, insert, 15 - toName);
      assert.ok(toName + toInsert <= 15, `${toName} Tabs to the name, then ${toInsert} to Insert`);
      assert.equal(await results.locator("a[href]:not([tabindex='-1'])").count(), 0, "the preview's links are no Tab stops");
      await page.keyboard.press("Enter");
      // After Insert: the outcome message has the focus.
      await form
        .getByRole("status")
        .filter({ hasText: /^Inserted / })
        .waitFor({ timeout: 60_000 });
      await page.waitForFunction(() => /^Inserted /.test(document.activeElement?.textContent ?? ""));
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
});
