// Takes the task pane screenshots under docs/ (browser mode, headless Chromium, the sandbox) at
// a task pane's width (350 px): the search form, the preview, an insert in progress, the
// inserted table, the More menu of sections and the Jobs tab.
// Run: node --import tsx scripts/screenshots.ts
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { startE2E } from "../test/e2e/helpers.js";

const DOCS = resolve(import.meta.dirname, "../docs");
/** Excel opens task panes at about 320-350 px. */
const PANE_WIDTH = 350;

async function main(): Promise<void> {
  mkdirSync(DOCS, { recursive: true });
  const e2e = await startE2E({ sandbox: { companies: 3000 } });
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
    await form.getByRole("combobox", { name: "State" }).fill("");
    await form.getByRole("combobox", { name: "State" }).blur();
    await e2e.sandbox.setFaults({ latencyMs: 400 });
    await form.getByRole("button", { name: "Insert into sheet" }).click();
    const progress = form.getByRole("progressbar");
    await progress.waitFor();
    await page.getByTestId("table-summary").filter({ hasText: /[1-9][\d,]* rows so far/ }).waitFor({ timeout: 60_000 });
    await form.getByRole("region", { name: "Insert into sheet" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(DOCS, "taskpane-insert-progress.png") });
    await e2e.sandbox.setFaults({ latencyMs: 0 });
    await form.getByRole("status").filter({ hasText: "Inserted" }).waitFor({ timeout: 120_000 });

    const sheet = page.getByRole("region", { name: "Workbook" });
    await sheet.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(DOCS, "taskpane-inserted-table.png") });

    await page.getByRole("heading", { name: "BizData" }).scrollIntoViewIfNeeded();
    await page.getByRole("button", { name: /^More sections/ }).click();
    await page.getByRole("menu").waitFor();
    await page.screenshot({ path: join(DOCS, "taskpane-more-sections.png") });
    await page.getByRole("menuitem", { name: "Jobs" }).click();
    await page.getByRole("button", { name: "Start enrichment" }).waitFor();
    await page.screenshot({ path: join(DOCS, "taskpane-jobs.png") });
    await page.close();
    console.log(`Screenshots written to ${DOCS}`);
  } finally {
    await e2e.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
