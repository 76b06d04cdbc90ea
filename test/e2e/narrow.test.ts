// The task pane at a task pane's width (320 and 400 px) in headless Chromium against the
// sandbox: every tab fits without sideways scrolling and passes axe; each search message state
// (busy search, stale preview, failed search, cancelled and finished inserts) wraps inside the
// pane; pickers and menus open inside the viewport. Each flow is walked once, at 320 px, and
// wherever it checks the layout it checks it at both widths (atWidths in helpers.ts); what does
// not depend on the width is checked once. narrow-flows.test.ts walks the enrichment, jobs and
// keyboard flows at the same widths.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assertFits, assertFitsAtWidths, atWidths, boxOf, seriousAccessibilityViolations, useE2E, BROWSER_SKIP } from "./helpers.js";
import { assertUsageCompact, openNarrow, openTab, TABS } from "./narrowPane.js";

describe("the task pane at a task pane's width", { skip: BROWSER_SKIP, timeout: 600_000 }, () => {
  const e2e = useE2E({ sandbox: { companies: 300 } });

  // The flows walk at the first width; their layout is checked at each.
  const WIDTHS = [320, 400];

  test("320 and 400 px: every tab fits, keeps the header in place and passes axe", async () => {
    const { page, errors } = await openNarrow(e2e, WIDTHS[0]!);
    await assertUsageCompact(page, WIDTHS);
    const heading = page.getByRole("heading", { name: "BizData" });
    // Where the header sits at each width, before any tab is opened.
    const home = new Map<number, Awaited<ReturnType<typeof boxOf>>>();
    await atWidths(page, WIDTHS, async (width) => {
      // Seven tabs never fit 400 px: the strip shows what fits and a More menu.
      await page.getByRole("button", { name: /^More sections/ }).waitFor();
      home.set(width, await boxOf(heading));
    });
    for (const name of Object.keys(TABS)) {
      await openTab(page, name, { widths: WIDTHS });
      await atWidths(page, WIDTHS, async (width) => {
        await assertFits(page, `${name} at ${width} px`);
        assert.deepEqual(await boxOf(heading), home.get(width), `${name} does not shift the pane at ${width} px`);
        const violations = await seriousAccessibilityViolations(page);
        assert.deepEqual(violations, [], `${name} at ${width} px: ${JSON.stringify(violations, null, 2)}`);
      });
    }
    // A picker opens inside the pane, also when its field is mid-pane.
    await openTab(page, "Companies", { widths: WIDTHS });
    const form = page.getByRole("region", { name: "Company search" });
    await form.getByRole("button", { name: "Industry and technology", exact: true }).scrollIntoViewIfNeeded();
    const industries = form.getByRole("combobox", { name: "Industries" });
    await industries.click();
    await page.getByRole("menuitemcheckbox", { name: "Software", exact: true }).waitFor();
    await assertFitsAtWidths(page, "Industries picker open", WIDTHS);
    await page.keyboard.press("Escape");
    const state = form.getByRole("combobox", { name: "State" });
    await state.click();
    await page.getByRole("option", { name: "California", exact: true }).waitFor();
    await assertFitsAtWidths(page, "State picker open", WIDTHS);
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

  test("320 and 400 px: search, preview and insert messages wrap; one search at a time", async () => {
    const { page, errors } = await openNarrow(e2e, WIDTHS[0]!);
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
    await assertFitsAtWidths(page, "searching", WIDTHS);
    const status = form.getByRole("status").filter({ hasText: /companies match/ });
    await status.waitFor();
    await e2e.sandbox.setFaults({ latencyMs: 0 });
    assert.equal(searches.length, 1, "one search request");
    await assertFitsAtWidths(page, "preview", WIDTHS);

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
    await assertFitsAtWidths(page, "stale preview", WIDTHS);
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
    await assertFitsAtWidths(page, "failed search", WIDTHS);

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
    await assertFitsAtWidths(page, "cancelled insert", WIDTHS);
    await form.getByRole("button", { name: "Insert into sheet" }).click();
    await form
      .getByRole("status")
      .filter({ hasText: /^Inserted 300 companies/ })
      .waitFor({ timeout: 60_000 });
    await assertFitsAtWidths(page, "finished insert", WIDTHS);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
