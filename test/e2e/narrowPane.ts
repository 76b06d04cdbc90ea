// What the narrow-pane browser files share: the task pane opened at a given width (and the
// height they all use), its sections opened from the tab strip (or its More menu) and waited
// for, Tab-key walking, the usage summary's size check, and declining a large import. The checks
// of the layout take the widths to check it at (atWidths in helpers.ts): a flow walked once at
// the narrowest width checks its layout at each of them.
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { assertFitsAtWidths, atWidths, boxOf, openSection, type E2E } from "./helpers.js";

/** Each section of the pane, and what shows once it is ready. */
export const TABS: Record<string, (page: Page) => Promise<unknown>> = {
  Companies: (page) => page.getByRole("region", { name: "Company search" }).waitFor(),
  Contacts: (page) => page.getByRole("region", { name: "Contact search" }).waitFor(),
  Saved: (page) => page.getByText("No saved searches in this workbook yet.").waitFor(),
  Enrich: (page) => page.getByRole("region", { name: "Enrich selection" }).waitFor(),
  Jobs: (page) => page.getByRole("button", { name: "Start enrichment" }).waitFor(),
  Settings: (page) => page.getByRole("region", { name: "Settings" }).waitFor(),
};

/**
 * Opens a section (the More menu, when it opens, must fit too: at each of `widths`, by default
 * the page's own) and waits until it is ready.
 */
export async function openTab(
  page: Page,
  name: string,
  { ready = TABS[name]!, widths = [page.viewportSize()!.width] }: { ready?: (page: Page) => Promise<unknown>; widths?: readonly number[] } = {},
): Promise<void> {
  await openSection(page, name, { whenMenuOpen: () => assertFitsAtWidths(page, `the More menu (for ${name})`, widths) });
  await ready(page);
}

/** The height of a narrow pane's viewport (openNarrow's), as of a task pane in Excel on a laptop. */
export const NARROW_HEIGHT = 800;

export async function openNarrow(e2e: E2E, width: number): Promise<{ page: Page; errors: string[] }> {
  const opened = await e2e.openTaskPane();
  await opened.page.setViewportSize({ width, height: NARROW_HEIGHT });
  // Seven tabs never fit 400 px: the strip shows what fits and a More menu.
  await opened.page.getByRole("button", { name: /^More sections/ }).waitFor();
  return opened;
}

/** Presses Tab until the focused element is `target`; returns how many Tabs it took (at most `max`). */
export async function tabTo(page: Page, target: Locator, max: number): Promise<number> {
  for (let tabs = 1; tabs <= max; tabs++) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((el) => el === document.activeElement)) return tabs;
  }
  return Infinity;
}

/**
 * The usage takes a summary line or two before the tabs; its disclosure shows every gauge with
 * what is left, inside the pane. The sizes are checked at each of `widths` (by default the page's own).
 */
export async function assertUsageCompact(page: Page, widths: readonly number[] = [page.viewportSize()!.width]): Promise<void> {
  const usage = page.getByRole("region", { name: "Account usage" });
  await atWidths(page, widths, async (width) => {
    const closed = await boxOf(usage);
    assert.ok(closed.height <= 56, `the usage summary is ${closed.height} px high at ${width} px`);
    const tabs = await boxOf(page.getByRole("tablist", { name: "Task pane sections" }));
    assert.ok(tabs.y < 200, `the tabs start at ${tabs.y} px at ${width} px`);
  });
  await usage.getByTestId("usage-summary").click();
  await usage
    .getByText(/ used · [\d,]+ left/)
    .first()
    .waitFor();
  assert.equal(await usage.getByText(/ used · [\d,]+ left/).count(), 4, "requests, records, AI credits and credits");
  await assertFitsAtWidths(page, "the usage details", widths);
  await usage.getByTestId("usage-summary").click();
  await usage
    .getByText(/ used · [\d,]+ left/)
    .first()
    .waitFor({ state: "hidden" });
}

/** Answers Not now to the large-import question `ask`: `form` then says nothing was written, and no table was made. */
export async function declineImport(page: Page, ask: Locator, form: Locator): Promise<void> {
  await ask.getByRole("button", { name: "Not now" }).click();
  await form
    .getByRole("status")
    .filter({ hasText: /^Not inserted: nothing was written/ })
    .waitFor();
  assert.equal(await page.getByTestId("sheet-table").count(), 0, "no table");
}
