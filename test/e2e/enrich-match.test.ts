// Enrich selection on a column of websites, in browser mode, in headless Chromium, against the
// real sandbox: insert companies, pick their Website column, let the panel detect websites (and
// pick the neighbouring Country and City columns), check the estimate, run, and find the matched
// id, the match status and the chosen fields written beside the table, in one request.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { useE2E, BROWSER_SKIP } from "./helpers.js";

const ENRICH = "POST /data/v1/companies/enrich";

async function sheet(page: Page): Promise<{ headers: string[]; rows: string[][] }> {
  const table = page.getByTestId("sheet-table");
  const headers = await table.locator("thead th").allInnerTexts();
  const rows: string[][] = [];
  for (const row of await table.locator("tbody tr").all()) rows.push(await row.locator("td").allInnerTexts());
  return { headers: headers.map((h) => h.trim()), rows };
}

describe("Enrich selection: a column of websites", { skip: BROWSER_SKIP }, () => {
  const e2e = useE2E();

  test("detects websites, matches them in one request and writes id, match status and fields", async () => {
    const { page, errors } = await e2e.openTaskPane();
    const form = page.getByRole("region", { name: "Company search" });
    await form.getByRole("textbox", { name: "Company name" }).fill("Northwind Traders");
    await form.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByTestId("preview-table").waitFor();
    await form.getByRole("button", { name: "Insert into sheet" }).click();
    await form
      .getByRole("status")
      .filter({ hasText: /Inserted \d+ compan/ })
      .waitFor({ timeout: 60_000 });
    const before = await sheet(page);
    const websiteColumn = before.headers.indexOf("Website");
    assert.ok(websiteColumn > 0, before.headers.join("|"));
    assert.ok(before.rows.length >= 3, "the three Northwind Traders");
    assert.ok(
      before.rows.some((r) => /^https?:\/\/www\..*\/./.test(r[websiteColumn] ?? "")),
      "websites stored with www. and a path",
    );

    await page.getByTestId("sheet-table").getByRole("button", { name: "Website", exact: true }).click();
    await page.getByRole("tab", { name: "Enrich" }).click();
    await page.getByRole("radio", { name: "Websites, names, emails" }).click();
    await page.getByRole("button", { name: "Read selection" }).click();
    const holds = page.getByRole("combobox", { name: "The column holds" });
    await holds.waitFor();
    assert.equal(await holds.inputValue(), "website", "websites detected");
    assert.notEqual(await page.getByRole("combobox", { name: "Country column" }).inputValue(), "", "the Country column beside it is picked");

    e2e.sandbox.resetStats();
    await page.getByRole("button", { name: "Check list" }).click();
    const plan = page.getByRole("region", { name: "Before you run" });
    await plan.getByText(`${before.rows.length} rows, ${before.rows.length} different websites`).waitFor();
    await plan.getByText("in 1 request").waitFor();
    await plan.getByRole("button", { name: "Match and enrich" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `${before.rows.length} matched` })
      .waitFor({ timeout: 60_000 });
    assert.equal(e2e.sandbox.requests(ENRICH), 1, "one request: the fields came with the match");

    const after = await sheet(page);
    // The matched columns say what they were matched from, apart from the table's own Company ID.
    const last = (prefix: string) => after.headers.reduce((found, h, i) => (h.startsWith(prefix) ? i : found), -1);
    const idColumn = after.headers.indexOf("Company ID (by website)");
    const statusColumn = after.headers.indexOf("Match status (by website)");
    assert.ok(idColumn > websiteColumn && statusColumn === idColumn + 1, after.headers.join("|"));
    // The fields the list has already (its website and country beside it) are not written again;
    // the service's company name is (a match asks at least one field).
    const added = after.headers.filter((h) => !before.headers.includes(h));
    assert.deepEqual(added.slice(0, 2), ["Company ID (by website)", "Match status (by website)"], after.headers.join("|"));
    assert.deepEqual(
      added.filter((h) => /^(Website|Country)\b/.test(h)),
      [],
      after.headers.join("|"),
    );
    const nameColumn = last("Company name");
    assert.ok(nameColumn > statusColumn, after.headers.join("|"));
    for (const row of after.rows) {
      assert.equal(row[idColumn], row[0], "the matched id is the row's own company");
      assert.equal(row[statusColumn], "Matched");
      assert.equal(row[nameColumn], row[1]);
    }
    // Where it was kept: the cache in IndexedDB (a budgeted area, with its index), today's count
    // in localStorage with the other small items (docs/taskpane.md, Storage).
    const cacheKeys = async () =>
      page.evaluate(
        () =>
          new Promise<string[]>((resolve, reject) => {
            const open = indexedDB.open("bizdata-addin", 1);
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const keys = open.result.transaction("kv", "readonly").objectStore("kv").getAllKeys();
              keys.onsuccess = () => resolve(keys.result.map(String));
              keys.onerror = () => reject(keys.error);
            };
          }),
      );
    await page.waitForFunction(() => Object.keys(localStorage).some((key) => key.startsWith("biz-enrich-spend:")));
    const kept = await cacheKeys();
    assert.ok(kept.includes("biz-enrich:#index"), kept.join("|"));
    assert.ok(
      kept.some((key) => key.startsWith("biz-enrich:v1:company:")),
      kept.join("|"),
    );
    assert.ok(!kept.some((key) => key.startsWith("biz-enrich-spend:")), "the count is not among the caches");
    assert.deepEqual(errors, []);
    await page.close();
  });
});
