// The second walk through the README's tasks, at 320 and 350 px in headless Chromium against the
// sandbox: a picker near the bottom of the pane opens on-screen; Enter in a filter brings the
// results into view; an import above one search's reach says its plan and asks first; an
// audience job shows its estimate (rows, records not under management, most credits, today's
// limit, credits left) and says it cannot be stopped before anything is spent; Back starts
// nothing, Start starts the job. Nothing scrolls sideways at any step. Each walk goes once, at
// 320 px, and checks its layout (and where the pickers and results show) at 320 and 350 px
// (atWidths in helpers.ts).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { assertFits, assertFitsAtWidths, atWidths, boxOf, openSection, useE2E, BROWSER_SKIP } from "./helpers.js";
import { declineImport, NARROW_HEIGHT, openNarrow } from "./narrowPane.js";

// Just above one search's reach, so Insert has a plan to show.
const COMPANIES = 10_250;
// The walks go at the first width; their layout is checked at each.
const WIDTHS = [320, 350];

/** The element lies wholly inside the viewport. */
async function assertOnScreen(page: Page, element: Locator, what: string): Promise<void> {
  const box = await boxOf(element);
  const size = page.viewportSize()!;
  assert.ok(box.x >= 0 && box.x + box.width <= size.width + 1, `${what} spans x ${Math.round(box.x)}-${Math.round(box.x + box.width)} of ${size.width}`);
  assert.ok(box.y >= 0 && box.y < size.height, `${what} at y ${Math.round(box.y)} of ${size.height}`);
}

describe("the second walk, at a task pane's width", { skip: BROWSER_SKIP, timeout: 600_000 }, () => {
  const e2e = useE2E({ sandbox: { companies: COMPANIES, contacts: 100 } });

  test("320 and 350 px: a picker at the bottom of the pane opens on-screen; Enter brings the results into view", async () => {
    const { page, errors } = await openNarrow(e2e, WIDTHS[0]!);
    const form = page.getByRole("region", { name: "Company search" });

    // The Country field low in the pane (where the list once opened beside it, at x 290-450 of
    // 320) and at its very bottom: the list opens below or above, inside the pane. Where the
    // field sits depends on the width, so it is placed and opened at each.
    const country = form.getByRole("combobox", { name: "Country" });
    await atWidths(page, WIDTHS, async (width) => {
      for (const block of ["center", "end"] as const) {
        await country.evaluate((el, at) => el.scrollIntoView({ block: at }), block);
        await country.click();
        const listbox = page.getByRole("listbox");
        await listbox.getByRole("option").first().waitFor();
        await assertOnScreen(page, listbox, `the Country list (field at the ${block}, ${width} px)`);
        const box = await boxOf(listbox);
        assert.ok(box.y + box.height <= NARROW_HEIGHT + 1, `the Country list ends at y ${Math.round(box.y + box.height)} of ${NARROW_HEIGHT} (${width} px)`);
        await assertFits(page, `Country picker open, field at the ${block} (${width} px)`);
        await page.keyboard.press("Escape");
        await listbox.waitFor({ state: "detached" });
      }
    });

    // A filled picker can be cleared; Reset all filters empties the form.
    await country.fill("Germany");
    await form.getByRole("button", { name: "Reset all filters" }).click();
    // The picker settles its value as it loses focus: wait (bounded) for it to be empty, then check.
    const field = await country.elementHandle();
    await page.waitForFunction((el) => (el as HTMLInputElement | null)?.value === "", field, { timeout: 10_000 }).catch(() => undefined);
    assert.equal(await country.inputValue(), "");

    // Enter in a text field far up the form: the results come into view. Where they are
    // depends on the width, so Enter is pressed at each (the same search again at 350 px).
    await form.getByRole("textbox", { name: "Employees from" }).fill("5000");
    const name = form.getByRole("textbox", { name: "Company name" });
    const status = form.getByRole("status").filter({ hasText: /compan(y|ies) match/ });
    await atWidths(page, WIDTHS, async (width) => {
      await name.scrollIntoViewIfNeeded();
      await name.press("Enter");
      // The pane scrolls the results into view as it gives them the focus (not the name's any more).
      await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label") === "Search results", undefined, { timeout: 30_000 });
      await status.waitFor({ timeout: 30_000 });
      await assertOnScreen(page, status, `the result count after Enter (${width} px)`);
      await assertFits(page, `results after Enter (${width} px)`);
    });
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("320 and 350 px: five sheets in browser mode wrap their tabs; a new search clears the old insert message", async () => {
    const { page, errors } = await openNarrow(e2e, WIDTHS[0]!);
    const form = page.getByRole("region", { name: "Company search" });
    await form.getByRole("textbox", { name: "Employees from" }).fill("20000");
    await form.getByRole("button", { name: "Search", exact: true }).click();
    await form
      .getByRole("status")
      .filter({ hasText: /compan(y|ies) match/ })
      .waitFor({ timeout: 30_000 });
    const inserted = form.getByRole("status").filter({ hasText: /^Inserted / });
    for (let i = 1; i <= 5; i++) {
      await form.getByRole("button", { name: "Insert into sheet" }).click();
      await page
        .getByRole("tablist", { name: "Sheets" })
        .getByRole("tab")
        .nth(i - 1)
        .waitFor({ timeout: 60_000 });
      await inserted.waitFor({ timeout: 60_000 });
    }
    assert.equal(await page.getByRole("tablist", { name: "Sheets" }).getByRole("tab").count(), 5);
    await assertFitsAtWidths(page, "five sheet tabs", WIDTHS);
    // A new search: the message about the last insert goes.
    await form.getByRole("textbox", { name: "Employees from" }).fill("30000");
    await form.getByRole("button", { name: "Search", exact: true }).click();
    await form
      .getByRole("status")
      .filter({ hasText: /compan(y|ies) match/ })
      .waitFor({ timeout: 30_000 });
    await inserted.waitFor({ state: "detached" });
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("320 and 350 px: above 10,000 results Insert shows the plan and asks; Not now writes nothing", async () => {
    const { page, errors } = await openNarrow(e2e, WIDTHS[0]!);
    const form = page.getByRole("region", { name: "Company search" });
    await form.getByRole("button", { name: "Search", exact: true }).click();
    await form.getByRole("status").filter({ hasText: "10,250 companies match" }).waitFor({ timeout: 30_000 });
    await form.getByText(/Insert splits this one into parts to import them all, and shows you the plan first/).waitFor();

    await form.getByRole("button", { name: "Insert into sheet" }).click();
    const ask = page.getByRole("alertdialog");
    await ask.getByText("Import all 10,250 companies?").waitFor({ timeout: 120_000 });
    assert.match(await ask.innerText(), /10,250 companies — imported in \d+ parts, about \d+ requests, about \d+ s at your rate limit/);
    await assertFitsAtWidths(page, "the large-import question", WIDTHS);
    await declineImport(page, ask, form);
    await assertFitsAtWidths(page, "declined import", WIDTHS);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("320 and 350 px: an audience job shows its estimate and asks before spending; Back starts nothing, Start starts it", async () => {
    const { page, errors } = await openNarrow(e2e, WIDTHS[0]!);
    await openSection(page, "Jobs");
    const audience = page.getByRole("combobox", { name: "Audience" });
    await audience.waitFor({ timeout: 30_000 });
    const target = await audience.locator("option").filter({ hasText: "Target accounts Q3" }).getAttribute("value");
    await audience.selectOption(target!);
    const starts = () => e2e.sandbox.requests("POST /v1/audiences/:audienceId/actions/enrich");
    const before = starts();
    const startEnrichment = page.getByRole("button", { name: "Start enrichment" });
    await startEnrichment.click();
    const estimate = page.getByRole("region", { name: "Before you start" });
    await estimate.waitFor({ timeout: 60_000 });
    const facts = await estimate.getByTestId("job-estimate").innerText();
    assert.match(facts, /500 rows in scope/);
    assert.doesNotMatch(facts, /unknown to the service/, "every row of this audience is a known company");
    assert.match(facts, /already under management \(free\); [\d,]+ (is|are) not/);
    assert.match(facts, /At most [\d,]+ credits?/);
    assert.match(facts, /Today's limit: [\d,]+ new records, [\d,]+ left/);
    assert.match(facts, /Credits left: [\d,]+/);
    await estimate.getByText(/cannot be stopped/).waitFor();
    assert.equal(starts(), before, "nothing started before the user agrees");
    await assertFitsAtWidths(page, "the job estimate", WIDTHS);

    // Back starts nothing; the estimate asked for again, Start starts the job.
    await estimate.getByRole("button", { name: "Back" }).click();
    await estimate.waitFor({ state: "detached" });
    assert.equal(starts(), before, "Back starts nothing");
    await startEnrichment.click();
    await estimate.waitFor({ timeout: 60_000 });
    await estimate.getByRole("button", { name: /^Start: at most/ }).click();
    await page.getByRole("status").filter({ hasText: "started" }).waitFor();
    assert.equal(starts(), before + 1);
    const job = page.locator("li[data-job-id]").first();
    await job.getByRole("button", { name: /Stop following \(the job goes on\)|Remove from list/ }).waitFor();
    await assertFitsAtWidths(page, "the started job", WIDTHS);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
