// Takes the task pane screenshots under docs/ (browser mode, headless Chromium, the sandbox) at
// a task pane's width (350 px): the search form, the preview, an insert in progress, the
// inserted table, the question before an import above 10,000 results, the More menu of
// sections, the Jobs tab and the estimate before an audience job, Enrich selection's plan
// within today's limit, and a news search beyond one search's reach with its question.
// Run: node --import tsx scripts/screenshots.ts
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Page } from "playwright-core";
import { openSection, startE2E } from "../test/e2e/helpers.js";

const DOCS = resolve(import.meta.dirname, "../docs");
/** Excel opens task panes at about 320-350 px. */
const PANE_WIDTH = 350;

async function main(): Promise<void> {
  mkdirSync(DOCS, { recursive: true });
  // Just above what one search reaches, for the large-import question.
  const e2e = await startE2E({ sandbox: { companies: 10_250 } });
  try {
    const { page } = await e2e.openTaskPane();
    await page.setViewportSize({ width: PANE_WIDTH, height: 1000 });
    const form = page.getByRole("region", { name: "Company search" });
    await form.getByRole("combobox", { name: "State" }).click();
    await page.getByRole("option", { name: "California", exact: true }).click();
    await form.getByRole("textbox", { name: "Zip code" }).fill("94105");
    await form.getByRole("combobox", { name: "Radius (miles)" }).click();
    await page.getByRole("option", { name: "250", exact: true }).click();
    await form.getByRole("textbox", { name: "Revenue from ($K)" }).fill("5000");
    await form.getByRole("textbox", { name: "Revenue to ($K)" }).fill("1000");
    await form.getByText("Revenue from ($K) must not be greater than Revenue to ($K).", { exact: true }).waitFor();
    await page.screenshot({ path: join(DOCS, "taskpane-search-form.png") });

    await form.getByRole("textbox", { name: "Revenue to ($K)" }).fill("");
    await form.getByRole("button", { name: "Search", exact: true }).click();
    const preview = page.getByRole("region", { name: "Preview" });
    await preview.waitFor();
    await preview.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(DOCS, "taskpane-preview.png") });

    await form.getByRole("textbox", { name: "Zip code" }).fill("");
    await form.getByRole("combobox", { name: "Radius (miles)" }).click();
    await page.getByRole("option", { name: "Any", exact: true }).click();
    await form.getByRole("textbox", { name: "Revenue from ($K)" }).fill("");
    // California only: an insert within one search's reach.
    // Slow pages, so the screenshot catches the insert half-way (California: 6 pages).
    await e2e.sandbox.setFaults({ latencyMs: 2500 });
    await form.getByRole("button", { name: "Insert into sheet" }).click();
    const progress = form.getByRole("progressbar");
    await progress.waitFor();
    await page
      .getByTestId("table-summary")
      .filter({ hasText: /[1-9][\d,]* rows so far/ })
      .waitFor({ timeout: 60_000 });
    await form.getByRole("region", { name: "Insert into sheet" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(DOCS, "taskpane-insert-progress.png") });
    await e2e.sandbox.setFaults({ latencyMs: 0 });
    await form.getByRole("status").filter({ hasText: "Inserted" }).waitFor({ timeout: 120_000 });

    const sheet = page.getByRole("region", { name: "Workbook" });
    await sheet.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(DOCS, "taskpane-inserted-table.png") });

    await form.getByRole("button", { name: "Reset all filters" }).click();
    await form.getByRole("button", { name: "Search", exact: true }).click();
    await form.getByRole("status").filter({ hasText: "10,250 companies match" }).waitFor({ timeout: 60_000 });
    await form.getByRole("button", { name: "Insert into sheet" }).click();
    const ask = page.getByRole("alertdialog");
    await ask.getByRole("button", { name: "Import all" }).waitFor({ timeout: 120_000 });
    await page.screenshot({ path: join(DOCS, "taskpane-large-import.png"), animations: "disabled" });
    await ask.getByRole("button", { name: "Not now" }).click();

    await page.getByRole("heading", { name: "BizData" }).scrollIntoViewIfNeeded();
    await page.getByRole("button", { name: /^More sections/ }).click();
    await page.getByRole("menu").waitFor();
    await page.screenshot({ path: join(DOCS, "taskpane-more-sections.png"), animations: "disabled" });
    await page.getByRole("menuitem", { name: "Jobs" }).click();
    await page.getByRole("button", { name: "Start enrichment" }).waitFor();
    await page.screenshot({ path: join(DOCS, "taskpane-jobs.png") });
    const audience = page.getByRole("combobox", { name: "Audience" });
    await audience.selectOption((await audience.locator("option").filter({ hasText: "Target accounts Q3" }).getAttribute("value"))!);
    await page.getByRole("button", { name: "Start enrichment" }).click();
    const estimate = page.getByRole("region", { name: "Before you start" });
    await estimate.waitFor({ timeout: 60_000 });
    await estimate.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(DOCS, "taskpane-job-estimate.png") });
    await enrichPlan(page);
    await newsBeyondReach(page);
    await page.close();
    console.log(`Screenshots written to ${DOCS}`);
  } finally {
    await e2e.close();
  }
}

/** Enrich selection on the inserted table's ids, with room for 30 new records today. */
async function enrichPlan(page: Page): Promise<void> {
  await page.getByTestId("sheet-table").first().getByRole("button", { name: "Company ID", exact: true }).click();
  await openSection(page, "Enrich");
  const enrich = page.getByRole("region", { name: "Enrich selection" });
  await enrich.getByRole("spinbutton", { name: "New records per day" }).fill("30");
  await enrich.getByRole("button", { name: "Save", exact: true }).click();
  await enrich.getByText("Saved: up to 30 new records a day.").waitFor();
  await enrich.getByRole("button", { name: "Check selection" }).click();
  const plan = page.getByRole("region", { name: "Before you run" });
  await plan.getByTestId("within-todays-limit").waitFor({ timeout: 60_000 });
  await plan.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(DOCS, "taskpane-enrich-plan.png") });
}

/** A news search above one search's reach: what Insert will reach, then its question. */
async function newsBeyondReach(page: Page): Promise<void> {
  await openSection(page, "Signals");
  await page.getByRole("radio", { name: "News", exact: true }).check();
  const news = page.getByRole("region", { name: "News search" });
  await news.getByRole("button", { name: "Search", exact: true }).click();
  const cost = news.getByTestId("insert-cost");
  await cost.waitFor({ timeout: 60_000 });
  await cost.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(DOCS, "taskpane-signal-reach.png") });
  await news.getByRole("button", { name: "Insert into sheet" }).click();
  const ask = page.getByRole("alertdialog");
  await ask.getByRole("button", { name: "Not now" }).waitFor({ timeout: 60_000 });
  await page.screenshot({ path: join(DOCS, "taskpane-signal-import.png"), animations: "disabled" });
  await ask.getByRole("button", { name: "Not now" }).click();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
