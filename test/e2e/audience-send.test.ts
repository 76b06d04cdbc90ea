// Send to an audience in browser mode, in headless Chromium at 350 px against the sandbox (its
// clock moved by the test): the user's own list of 300 trade-show leads (company, website, a
// contact's email, a headcount, a note; no ids), opened from a CSV file, goes up into a new
// company audience matched by website and name, the email a custom column; one lead's headcount
// typed as words is refused on its row with the service's reason, the row's other cells sent; an
// enrichment job from the estimate; the enriched columns back beside the right rows (the list is
// not in the service's order), after a refused page and Resume; a second send updates the rows
// without adding any. Nothing scrolls sideways.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createServiceClient } from "../../src/core/api/index.js";
import { manualClock } from "../helpers/sandbox.js";
import { assertFits, openSection, type E2E, useE2E, BROWSER_SKIP } from "./helpers.js";

const LEADS = 300;
/** The lead whose headcount was typed as words. */
const WORDS_AT = 41;

/** A CSV file of 300 leads at companies the sandbox knows, in an order of the user's own. */
async function leadsCsv(e2e: E2E): Promise<string> {
  const token = await e2e.sandbox.token();
  const client = createServiceClient({ baseUrl: e2e.sandbox.url, getAccessToken: async () => token });
  const companies: Array<{ name: string; website: string }> = [];
  for await (const page of client.iterateCompanies({}, { pageSize: 100, maxResults: 2 * LEADS, sort: "name" })) {
    for (const c of page.items)
      if (c.attributes.website && c.attributes.name) companies.push({ name: String(c.attributes.name), website: String(c.attributes.website) });
  }
  assert.ok(companies.length >= LEADS, `the sandbox has ${companies.length} companies with a website`);
  const field = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = ["Company,Website,Contact email,Employees,Notes"];
  // Every seventh company, going round: not the order the service lists them in.
  for (let i = 0; i < LEADS; i++) {
    const c = companies[(i * 7) % companies.length]!;
    const domain = c.website
      .replace(/^https?:\/\//, "")
      .replace(/^www\./, "")
      .replace(/\/.*$/, "");
    const employees = i === WORDS_AT ? "about fifty" : String(10 + ((i * 13) % 490));
    lines.push([c.name, c.website, `lead${i + 1}@${domain}`, employees, `Met at booth ${(i % 12) + 1}`].map(field).join(","));
  }
  return lines.join("\r\n") + "\r\n";
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

describe("send to an audience in the browser", { skip: BROWSER_SKIP, timeout: 600_000 }, () => {
  const clock = manualClock();
  const e2e = useE2E({ sandbox: { jobRowsPerSecond: 1000, clock } });

  test("300 leads from a CSV file up, enriched, back beside the right rows; sent again without duplicates; a refused cell on its row", async () => {
    const csv = await leadsCsv(e2e);
    const { page, errors } = await e2e.openTaskPane();
    await page.setViewportSize({ width: 350, height: 900 });
    await page.getByLabel("Open a CSV file as a sheet").setInputFiles({ name: "Trade show leads.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page
      .getByRole("status")
      .filter({ hasText: `Opened Trade show leads.csv: ${LEADS} rows` })
      .waitFor();
    const before = await shownRows(page);
    await page.getByTestId("sheet-table").getByRole("button", { name: "Website" }).click();

    await openSection(page, "Jobs");
    const panel = page.getByTestId("audience-send");
    await panel.getByRole("button", { name: "Read table" }).click();
    const columns = panel.getByRole("group", { name: "Columns" });
    await columns.waitFor();
    // An email column suggests contacts; these leads are companies, matched by website and name,
    // the email kept as a column of its own; the headcounts are whole numbers.
    assert.equal(await columns.getByRole("radio", { name: "Contacts" }).isChecked(), true);
    await columns.getByRole("radio", { name: "Companies" }).check();
    assert.equal(await columns.getByRole("combobox", { name: "Website" }).inputValue(), "criterion:COMPANY_WEBSITE");
    assert.equal(await columns.getByRole("combobox", { name: "Company", exact: true }).inputValue(), "criterion:COMPANY_NAME");
    assert.equal(await columns.getByRole("combobox", { name: "Contact email" }).inputValue(), "column:EMAIL");
    assert.equal(await columns.getByRole("combobox", { name: "Employees" }).inputValue(), "column:INTEGER");
    await panel.getByRole("textbox", { name: "Name" }).fill("Trade show leads");
    await panel.getByTestId("audience-preview").waitFor();
    await assertFits(page, "the mapping and the preview");

    const plan = await sendTable(page, /created, 0 updated/);
    assert.equal(plan, `${LEADS} rows in 1 request: ${LEADS} new.`);
    let rows = await shownRows(page);
    // The user's cells are as they were; each row has its link; the one refused cell is said on its row.
    for (const [i, r] of rows.entries()) {
      for (const h of Object.keys(before[i]!)) assert.equal(r[h], before[i]![h], `row ${i + 2}, ${h}`);
      assert.match(r["Audience row"]!, /^[\w-]+\/[\w-]+$/);
      const refused = 'Created; Employees refused: This column (INTEGER) takes a whole number; "about fifty" is not one.';
      assert.equal(r["Audience send status"], i === WORDS_AT ? refused : "Created", `row ${i + 2}`);
    }
    const problems = panel.getByTestId("audience-row-problems");
    assert.match(await problems.innerText(), new RegExp(`Row ${WORDS_AT + 2}: Created; Employees refused`));
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

    // Bring the results back: by each row's link, beside its own row. The first try's page is
    // refused: the pane says which page, writes nothing, and Resume goes on from it.
    const pages = /\/rows\/actions\/search(\?|$)/;
    await page.route(pages, (route) =>
      route.request().method() === "OPTIONS"
        ? route.continue()
        : route.fulfill({
            status: 400,
            contentType: "application/json",
            headers: { "access-control-allow-origin": "*" },
            body: JSON.stringify({ errors: [{ status: "400", title: "Bad request", detail: "The page could not be read." }] }),
          }),
    );
    await panel.getByRole("button", { name: "Bring the results back" }).click();
    const backResult = panel.getByTestId("audience-back-result");
    await backResult.filter({ hasText: /^Page 1 could not be read: .* Nothing was written; Resume goes on from there\./ }).waitFor({ timeout: 60_000 });
    assert.deepEqual(Object.keys((await shownRows(page))[0]!), Object.keys(rows[0]!), "nothing was brought back yet");
    await page.unroute(pages);
    await backResult.getByRole("button", { name: "Resume" }).click();
    await backResult.filter({ hasText: /^Brought back / }).waitFor({ timeout: 60_000 });
    rows = await shownRows(page);
    // The service's company name for each row is the row's own company (matched by the link, not the position).
    const status = Object.keys(rows[0]!).indexOf("Audience send status");
    const enrichedName = Object.keys(rows[0]!).find((h, i) => i > status && /^Company name/.test(h));
    assert.ok(enrichedName, `headers: ${Object.keys(rows[0]!).join(", ")}`);
    for (const [i, r] of rows.entries()) assert.equal(r[enrichedName], r["Company"], `row ${i + 2}`);
    await assertFits(page, "the results brought back");

    // Read again and sent again: the existing company audience's kind and match columns, not a
    // guess from the email column; the linked rows are updated, none added, and no false error.
    await panel.getByRole("button", { name: "Read table again" }).click();
    await columns.getByRole("radio", { name: "Companies", checked: true }).waitFor();
    assert.equal(await columns.getByRole("radio", { name: "Contacts" }).isDisabled(), true);
    assert.equal(await columns.getByRole("combobox", { name: "Website", exact: true }).inputValue(), "criterion:COMPANY_WEBSITE");
    assert.equal(await columns.getByRole("combobox", { name: "Company", exact: true }).inputValue(), "criterion:COMPANY_NAME");
    assert.equal(await columns.getByRole("combobox", { name: "Contact email", exact: true }).inputValue(), "column:EMAIL");
    const again = await sendTable(page, /^0 created, [\d,]+ updated/);
    const sentAgain = panel.getByTestId("audience-send-result");
    assert.doesNotMatch(await sentAgain.innerText(), /match criteria|not set|Correct it/i);
    assert.equal(again, `${LEADS} rows in 1 request: 0 new, ${LEADS} updated.`);
    const token = await e2e.sandbox.token();
    const audiences = (await (await fetch(`${e2e.sandbox.url}/v1/audiences`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      data: { attributes: { name: string; recordCount: number } }[];
    };
    assert.equal(audiences.data.find((a) => a.attributes.name === "Trade show leads")?.attributes.recordCount, LEADS);
    await assertFits(page, "the second send");
    // The narrowest pane: the mapping, the plan and the results still fit.
    await page.setViewportSize({ width: 320, height: 900 });
    await assertFits(page, "the second send at 320 px");
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("Cancel while a request is out: its rows keep their keys, and sending again finds them instead of adding them", async () => {
    const csv = ["Company,Website,Notes", ...Array.from({ length: 20 }, (_, i) => `Cancel Co ${i + 1},cancel${i + 1}.example.com,note ${i + 1}`)].join("\r\n");
    const { page, errors } = await e2e.openTaskPane();
    await page.setViewportSize({ width: 350, height: 900 });
    await page.getByLabel("Open a CSV file as a sheet").setInputFiles({ name: "Cancelled leads.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("status").filter({ hasText: "Opened Cancelled leads.csv: 20 rows" }).waitFor();
    await openSection(page, "Jobs");
    const panel = page.getByTestId("audience-send");
    await panel.getByRole("button", { name: "Read table" }).click();
    await panel.getByRole("textbox", { name: "Name" }).fill("Cancelled leads");
    // The upsert reaches the service and is applied, but its answer is held until the user cancels.
    const upserts = /\/rows\/actions\/bulk\/upsert(\?|$)/;
    let held!: () => void;
    const out = new Promise<void>((resolve) => (held = resolve));
    const cancelled = new Promise<void>((resolve) =>
      page.route(upserts, async (route) => {
        if (route.request().method() === "OPTIONS") return route.continue();
        const response = await route.fetch();
        held();
        await panel.getByTestId("audience-send-result").waitFor();
        resolve();
        await route.fulfill({ response }).catch(() => undefined);
      }),
    );
    await panel.getByRole("button", { name: "Check plan" }).click();
    await panel.getByRole("button", { name: "Send 20 rows" }).click();
    await out;
    await panel.getByRole("button", { name: "Cancel" }).click();
    await cancelled;
    assert.match(await panel.getByTestId("audience-send-result").innerText(), /^Cancelled: 0 created, 0 updated, 20 not confirmed\. Send again to finish/);
    await page.unroute(upserts);

    const plan = await sendTable(page, /^20 created, 0 updated\.$/);
    assert.equal(plan, "20 rows in 1 request: 0 new, 20 checked first (an earlier send was not confirmed).");
    const token = await e2e.sandbox.token();
    const audiences = (await (await fetch(`${e2e.sandbox.url}/v1/audiences`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      data: { attributes: { name: string; recordCount: number } }[];
    };
    assert.equal(audiences.data.find((a) => a.attributes.name === "Cancelled leads")?.attributes.recordCount, 20);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
