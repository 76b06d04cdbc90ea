// Signals on the production topology (the sandbox's production profile behind the token broker),
// in headless Chromium at 350 px: every signal request the pane sends is a valid request of the
// service's published schema, every answer it reads is one of the published answer schemas
// (checked with the vendor oracle as they pass), and the pane shows what it showed before: an
// intent search and a scoop search (type names, not objects) inserted into tables, and a column
// of company ids enriched with scoops through the cells' pipeline, its credits shown first.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page, Response } from "playwright-core";
import { openSection, overflow, BROWSER_SKIP } from "./helpers.js";
import { signInThroughPopup, useProductionTopology } from "./productionTopology.js";
import { requestErrors, responseErrors } from "../vendor/oracle.js";

const WIDTH = 350;
/** The vendor's operation of each signal path the pane may call. */
const OPERATIONS: Record<string, string> = {
  "/gtm/data/v1/intent/search": "SearchInterface_searchIntent",
  "/gtm/data/v1/intent/enrich": "EnrichInterface_enrichIntent",
  "/gtm/data/v1/scoops/search": "SearchInterface_searchScoop",
  "/gtm/data/v1/scoops/enrich": "EnrichInterface_enrichScoop",
  "/gtm/data/v1/news/search": "SearchInterface_searchNews",
  "/gtm/data/v1/news/enrich": "EnrichInterface_enrichNews",
  "/gtm/data/v1/companies/technologies/enrich": "EnrichInterface_enrichTechnology",
};

async function sheet(page: Page): Promise<{ headers: string[]; rows: string[][] }> {
  const table = page.getByTestId("sheet-table").last();
  const headers = (await table.locator("thead th").allInnerTexts()).map((h) => h.trim());
  const rows = await table.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")));
  return { headers, rows };
}

describe("signals on the production topology, against the service's published schemas", { skip: BROWSER_SKIP, timeout: 600_000 }, () => {
  let page: Page;
  const errors: string[] = [];
  /** Every signal exchange the pane made, checked against the vendor's schemas. */
  const checked: { path: string; problems: string[] }[] = [];
  const pending: Promise<void>[] = [];

  const check = async (response: Response) => {
    const path = new URL(response.url()).pathname;
    const operation = OPERATIONS[path];
    if (!operation || response.request().method() !== "POST") return;
    const problems = [...requestErrors("data", operation, response.request().postDataJSON())];
    if (response.status() === 200) problems.push(...responseErrors("data", operation, await response.json()));
    else problems.push(`answered ${response.status()}`);
    checked.push({ path, problems });
  };

  const topology = useProductionTopology({ sandbox: { companies: 600, contacts: 1500 } }, async ({ browser }) => {
    page = await browser.context.newPage();
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("response", (response) => void pending.push(check(response)));
    await page.setViewportSize({ width: WIDTH, height: 900 });
    await page.goto(`${topology.pages.origin}/taskpane.html`);
    await signInThroughPopup(page, "analyst@example.com", "analyst-pass");
    await page
      .getByText(/Signed in as/)
      .first()
      .waitFor({ timeout: 30_000 });
  });

  test("an intent search on the service's example topic is previewed and inserted; its company ids are numbers", async () => {
    await openSection(page, "Signals");
    const form = page.getByRole("region", { name: "Intent search" });
    const topics = form.getByRole("combobox", { name: "Topics" });
    await topics.click();
    await topics.fill("Cloud App");
    await page.getByRole("menuitemcheckbox", { name: "Cloud Applications", exact: true }).click();
    await topics.fill("Cloud Sec");
    await page.getByRole("menuitemcheckbox", { name: "Cloud Security", exact: true }).click();
    await page.keyboard.press("Escape");
    await form.getByRole("button", { name: "Search", exact: true }).click();
    await form
      .getByRole("region", { name: "Preview" })
      .getByText(/intent signals? match/)
      .waitFor({ timeout: 30_000 });
    await form.getByRole("button", { name: "Insert into sheet" }).click();
    await form.getByText(/Inserted all [\d,]+ intent signals/).waitFor({ timeout: 60_000 });
    const { headers, rows } = await sheet(page);
    const col = (name: string) => headers.indexOf(name);
    assert.ok(rows.length > 0);
    assert.ok(
      rows.every((r) => /^\d+$/.test(r[col("Company id")] ?? "")),
      "company ids as ids",
    );
    assert.ok(
      rows.every((r) => /^\d{4}-\d{2}-\d{2}$/.test(r[col("Signal date")] ?? "")),
      "dates as dates",
    );
    assert.ok(rows.every((r) => ["Cloud Applications", "Cloud Security"].includes(r[col("Topic")] ?? "")));
    assert.ok(rows.some((r) => (r[col("Recommended contacts")] ?? "").length > 0));
    assert.deepEqual(await overflow(page), [], "after the intent insert");
  });

  test("a scoop search by type from the lookup shows the type names, not objects", async () => {
    await page.getByRole("radio", { name: "Scoops" }).check();
    const form = page.getByRole("region", { name: "Scoops search" });
    const types = form.getByRole("combobox", { name: "Scoop types" });
    await types.click();
    await types.fill("Fund");
    await page.getByRole("menuitemcheckbox", { name: "Funding", exact: true }).click();
    await page.keyboard.press("Escape");
    await form.getByRole("button", { name: "Search", exact: true }).click();
    await form
      .getByRole("region", { name: "Preview" })
      .getByText(/scoops? match/)
      .waitFor({ timeout: 30_000 });
    await form.getByRole("button", { name: "Insert into sheet" }).click();
    await form.getByText(/Inserted all [\d,]+ scoops/).waitFor({ timeout: 60_000 });
    const { headers, rows } = await sheet(page);
    const types_ = rows.map((r) => r[headers.indexOf("Types")] ?? "");
    assert.ok(types_.length > 0 && types_.every((t) => t.split(", ").includes("Funding")), types_.slice(0, 3).join(" | "));
    assert.ok(rows.every((r) => /^\d{4}-\d{2}-\d{2}$/.test(r[headers.indexOf("Published")] ?? "")));
    assert.deepEqual(await overflow(page), [], "after the scoop insert");
  });

  test("Enrich selection: scoops of a column of company ids, the credits shown before the run", async () => {
    const table = page.getByTestId("sheet-table").last();
    await table.getByRole("button", { name: "Company id", exact: true }).click();
    await openSection(page, "Enrich");
    const enrich = page.getByRole("region", { name: "Enrich selection" });
    await enrich.getByRole("radio", { name: "Scoops of the companies" }).check();
    await enrich.getByRole("button", { name: "Check selection" }).click();
    const plan = enrich.getByRole("region", { name: "Before you run" });
    await plan.getByText(/At most [\d,]+ credits/).waitFor();
    assert.doesNotMatch(await plan.innerText(), /At most 0 credits/, "scoop enrich spends credits");
    await enrich.getByRole("button", { name: /^Enrich \d+ ids$/ }).click();
    await page.getByText(/Wrote \d+ columns/).waitFor({ timeout: 60_000 });
    const { headers, rows } = await sheet(page);
    const dates = rows.map((r) => r[headers.indexOf("Latest scoop date")] ?? "");
    assert.ok(
      dates.every((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)),
      dates.slice(0, 3).join(" | "),
    );
    const latest = rows.map((r) => r[headers.indexOf("Latest scoop")] ?? "");
    assert.ok(
      latest.every((t) => t.length > 0),
      `${headers.join("|")}: ${latest.slice(0, 5).join(" | ")}`,
    );
    assert.deepEqual(await overflow(page), [], "after the scoops");
  });

  test("every signal request and answer matched the service's published schemas", async () => {
    await Promise.all(pending);
    const paths = new Set(checked.map((c) => c.path));
    for (const path of ["/gtm/data/v1/intent/search", "/gtm/data/v1/scoops/search", "/gtm/data/v1/scoops/enrich"])
      assert.ok(paths.has(path), `${path} was called`);
    assert.deepEqual(
      checked.filter((c) => c.problems.length > 0),
      [],
    );
    assert.deepEqual(errors, []);
  });
});
