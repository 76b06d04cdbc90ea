// The task pane's flows at a task pane's width (320 to 400 px) in headless Chromium against the
// sandbox: enrichment plan warnings and result and the jobs 402 wrap; a user without a data role
// sees both roles named and Try again in view; a new job is scrolled into view; the keyboard
// reaches an inserted table in at most 15 Tabs. The enrichment and no-role flows are walked once,
// at 320 px, and check their layout at 320 and 400 px (atWidths in helpers.ts); the keyboard walk
// counts its Tabs at 350 and 320 px in one pane. narrow.test.ts checks every tab and the search
// messages at the same widths.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assertFits, assertFitsAtWidths, atWidths, boxOf, layoutSettled, seriousAccessibilityViolations, useE2E, BROWSER_SKIP } from "./helpers.js";
import { NARROW_HEIGHT, openNarrow, openTab, tabTo } from "./narrowPane.js";

describe("the task pane's flows at a task pane's width", { skip: BROWSER_SKIP, timeout: 600_000 }, () => {
  const e2e = useE2E({ sandbox: { companies: 300 } });

  // The flows walk at the first width; their layout is checked at each.
  const WIDTHS = [320, 400];

  test("320 and 400 px: enrichment plan warnings, its result and the jobs 402 wrap", async () => {
    const { page, errors } = await openNarrow(e2e, WIDTHS[0]!);
    const form = page.getByRole("region", { name: "Company search" });
    await form.getByRole("textbox", { name: "Company name" }).fill("Formula");
    await form.getByRole("button", { name: "Insert into sheet" }).click();
    await form
      .getByRole("status")
      .filter({ hasText: /^Inserted 5 companies/ })
      .waitFor();
    await page.getByTestId("sheet-table").getByRole("button", { name: "Company ID" }).click();
    await openTab(page, "Enrich", { widths: WIDTHS });
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
    await assertFitsAtWidths(page, "plan warnings", WIDTHS);
    await panel.getByRole("button", { name: "Enrich 5 ids" }).click();
    await panel.getByText(/Wrote \d+ columns to /).waitFor({ timeout: 60_000 });
    await assertFitsAtWidths(page, "enrich result", WIDTHS);
    // The defaults add columns the table does not have.
    const headers = await page.getByTestId("sheet-table").locator("thead th").allInnerTexts();
    assert.deepEqual(
      headers.filter((h) => / 2$/.test(h)),
      [],
      headers.join(" | "),
    );

    await openTab(page, "Jobs", { widths: WIDTHS });
    await page.getByRole("button", { name: "Start enrichment" }).click();
    await page.getByRole("button", { name: /^Start: at most/ }).click();
    // The start refused for no credits: the one sentence (the estimate's warning above goes on after it).
    await page.getByText(/^Your account has no credits left for new records\. Ask your administrator for more credits\.( \(Reference: [^)]+\))?$/).waitFor();
    await assertFitsAtWidths(page, "jobs 402", WIDTHS);
    await e2e.sandbox.setAccount("default", 100_000);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("320 and 400 px: a user without a data role sees both roles named and Try again in view", async () => {
    const page = await e2e.chromium.context.newPage();
    // The development token of a user with no role (like the sandbox's norole user).
    await page.route("**/__sandbox/token", (route) => route.continue({ postData: JSON.stringify({ roles: [] }) }));
    await page.setViewportSize({ width: WIDTHS[0]!, height: NARROW_HEIGHT });
    await page.goto(e2e.taskPaneUrl());
    const form = page.getByRole("region", { name: "Company search" });
    await form.getByRole("button", { name: "Search", exact: true }).click();
    await form.getByText(/one of the roles "fea:zia" or "fea:api"/).waitFor();
    await assertFitsAtWidths(page, "norole search", WIDTHS);
    // Jobs shows why the audiences cannot be read, with Try again, instead of its Start button.
    const retry = page.getByRole("button", { name: "Try again" });
    await openTab(page, "Jobs", { ready: () => retry.waitFor(), widths: WIDTHS });
    await atWidths(page, WIDTHS, async (width) => {
      const box = await boxOf(retry);
      assert.ok(box.x >= 0 && box.x + box.width <= width, `Try again at x ${box.x} at ${width} px`);
      await assertFits(page, `norole jobs at ${width} px`);
      const violations = await seriousAccessibilityViolations(page);
      assert.deepEqual(violations, [], `at ${width} px: ${JSON.stringify(violations, null, 2)}`);
    });
    await page.close();
  });

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

  test("350 and 320 px: from the page's start to an inserted table in at most 15 Tabs; focus moves to each result", async () => {
    const { page, errors } = await e2e.openTaskPane();
    const form = page.getByRole("region", { name: "Company search" });
    const name = form.getByRole("textbox", { name: "Company name" });
    const results = form.getByRole("region", { name: "Search results" });
    const insert = form.getByRole("button", { name: "Insert into sheet" });
    // The Tabs from the page's start to a search and on to Insert, counted at the pane's width:
    // which stops there are can depend on the width, so they are counted at each, 350 px first
    // (on a fresh pane), then 320 px, where the flow goes on to the insert.
    const tabsToInsert = async (width: number, typed: string) => {
      await page.setViewportSize({ width, height: 900 });
      await name.waitFor();
      await layoutSettled(page);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const toName = await tabTo(page, name, 15);
      await page.keyboard.type(typed);
      await page.keyboard.press("Enter");
      // After Search: the results have the focus.
      await page.getByTestId("preview-table").waitFor();
      await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label") === "Search results");
      const toInsert = await tabTo(page, insert, 15 - toName);
      assert.ok(toName + toInsert <= 15, `${toName} Tabs to the name, then ${toInsert} to Insert, at ${width} px`);
    };
    await tabsToInsert(350, "a");
    assert.equal(await results.locator("a[href]:not([tabindex='-1'])").count(), 0, "the preview's links are no Tab stops");
    // The name holds "a" already: Enter searches it again.
    await tabsToInsert(320, "");
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
});
