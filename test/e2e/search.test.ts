// The task pane in browser mode, in headless Chromium, against the real sandbox: filters
// (a lookup picker, a radius search), inline validation, preview, inserting 2,500 results and
// comparing them with the sandbox's data, Cancel halfway, saved searches, text safety of
// formula-like and HTML-like names, and an accessibility check.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { COMPANY_FILTERS } from "../../src/core/contract/index.js";
import { downloadedText, seriousAccessibilityViolations, type E2E, useE2E, BROWSER_SKIP } from "./helpers.js";

/** Waits for a status line of `where` (the page or a form) that says `text`. */
async function statusShows(where: { getByRole(role: "status"): Locator }, text: string | RegExp): Promise<void> {
  await where.getByRole("status").filter({ hasText: text }).waitFor({ timeout: 60_000 });
}

const COMPANIES = 2500;

/** Every row of a search straight from the sandbox's API, in the task pane's default order. */
async function sandboxRows(e2e: E2E, filters: object = {}): Promise<{ id: string; name: string; revenue?: string }[]> {
  const token = await e2e.sandbox.token();
  const rows: { id: string; name: string; revenue?: string }[] = [];
  for (let page = 1; page <= 100; page++) {
    const res = await fetch(`${e2e.sandbox.url}/data/v1/companies/search?page[number]=${page}&page[size]=100&sort=-revenue`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ data: { type: "CompanySearch", attributes: filters } }),
    });
    assert.equal(res.status, 200);
    const doc = (await res.json()) as { data: { id: string; attributes: { name: string; revenue?: string } }[] };
    rows.push(...doc.data.map((d) => ({ id: d.id, name: d.attributes.name, ...(d.attributes.revenue ? { revenue: d.attributes.revenue } : {}) })));
    if (doc.data.length < 100) break;
  }
  return rows;
}

/** Parses RFC 4180 CSV (the BOM removed). */
function parseCsv(text: string): string[][] {
  assert.ok(text.startsWith("\uFEFF"), "CSV starts with a byte-order mark");
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const body = text.slice(1);
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (quoted) {
      if (ch === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\r" && body[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += ch;
  }
  return rows;
}

async function downloadCsv(page: Page): Promise<string[][]> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
  return parseCsv(await downloadedText(download));
}

async function tableSummary(page: Page): Promise<{ name: string; rows: number }> {
  const text = await page.getByTestId("table-summary").innerText();
  const m = /Table (\S+) on sheet .*?: ([\d,]+) rows/.exec(text);
  assert.ok(m, text);
  return { name: m[1]!, rows: Number(m[2]!.replace(/,/g, "")) };
}

const companiesTab = (page: Page) => page.getByRole("region", { name: "Company search" });

describe("task pane in the browser against the sandbox", { skip: BROWSER_SKIP, timeout: 600_000 }, () => {
  const e2e = useE2E({ sandbox: { companies: COMPANIES } });

  test("lookup picker and radius search give a preview; bad zip and funding dates are explained inline", async () => {
    const { page, errors } = await e2e.openTaskPane();
    const form = companiesTab(page);
    // A lookup-fed picker: the state's choices come from the lookup operation.
    await form.getByRole("combobox", { name: "State" }).click();
    await page.getByRole("option", { name: "California", exact: true }).click();
    // A radius search around San Francisco.
    await form.getByRole("textbox", { name: "Zip code" }).fill("94105");
    await form.getByRole("combobox", { name: "Radius (miles)" }).click();
    await page.getByRole("option", { name: "25", exact: true }).click();
    await form.getByRole("button", { name: "Search", exact: true }).click();
    const status = page.getByRole("status").filter({ hasText: "companies match" });
    await status.waitFor();
    const total = Number((await status.innerText()).replace(/,/g, "").match(/(\d+) companies match/)![1]);
    const expected = await sandboxRows(e2e, { state: "California", zipCode: "94105", zipCodeRadiusMiles: 25 });
    assert.equal(total, expected.length);
    assert.ok(total > 0, "some companies near 94105");
    const firstName = await page.getByTestId("preview-table").locator("tbody tr").first().locator("[data-field=name]").innerText();
    assert.equal(firstName, expected[0]!.name);

    // Inline validation: a zip code with a character the service refuses.
    await form.getByRole("textbox", { name: "Zip code" }).fill("94105#");
    await form.getByText("Zip code may contain only letters, digits, spaces, commas and hyphens.", { exact: true }).waitFor();
    await form.getByRole("textbox", { name: "Zip code" }).fill("94105");
    await form.getByText("Zip code may contain only letters, digits, spaces, commas and hyphens.", { exact: true }).waitFor({ state: "detached" });

    // Funding dates in the wrong order.
    await form.getByRole("button", { name: "Funding" }).click();
    await form.getByLabel("Funding from date").fill("2024-06-01");
    await form.getByLabel("Funding to date").fill("2024-01-01");
    await form.getByText("Funding from date must be on or before Funding to date.", { exact: true }).waitFor();
    await form.getByRole("button", { name: "Search", exact: true }).click();
    await form.getByRole("alert").filter({ hasText: "Fix before searching: Funding from date must be on or before Funding to date." }).waitFor();
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("inserts 2,500 companies into a table equal to the sandbox's data; special names stay text everywhere", async () => {
    const { page, errors } = await e2e.openTaskPane();
    const form = companiesTab(page);
    await form.getByRole("button", { name: "Insert into sheet" }).click();
    await form.getByRole("status").filter({ hasText: "Inserted 2,500 companies" }).waitFor({ timeout: 120_000 });
    const summary = await tableSummary(page);
    assert.equal(summary.rows, COMPANIES);

    const csv = await downloadCsv(page);
    assert.deepEqual(csv[0], ["Company ID", "Company name", "Website", "City", "State", "Country", "Revenue ($K)", "Employees"]);
    const expected = await sandboxRows(e2e);
    assert.equal(csv.length - 1, expected.length);
    const neutral = (s: string) => (/^[=+\-@]/.test(s) ? `'${s}` : s);
    expected.forEach((row, i) => {
      const line = csv[i + 1]!;
      assert.equal(line[0], row.id);
      assert.equal(line[1], neutral(row.name));
      if (row.revenue) assert.equal(line[6], String(Number(row.revenue)));
    });
    // The seeded formula-like and HTML-like names: neutralised in CSV, literal in the sheet view.
    const names = csv.map((r) => r[1]);
    for (const s of [
      "'=SUM(1+1) Formula Holdings",
      "'+Formula Plus Labs",
      "'-Formula Minus Partners",
      "'@Formula At Works",
      "Formula <img src=x onerror=alert(1)> Media",
    ]) {
      assert.ok(names.includes(s), `${s} in the CSV`);
    }
    await form.getByRole("textbox", { name: "Company name" }).fill("Formula");
    await form.getByRole("button", { name: "Search", exact: true }).click();
    const preview = page.getByTestId("preview-table");
    await preview.waitFor();
    const shown = await preview.locator("tbody tr [data-field=name]").allInnerTexts();
    for (const s of ["=SUM(1+1) Formula Holdings", "+Formula Plus Labs", "Formula <img src=x onerror=alert(1)> Media"])
      assert.ok(shown.includes(s), `${s} shown as text`);
    await form.getByRole("button", { name: "Insert into sheet" }).click();
    await form.getByRole("status").filter({ hasText: "Inserted 5 companies" }).waitFor();
    const cells = await page.getByTestId("sheet-table").locator("tbody td").allInnerTexts();
    assert.ok(cells.includes("Formula <img src=x onerror=alert(1)> Media"));
    assert.ok(cells.includes("=SUM(1+1) Formula Holdings"));
    assert.equal(await page.locator("img[src=x]").count(), 0, "no markup from service data");
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("Insert writes what the preview shows, also after the form changed", async () => {
    const { page, errors } = await e2e.openTaskPane();
    const form = companiesTab(page);
    const name = form.getByRole("textbox", { name: "Company name" });
    await name.fill("Formula");
    await form.getByRole("button", { name: "Search", exact: true }).click();
    const status = form.getByRole("status").filter({ hasText: /companies match/ });
    await status.waitFor();
    const previewed = Number((await status.innerText()).match(/^([\d,]+) companies match/)![1]!.replace(/,/g, ""));
    assert.ok(previewed > 1, `${previewed} previewed`);
    // The form now asks for fewer companies, but the preview was not refreshed.
    await name.fill("Formula Plus");
    await form
      .getByTestId("preview-stale")
      .filter({ hasText: `Insert writes what the preview shows (${previewed} companies)` })
      .waitFor();
    await form.getByRole("button", { name: "Insert into sheet" }).click();
    await statusShows(form, `Inserted ${previewed} companies`);
    const summary = await tableSummary(page);
    assert.equal(summary.rows, previewed);
    const csv = await downloadCsv(page);
    assert.equal(csv.length - 1, previewed);
    assert.equal(csv.slice(1).filter((r) => !r[1]!.includes("Formula Plus")).length > 0, true, "the previewed rows, not the edited form's");
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("Cancel halfway leaves a consistent table of the rows written and says so", async () => {
    await e2e.sandbox.setFaults({ latencyMs: 300 }); // only while inserting (to stop it halfway): the sandbox's rows are read without
    const { page, errors } = await e2e.openTaskPane();
    const form = companiesTab(page);
    const outcome = form.getByRole("status").filter({ hasText: "Stopped." });
    try {
      await form.getByRole("button", { name: "Insert into sheet" }).click();
      await page
        .getByTestId("table-summary")
        .filter({ hasText: /: ([5-9]\d\d|1,\d{3}) rows so far/ })
        .waitFor({ timeout: 60_000 });
      await form.getByRole("button", { name: "Cancel" }).click();
      await outcome.waitFor();
    } finally {
      await e2e.sandbox.setFaults({ latencyMs: 0 });
    }
    const written = Number((await outcome.innerText()).match(/Stopped\. ([\d,]+) of 2,500/)![1]!.replace(/,/g, ""));
    assert.ok(written > 0 && written < COMPANIES, `${written} rows`);
    const summary = await tableSummary(page);
    assert.equal(summary.rows, written);
    const csv = await downloadCsv(page);
    assert.equal(csv.length - 1, written);
    const expected = await sandboxRows(e2e);
    csv.slice(1).forEach((line, i) => assert.equal(line[0], expected[i]!.id));
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("a saved search is kept, re-run into a new table, and refreshed in place", async () => {
    const { page, errors } = await e2e.openTaskPane();
    const form = companiesTab(page);
    await form.getByRole("combobox", { name: "Industries" }).click();
    // A multi-select picker lists its choices as menu item checkboxes.
    await page.getByRole("menuitemcheckbox", { name: "Software", exact: true }).click();
    await page.keyboard.press("Escape");
    await form.getByRole("textbox", { name: "Search name" }).fill("Software companies");
    await form.getByRole("button", { name: "Save search" }).click();
    await form.getByText('Saved "Software companies" in this workbook.').waitFor();

    await page.getByRole("tab", { name: "Saved" }).click();
    await page.getByRole("button", { name: "Run Software companies into a new sheet" }).click();
    await statusShows(page, /Inserted [\d,]+ companies/);
    const first = await tableSummary(page);
    const expected = await sandboxRows(e2e, { industryCodes: "software" });
    assert.equal(first.rows, expected.length);
    assert.ok(first.rows > 0);

    await page.getByRole("button", { name: "Refresh the table of Software companies" }).click();
    // Refresh ends with a refresh message, not "Inserted".
    await statusShows(page, `Refreshed table ${first.name} on sheet`);
    const again = await tableSummary(page);
    assert.equal(again.name, first.name);
    assert.equal(again.rows, expected.length);
    // The saved search lives in the (browser) workbook's settings, without any token.
    const stored = await page.evaluate(() => localStorage.getItem("bizdata.savedSearches"));
    assert.match(stored ?? "", /Software companies/);
    assert.doesNotMatch(stored ?? "", /eyJ|Bearer|token/i);

    // Opened in the form, the saved search shows the industry's name, not its lookup id.
    await page.getByRole("button", { name: "Open Software companies in the form" }).click();
    await form.getByText("Chosen: Software", { exact: true }).waitFor();
    // Saving under the same name asks first; Keep it keeps the saved one.
    await form.getByRole("button", { name: "Save search" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Keep it" }).click();
    await form.getByText(/Not saved: "Software companies" was kept/).waitFor();
    // Delete asks too.
    await page.getByRole("tab", { name: "Saved" }).click();
    await page.getByRole("button", { name: "Delete Software companies" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Keep it" }).click();
    await page.getByRole("button", { name: "Delete Software companies" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByText("No saved searches in this workbook yet.", { exact: false }).waitFor();
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("every company filter of the specification is in the form, in its group, common ones shown first", async () => {
    const { page, errors } = await e2e.openTaskPane();
    const form = page.getByRole("region", { name: "Company search" });
    // Collapsed groups hold no common filter; open them all, then show each group's other filters.
    for (const group of ["Growth and department budgets", "Funding", "Engagement", "Corporate structure"]) {
      assert.equal(await form.getByRole("button", { name: group }).getAttribute("aria-expanded"), "false", `${group} starts collapsed`);
      await form.getByRole("button", { name: group }).click();
    }
    const more = form.getByRole("button", { name: /^More .* filters \(\d+\)$/ });
    // Each button goes away once its group shows everything.
    for (let left = await more.count(); left > 0; left = await more.count()) await more.first().click();
    for (const [name, spec] of Object.entries(COMPANY_FILTERS)) {
      const count = await form.getByText(spec.label, { exact: true }).count();
      assert.ok(count >= 1, `${name} (${spec.label}) is in the form`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("contact search: made when its tab first opens, kept across tabs; person filters, preview with names as text", async () => {
    const { page, errors } = await e2e.openTaskPane();
    const form = page.getByRole("region", { name: "Contact search", includeHidden: true });
    assert.equal(await form.count(), 0, "the pane starts with the company form alone: no contact form before its tab opens");
    await page.getByRole("tab", { name: "Contacts" }).click();
    // Contacts of the seeded special companies (their names all contain "Formula").
    await form.getByRole("textbox", { name: "Company name" }).fill("Formula");
    await form.getByRole("button", { name: "Search", exact: true }).click();
    const preview = form.getByTestId("preview-table");
    await preview.waitFor();
    const names = await preview.locator("tbody tr [data-field=name]").allInnerTexts();
    assert.ok(
      names.some((n) => n.startsWith("=1+2 ") && n.endsWith(" Formula")),
      names.join(" | "),
    );
    assert.ok(
      names.some((n) => n.startsWith("@Ada ") && n.endsWith(" <b>Formula</b>")),
      names.join(" | "),
    );
    assert.equal(await page.locator("b").filter({ hasText: "Formula" }).count(), 0);
    await form.getByRole("textbox", { name: "Accuracy score from" }).fill("50");
    await form.getByText("Accuracy score from must be 70 or more.", { exact: true }).waitFor();
    await page.getByRole("tab", { name: "Companies" }).click(); // and back: what was typed and found is still there
    await page.getByRole("region", { name: "Company search" }).waitFor();
    await page.getByRole("tab", { name: "Contacts" }).click();
    assert.equal(await form.getByRole("textbox", { name: "Company name" }).inputValue(), "Formula");
    assert.equal(await form.getByRole("textbox", { name: "Accuracy score from" }).inputValue(), "50");
    await preview.waitFor();
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("usage gauge follows the account's requests; settings are checked and kept per user, not in the workbook", async () => {
    const { page, errors } = await e2e.openTaskPane();
    const usage = page.getByRole("region", { name: "Account usage" });
    const used = async () =>
      Number(
        (
          await usage
            .getByText(/ of [\d,]+ used/)
            .first()
            .innerText()
        )
          .replace(/,/g, "")
          .match(/^(\d+) of/)![1],
      );
    await usage
      .getByText(/ of [\d,]+ used/)
      .first()
      .waitFor();
    const before = await used();
    const form = page.getByRole("region", { name: "Company search" });
    await form.getByRole("button", { name: "Search", exact: true }).click();
    await form.getByTestId("preview-table").waitFor();
    // No Refresh: the gauge reads the usage again by itself after the search.
    await page.waitForFunction(
      (n) =>
        /(\d[\d,]*) of/.test(document.querySelector('[aria-label="Account usage"]')?.textContent ?? "") &&
        Number((document.querySelector('[aria-label="Account usage"]')!.textContent!.match(/(\d[\d,]*) of/)![1] ?? "0").replace(/,/g, "")) > n,
      before,
    );

    await page.getByRole("tab", { name: "Settings" }).click();
    const settings = page.getByRole("region", { name: "Settings" });
    await settings.getByRole("radio", { name: "Custom endpoints" }).check();
    await settings.getByRole("textbox", { name: "Data API address" }).fill("http://api.example.com");
    await settings.getByRole("button", { name: "Save settings" }).click();
    await settings.getByText("Data API address must start with https://.").waitFor();
    const stored = await page.evaluate(() => ({ user: localStorage.getItem("bizdata.userSettings"), workbook: localStorage.getItem("bizdata.savedSearches") }));
    assert.equal(stored.user, null, "nothing saved while there are problems");
    assert.doesNotMatch(stored.workbook ?? "", /api\.example\.com/);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("browser mode: a picked id column of an inserted table is enriched into new columns at its right", async () => {
    const { page, errors } = await e2e.openTaskPane();
    const form = page.getByRole("region", { name: "Company search" });
    await form.getByRole("textbox", { name: "Company name" }).fill("Formula");
    await form.getByRole("button", { name: "Insert into sheet" }).click();
    await form.getByRole("status").filter({ hasText: "Inserted 5 companies" }).waitFor();
    await page.getByTestId("sheet-table").getByRole("button", { name: "Company ID" }).click();
    await page.getByRole("tab", { name: "Enrich" }).click();
    await page.getByRole("button", { name: "Check selection" }).click();
    await page.getByRole("button", { name: "Enrich 5 ids" }).click();
    const table = page.getByTestId("sheet-table");
    await page.getByText(/Wrote \d+ columns to Companies!I1:/).waitFor({ timeout: 60_000 });
    await table.getByRole("button", { name: "Employee range" }).waitFor();
    const headers = await table.locator("thead th").allInnerTexts();
    assert.ok(headers.length > 8, headers.join(" | "));
    // The default fields add what the table lacks: no second "Company name" or "Website".
    assert.deepEqual(
      headers.filter((h) => / 2$/.test(h)),
      [],
      headers.join(" | "),
    );
    assert.deepEqual(headers.slice(0, 8), ["Company ID", "Company name", "Website", "City", "State", "Country", "Revenue ($K)", "Employees"]);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("no serious or critical accessibility violations (axe-core)", async () => {
    const { page } = await e2e.openTaskPane();
    const form = companiesTab(page);
    await form.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByTestId("preview-table").waitFor();
    const violations = await seriousAccessibilityViolations(page);
    assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
    await page.close();
  });
});
