// Send to an audience in browser mode, in headless Chromium at 350 px against the sandbox (its
// clock moved by the test): a sheet of about 300 leads (a company search inserted) goes up into
// a new audience, with the Company ID left out so the service matches the rows by website and
// name, and State typed as a whole number, so each row that has a state gets that cell refused,
// with its own value said on its row; an enrichment job from the estimate; the enriched columns back beside the
// right rows; a second send updates the rows without adding any. Nothing scrolls sideways.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createServiceClient } from "../../src/core/api/index.js";
import { manualClock } from "../helpers/sandbox.js";
import { assertFits, chromiumAvailable, openSection, startE2E, type E2E } from "./helpers.js";

const skip = chromiumAvailable() ? false : "Chromium is not installed (/usr/bin/chromium)";

/** An employee range the sandbox's companies fill with 250 to 350 companies. */
async function leadsRange(e2e: E2E): Promise<{ from: string; to: string; total: number }> {
  const token = await e2e.sandbox.token();
  const client = createServiceClient({ baseUrl: e2e.sandbox.url, getAccessToken: async () => token });
  for (const from of [10, 20, 30, 50, 100, 200, 500, 1000]) {
    for (const to of [from * 2, from * 3, from * 5]) {
      const page = await client.searchCompanies({ employeeRangeMin: String(from), employeeRangeMax: String(to) }, { size: 1 });
      if (page.totalResults >= 250 && page.totalResults <= 350) return { from: String(from), to: String(to), total: page.totalResults };
    }
  }
  throw new Error("no employee range holds 250 to 350 companies");
}

/** The shown rows of the table (the first 100), each as header -> cell text. */
async function shownRows(page: Page): Promise<Array<Record<string, string>>> {
  const table = page.getByTestId("sheet-table");
  const headers = await table.locator("thead th").allInnerTexts();
  const rows = await table.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")));
  return rows.map((cells) => Object.fromEntries(headers.map((h, i) => [h.trim(), cells[i] ?? ""])));
}

async function sendTable(page: Page, expect: RegExp): Promise<string> {
  const panel = page.getByTestId("audience-send");
  await panel.getByRole("button", { name: "Check plan" }).click();
  await panel.getByTestId("audience-plan").waitFor();
  await assertFits(page, "the plan");
  const plan = await panel.getByTestId("audience-plan").innerText();
  await panel.getByRole("button", { name: /^Send [\d,]+ rows$/ }).click();
  const result = panel.getByTestId("audience-send-result");
  await result.filter({ hasText: expect }).waitFor({ timeout: 60_000 });
  return plan;
}

describe("send to an audience in the browser", { skip, timeout: 600_000 }, () => {
  let e2e: E2E;
  const clock = manualClock();
  before(async () => {
    e2e = await startE2E({ sandbox: { jobRowsPerSecond: 1000, clock } });
  });
  after(async () => {
    await e2e?.close();
  });

  test("300 leads up, enriched, back beside the right rows; sent again without duplicates; a refused cell on its row", async () => {
    const range = await leadsRange(e2e);
    const { page, errors } = await e2e.openTaskPane();
    await page.setViewportSize({ width: 350, height: 900 });
    const form = page.getByRole("region", { name: "Company search" });
    await form.getByRole("textbox", { name: "Employees from" }).fill(range.from);
    await form.getByRole("textbox", { name: "Employees to" }).fill(range.to);
    await form.getByRole("button", { name: "Insert into sheet" }).click();
    await form
      .getByRole("status")
      .filter({ hasText: /^Inserted / })
      .waitFor({ timeout: 60_000 });
    // Browser mode's selection: a column of the table.
    await page.getByTestId("sheet-table").getByRole("button", { name: "Website" }).click();

    await openSection(page, "Jobs");
    const panel = page.getByTestId("audience-send");
    await panel.getByRole("button", { name: "Read table" }).click();
    const columns = panel.getByRole("group", { name: "Columns" });
    await columns.waitFor();
    // Matched by website and name, as leads are: the id is left out; State becomes a number column.
    await columns.getByRole("combobox", { name: "Company ID" }).selectOption({ label: "Leave out" });
    await columns.getByRole("combobox", { name: "State" }).selectOption({ label: "Whole number" });
    assert.equal(await columns.getByRole("combobox", { name: "Website" }).inputValue(), "criterion:COMPANY_WEBSITE");
    assert.equal(await columns.getByRole("combobox", { name: "Company name" }).inputValue(), "criterion:COMPANY_NAME");
    await panel.getByRole("textbox", { name: "Name" }).fill("Trade show leads");
    await panel.getByTestId("audience-preview").waitFor();
    await assertFits(page, "the mapping and the preview");

    const plan = await sendTable(page, /created, 0 updated/);
    assert.equal(plan, `${range.total} rows in 1 request: ${range.total} new.`);
    let rows = await shownRows(page);
    // Each row says its own refused value; its other cells went up (it was created, it has its link).
    const withState = rows.findIndex((r) => r["State"] !== "");
    assert.ok(withState >= 0, "the leads have a state");
    for (const r of rows) {
      if (r["State"] === "") assert.equal(r["Audience send status"], "Created");
      else assert.equal(r["Audience send status"], `Created; State refused: This column (INTEGER) takes a whole number; "${r["State"]}" is not one.`);
      assert.match(r["Audience row"]!, /^[\w-]+\/[\w-]+$/);
    }
    const problems = panel.getByTestId("audience-row-problems");
    assert.match(await problems.innerText(), new RegExp(`Row ${withState + 2}: Created; State refused`));
    await assertFits(page, "the send's result");

    // Enrich this audience: the job flow, with its estimate first.
    await panel.getByRole("button", { name: "Enrich this audience" }).click();
    const jobs = page.getByTestId("jobs-panel");
    // The job form picks the audience just sent to (its list read again).
    await jobs
      .getByRole("combobox", { name: "Audience", exact: true })
      .locator("option:checked", { hasText: /^Trade show leads \(\d/ })
      .waitFor({ state: "attached" });
    await jobs.getByRole("button", { name: "Start enrichment" }).click();
    await jobs.getByRole("button", { name: /^Start: at most/ }).click();
    await jobs.getByRole("status").filter({ hasText: "started" }).waitFor();
    const job = jobs.locator("li[data-job-id]").filter({ hasText: "Trade show leads" }).first();
    for (let i = 0; i < 100 && !(await job.getAttribute("data-state"))?.match(/SUCCEEDED|FAILED/); i++) await clock.advance(500);
    await job.and(page.locator('[data-state="SUCCEEDED"], [data-state="PARTIALLY_SUCCEEDED"]')).waitFor({ timeout: 60_000 });

    // Bring the results back: by each row's link, beside its own row.
    await panel.getByRole("button", { name: "Bring the results back" }).click();
    await panel
      .getByTestId("audience-back-result")
      .filter({ hasText: /^Brought back / })
      .waitFor({ timeout: 60_000 });
    rows = await shownRows(page);
    // The service's company name column, beside the table's own (named apart from it).
    const enrichedName = Object.keys(rows[0]!).find((h) => /^Company name \(.+\)$/.test(h));
    assert.ok(enrichedName, `headers: ${Object.keys(rows[0]!).join(", ")}`);
    for (const [i, r] of rows.entries()) assert.equal(r[enrichedName], r["Company name"], `row ${i + 2}`);
    await assertFits(page, "the results brought back");

    // Sent again: the linked rows are updated, none added.
    const again = await sendTable(page, /^0 created, [\d,]+ updated/);
    assert.equal(again, `${range.total} rows in 1 request: 0 new, ${range.total} updated.`);
    const token = await e2e.sandbox.token();
    const audiences = (await (await fetch(`${e2e.sandbox.url}/v1/audiences`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      data: { attributes: { name: string; recordCount: number } }[];
    };
    assert.equal(audiences.data.find((a) => a.attributes.name === "Trade show leads")?.attributes.recordCount, range.total);
    await assertFits(page, "the second send");
    assert.deepEqual(errors, []);
    await page.close();
  });
});
