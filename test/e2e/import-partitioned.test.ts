// A search beyond one search's reach (10,000 results) inserted whole in browser mode: the task
// pane plans the parts, shows the plan, writes every company once into one table.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { downloadedText, useE2E, BROWSER_SKIP } from "./helpers.js";

// Just above what one search reaches, to keep seeding and the import short.
const COMPANIES = 10_250;

describe("a search larger than one search reaches, in the browser", { skip: BROWSER_SKIP, timeout: 600_000 }, () => {
  const e2e = useE2E({ sandbox: { companies: COMPANIES, contacts: 100 } });

  test("imports every company once, in parts, into one table", async () => {
    const { page, errors } = await e2e.openTaskPane();
    const form = page.getByRole("region", { name: "Company search" });
    await form.getByRole("button", { name: "Insert into sheet" }).click();
    // Above one search's reach, Insert asks first, with the plan.
    const ask = page.getByRole("alertdialog");
    await ask.getByText(/imported in \d+ parts, about \d+ requests/).waitFor({ timeout: 120_000 });
    await ask.getByRole("button", { name: "Import all" }).click();
    // The plan shows while the pages are fetched.
    await form.getByText(/^10,250 companies — imported in \d+ parts, about \d+ requests, about \d+ s at your rate limit$/).waitFor({ timeout: 120_000 });
    const status = form.getByRole("status").filter({ hasText: "Inserted 10,250 companies" });
    await status.waitFor({ timeout: 300_000 });
    assert.match(await status.innerText(), /in \d+ parts\. Every result of the search is there, each once\./);

    const summary = await page.getByTestId("table-summary").innerText();
    assert.match(summary, /: 10,250 rows/);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
    const lines = (await downloadedText(download)).slice(1).split("\r\n").filter(Boolean);
    const ids = lines.slice(1).map((line) => line.split(",")[0]);
    assert.equal(ids.length, COMPANIES);
    assert.equal(new Set(ids).size, COMPANIES);
    // Every seeded company: ids 1..COMPANIES.
    assert.deepEqual(
      [...ids].map(Number).sort((a, b) => a - b),
      Array.from({ length: COMPANIES }, (_, i) => i + 1),
    );
    assert.deepEqual(errors, []);
    await page.close();
  });
});
