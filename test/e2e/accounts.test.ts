// The Accounts tab at 350 px, in headless Chromium against the sandbox: 300 leads (websites and
// names of 60 companies, no ids) matched, given their corporate family beside each row, and rolled up into a
// summary per family with the deal sizes summed; then a buying committee for 5 accounts in 2
// departments inserted, and contact details for 10 of its people: each spend estimated and
// confirmed first, nothing sent before Confirm. Nothing scrolls sideways.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createServiceClient } from "../../src/core/api/index.js";
import { openSection, overflow, requestsBesidesBackground, type E2E, useE2E, BROWSER_SKIP } from "./helpers.js";

const WIDTH = 350;
const LEADS = 300;
/** The leads name this many companies (five leads each), so the summary shows in full on the page. */
const COMPANIES = 60;
const ORG_CHART = "POST /data/v1/companies/org-chart/enrich";

async function lastTable(page: Page): Promise<{ headers: string[]; rows: string[][] }> {
  const table = page.getByTestId("sheet-table").last();
  const headers = (await table.locator("thead th").allInnerTexts()).map((h) => h.trim());
  const rows = await table.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")));
  return { headers, rows };
}

const pick = (page: Page, header: string) => page.getByTestId("sheet-table").last().getByRole("button", { name: header, exact: true }).click();

/** 300 leads at 60 of the sandbox's companies: name, website, a deal size; no ids. */
async function leadsCsv(e2e: E2E): Promise<{ csv: string; total: number }> {
  const token = await e2e.sandbox.token();
  const client = createServiceClient({ baseUrl: e2e.sandbox.url, getAccessToken: async () => token });
  const companies: Array<{ name: string; website: string }> = [];
  for await (const page of client.iterateCompanies({}, { pageSize: 100, maxResults: 400, sort: "name" })) {
    for (const c of page.items)
      if (c.attributes.website && c.attributes.name) companies.push({ name: String(c.attributes.name), website: String(c.attributes.website) });
  }
  assert.ok(companies.length >= LEADS, `the sandbox has ${companies.length} companies with a website`);
  const field = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = ["Company,Website,Deal size"];
  let total = 0;
  for (let i = 0; i < LEADS; i++) {
    const c = companies[(i * 7) % COMPANIES]!;
    const deal = 1000 + ((i * 37) % 900);
    total += deal;
    lines.push([c.name, c.website, String(deal)].map(field).join(","));
  }
  return { csv: lines.join("\r\n") + "\r\n", total };
}

/** A word found in exactly `n` company names of the sandbox. */
function nameWithCount(e2e: E2E, n: number): string {
  const names = (e2e.sandbox.ctx.db.prepare("SELECT name FROM companies").all() as { name: string }[]).map((r) => r.name.toLowerCase());
  const words = [...new Set(names.flatMap((name) => name.split(/\s+/)))].filter((w) => /^[a-z]{5,}$/.test(w)).sort();
  const word = words.find((w) => names.filter((name) => name.includes(w)).length === n);
  assert.ok(word, `a word in exactly ${n} names`);
  return word;
}

async function rollUp(e2e: E2E, page: Page): Promise<void> {
  const { csv, total } = await leadsCsv(e2e);
  await page.getByLabel("Open a CSV file as a sheet").setInputFiles({ name: "Leads.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page
    .getByRole("status")
    .filter({ hasText: `Opened Leads.csv: ${LEADS} rows` })
    .waitFor();
  // The websites matched to ids first (estimated, then confirmed), then the family of each id.
  await pick(page, "Website");
  await openSection(page, "Enrich");
  await page.getByRole("radio", { name: "Websites, names, emails" }).click();
  await page.getByRole("button", { name: "Read selection" }).click();
  await page.getByRole("combobox", { name: "The column holds" }).waitFor();
  await page.getByRole("button", { name: "Check list" }).click();
  await page.getByRole("region", { name: "Before you run" }).getByRole("button", { name: "Match and enrich" }).click();
  await page
    .getByRole("status")
    .filter({ hasText: `${LEADS} matched` })
    .waitFor({ timeout: 120_000 });
  await pick(page, "Company ID (by website)");
  await page.getByRole("radio", { name: "Ids" }).click();
  await page.getByRole("radio", { name: "Corporate family of the companies" }).click();
  await page.getByRole("button", { name: "Check selection" }).click();
  await page
    .getByRole("region", { name: "Before you run" })
    .getByRole("button", { name: /^Enrich [\d,]+ ids$/ })
    .click();
  await page.getByTestId("sheet-table").last().getByRole("button", { name: "Ultimate parent id", exact: true }).waitFor({ timeout: 120_000 });
  assert.deepEqual(await overflow(page), [], "after the family columns");

  await pick(page, "Ultimate parent id");
  await openSection(page, "Accounts");
  const families = page.getByRole("region", { name: "Account families" });
  await families.getByRole("button", { name: "Read table" }).click();
  await families.getByRole("checkbox", { name: "Deal size" }).check();
  await families.getByRole("button", { name: "Insert family summary" }).click();
  await page
    .getByTestId("family-message")
    .filter({ hasText: /^Inserted [\d,]+ families into table Account_families/ })
    .waitFor();
  const summary = await lastTable(page);
  assert.deepEqual(summary.headers.slice(0, 4), ["Ultimate parent id", "Ultimate parent", "Rows", "Sum of Deal size"]);
  const sumOf = (column: number) => summary.rows.reduce((s, r) => s + Number((r[column] ?? "").replace(/,/g, "")), 0);
  assert.equal(sumOf(2), LEADS, "every lead in one family row");
  assert.equal(sumOf(3), total, "the deal sizes summed");
  assert.ok(summary.rows.length <= COMPANIES, "the leads of a family rolled up together");
  assert.deepEqual(await overflow(page), [], "after the summary");
}

async function committee(e2e: E2E, page: Page): Promise<void> {
  await openSection(page, "Companies");
  const form = page.getByRole("region", { name: "Company search" });
  await form.getByRole("textbox", { name: "Company name" }).fill(nameWithCount(e2e, 5));
  await form.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByTestId("preview-table").waitFor();
  await form.getByRole("button", { name: "Insert into sheet" }).click();
  await form
    .getByRole("status")
    .filter({ hasText: /Inserted (all )?5 compan/ })
    .waitFor({ timeout: 60_000 });
  const accounts = await lastTable(page);
  const ids = accounts.rows.map((r) => r[accounts.headers.indexOf("Company ID")]!);
  await pick(page, "Company ID");

  await openSection(page, "Accounts");
  await page.getByRole("radio", { name: "Buying committees" }).click();
  const panel = page.getByRole("region", { name: "Buying committees" });
  await panel.getByRole("checkbox", { name: "Sales", exact: true }).check();
  await panel.getByRole("checkbox", { name: "Engineering & Technical" }).check();
  e2e.sandbox.resetStats();
  await panel.getByRole("button", { name: "Estimate committees" }).click();
  const estimate = panel.getByRole("group", { name: "Committee estimate" });
  await estimate.getByText("5 accounts in 2 departments: up to 5 credits (one per account).").waitFor();
  assert.equal(e2e.sandbox.requests(ORG_CHART), 0, "nothing fetched before Confirm");
  assert.deepEqual(await overflow(page), [], "the committee estimate");
  await estimate.getByRole("button", { name: "Get committees" }).click();
  const found = await panel
    .getByTestId("committee-message")
    .filter({ hasText: /people found/ })
    .innerText();
  assert.equal(e2e.sandbox.requests(ORG_CHART), 5, "one request per account");
  const people = Number(/([\d,]+) people found/.exec(found)?.[1]?.replace(/,/g, ""));
  assert.ok(people >= 10, found);
  await panel.getByRole("button", { name: `Insert ${people} people into sheet` }).click();
  await panel
    .getByTestId("committee-message")
    .filter({ hasText: `Inserted ${people} people into table Buying_committees` })
    .waitFor();
  const inserted = await lastTable(page);
  assert.equal(inserted.rows.length, people);
  for (const row of inserted.rows) assert.ok(ids.includes(row[0]!), `row of account ${row[0]}`);
  assert.ok(inserted.rows.every((r) => ["Sales", "Engineering & Technical"].includes(r[2]!)));
  await contactDetails(e2e, page);
}

async function contactDetails(e2e: E2E, page: Page): Promise<void> {
  const panel = page.getByRole("region", { name: "Buying committees" });
  const list = panel.getByRole("group", { name: /^People for contact details/ });
  for (const box of (await list.getByRole("checkbox").all()).slice(0, 10)) await box.check();
  e2e.sandbox.resetStats();
  await panel.getByRole("button", { name: "Get contact details" }).click();
  const estimate = panel.getByRole("group", { name: "Contact details estimate" });
  await estimate.getByText(/^Contact details of 10 people: up to 10 credits\./).waitFor();
  assert.deepEqual(requestsBesidesBackground(e2e.sandbox), [], "nothing enriched before Confirm");
  assert.deepEqual(await overflow(page), [], "the contact details estimate");
  await estimate.getByRole("button", { name: "Get details" }).click();
  await panel.getByTestId("contact-details-message").filter({ hasText: "Contact details of 10 people." }).waitFor({ timeout: 60_000 });
  await panel.getByRole("button", { name: "Insert 10 contact details into sheet" }).click();
  await panel.getByTestId("contact-details-message").filter({ hasText: "Inserted 10 people into table Committee_contacts" }).waitFor();
  const details = await lastTable(page);
  assert.deepEqual(details.headers.slice(0, 7), ["Person id", "First name", "Last name", "Job title", "Account id", "Account", "Email"]);
  assert.equal(details.rows.length, 10);
  assert.ok(
    details.rows.some((r) => /@/.test(r[6] ?? "")),
    "emails came back",
  );
}

describe("accounts in the task pane", { skip: BROWSER_SKIP, timeout: 600_000 }, () => {
  const e2e = useE2E({ sandbox: { companies: 400, contacts: 8000 } });

  test(`${WIDTH} px: 300 leads rolled up by family; a committee of 5 accounts in 2 departments, then contact details for 10 of its people`, async () => {
    const { page, errors } = await e2e.openTaskPane();
    await page.setViewportSize({ width: WIDTH, height: 900 });
    await page.getByRole("button", { name: /^More sections/ }).waitFor();
    await rollUp(e2e, page);
    await committee(e2e, page);
    assert.deepEqual(await overflow(page), [], "at the end");
    assert.deepEqual(errors, []);
    await page.close();
  });
});
