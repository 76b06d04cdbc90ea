// Matching a list in the Enrich panel at a task pane's width (320 and 350 px), in browser mode,
// in headless Chromium against the sandbox: a second run on the same column offers to update the
// first run's columns and the table's headers stay unique; an ambiguous name says what was used
// and what would decide, numbered by the sheet's row; a row corrected in the pane is asked again
// and the pane says what the retry changed. Nothing scrolls sideways on the way: the flow is walked
// once, at 320 px, and each of its layout checks is made at 320 and 350 px (atWidths in helpers.ts).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { assertFitsAtWidths, openSection, useE2E, BROWSER_SKIP } from "./helpers.js";

async function headers(page: Page): Promise<string[]> {
  return (await page.getByTestId("sheet-table").locator("thead th").allInnerTexts()).map((h) => h.trim());
}

async function cells(page: Page, column: number): Promise<string[]> {
  const out: string[] = [];
  for (const row of await page.getByTestId("sheet-table").locator("tbody tr").all()) out.push((await row.locator("td").nth(column).innerText()).trim());
  return out;
}

describe("Enrich selection: matching a list at a task pane's width", { skip: BROWSER_SKIP, timeout: 600_000 }, () => {
  const e2e = useE2E();

  // The flow walks at the first width; its layout is checked at each.
  const WIDTHS = [320, 350];

  test("320 and 350 px: a second run updates the first run's columns; an unmatched row corrected in the pane is retried", async () => {
    const { page, errors } = await e2e.openTaskPane();
    await page.setViewportSize({ width: WIDTHS[0]!, height: 900 });
    const form = page.getByRole("region", { name: "Company search" });
    await form.getByRole("textbox", { name: "Company name" }).fill("Northwind Traders");
    await form.getByRole("button", { name: "Insert into sheet" }).click();
    await form
      .getByRole("status")
      .filter({ hasText: /Inserted \d+ compan/ })
      .waitFor({ timeout: 60_000 });
    const table = await headers(page);
    const nameColumn = table.indexOf("Company name");
    const websiteColumn = table.indexOf("Website");
    assert.ok(nameColumn >= 0 && websiteColumn >= 0, table.join("|"));
    const rows = (await cells(page, nameColumn)).length;
    assert.ok(rows >= 3, "the three Northwind Traders share a name");

    // Matching by name with no country or city: every row is ambiguous, by its sheet row.
    await page.getByTestId("sheet-table").getByRole("button", { name: "Company name", exact: true }).click();
    await openSection(page, "Enrich");
    const panel = page.getByRole("region", { name: "Enrich selection" });
    await panel.waitFor();
    // The browser's cache is shared by the pages of this run: start from an empty one.
    await panel.getByRole("button", { name: "Clear cache" }).click();
    await panel.getByText(/^Cache cleared/).waitFor();
    await panel.getByRole("radio", { name: "Websites, names, emails" }).click();
    await panel.getByRole("button", { name: "Read selection" }).click();
    await panel.getByRole("combobox", { name: "The column holds" }).selectOption("name");
    for (const which of ["Country column", "City column"]) {
      const picker = panel.getByRole("combobox", { name: which });
      if ((await picker.count()) > 0) await picker.selectOption("");
    }
    await panel.getByRole("button", { name: "Check list" }).click();
    await panel.getByRole("region", { name: "Before you run" }).getByRole("button", { name: "Match and enrich" }).click();
    await panel
      .getByRole("status")
      .filter({ hasText: /^Wrote \d+ columns/ })
      .waitFor({ timeout: 60_000 });
    const unmatched = panel.getByRole("region", { name: "Rows not matched" });
    await unmatched
      .getByText(
        /^Row 2 \(Northwind Traders[^)]*\): Ambiguous: several companies match "Northwind Traders[^"]*" \(name used\); a country or city column, or the website, would decide/,
      )
      .waitFor();
    // The status lists the companies that fit the name (a free search), to type the right one's website.
    await unmatched.getByText(/^Row 2 \(.*Companies that fit: Northwind Traders[^(]*\(id \d+/).waitFor();
    await assertFitsAtWidths(page, "the unmatched rows", WIDTHS);
    const afterFirst = await headers(page);
    assert.equal(new Set(afterFirst.map((h) => h.toLowerCase())).size, afterFirst.length, `unique headers: ${afterFirst.join("|")}`);
    // The matched columns are named by what they hold, not numbered beside the table's own.
    assert.ok(afterFirst.includes("Company ID (by name)") && afterFirst.includes("Match status (by name)"), afterFirst.join("|"));
    assert.deepEqual(
      afterFirst.filter((h) => /^(Company ID|Match status) \d+$/.test(h)),
      [],
      afterFirst.join("|"),
    );

    // Row 2 corrected in the pane to its website: only that row is asked again, and the pane says so.
    const website = (await cells(page, websiteColumn))[0]!;
    e2e.sandbox.resetStats();
    await unmatched.getByRole("textbox", { name: "Correct row 2" }).fill(website);
    await unmatched.getByRole("button", { name: "Retry 1 corrected row" }).click();
    await panel
      .getByRole("status")
      .filter({ hasText: /^Retried 1 row: 1 now matched \(row 2\), \d+ still not matched/ })
      .waitFor({ timeout: 60_000 });
    assert.equal(e2e.sandbox.requests("POST /data/v1/companies/enrich"), 1, "one request, for the corrected row");
    const afterRetry = await headers(page);
    assert.deepEqual(afterRetry, afterFirst, "the retry rewrote the first run's columns");
    const statusColumn = afterRetry.lastIndexOf("Match status (by name)");
    assert.equal((await cells(page, statusColumn))[0], "Matched");
    await assertFitsAtWidths(page, "the retry's result", WIDTHS);

    // A second run on the same column offers to update the first run's columns.
    await panel.getByRole("button", { name: "Check list" }).click();
    await panel.getByRole("region", { name: "Before you run" }).getByRole("button", { name: "Match and enrich" }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByText(/This column was enriched before/).waitFor();
    await assertFitsAtWidths(page, "the update question", WIDTHS);
    await dialog.getByRole("button", { name: "Update them" }).click();
    await panel
      .getByRole("status")
      .filter({ hasText: /^Wrote \d+ columns/ })
      .waitFor({ timeout: 60_000 });
    assert.deepEqual(await headers(page), afterFirst, "no second set of columns");

    // Adding new columns instead keeps every header unique.
    await panel.getByRole("button", { name: "Check list" }).click();
    await panel.getByRole("region", { name: "Before you run" }).getByRole("button", { name: "Match and enrich" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Add new columns" }).click();
    await panel
      .getByRole("status")
      .filter({ hasText: /^Wrote \d+ columns/ })
      .waitFor({ timeout: 60_000 });
    const afterSecond = await headers(page);
    assert.ok(afterSecond.length > afterFirst.length);
    assert.equal(new Set(afterSecond.map((h) => h.toLowerCase())).size, afterSecond.length, `unique headers: ${afterSecond.join("|")}`);
    await assertFitsAtWidths(page, "the second run's result", WIDTHS);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
