// Research in the task pane at 350 px, in headless Chromium against the sandbox: a briefing with
// its estimate in AI action credits and a confirm, rendered as formatted text; a question on it;
// lookalikes of a selection of five companies inserted as one table, leaving out the seeds; and
// recommended contacts for two accounts, linked to them. Nothing scrolls sideways.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { layoutSettled, openSection, overflow, requestsBesidesBackground, type E2E, useE2E, BROWSER_SKIP } from "./helpers.js";

const WIDTH = 350;

async function lastTable(page: Page): Promise<{ headers: string[]; rows: string[][] }> {
  const table = page.getByTestId("sheet-table").last();
  const headers = (await table.locator("thead th").allInnerTexts()).map((h) => h.trim());
  const rows = await table.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")));
  return { headers, rows };
}

/** A word found in exactly `n` company names of the sandbox (the company search matches names containing it). */
function nameWithCount(e2e: E2E, n: number): string {
  const names = (e2e.sandbox.ctx.db.prepare("SELECT name FROM companies").all() as { name: string }[]).map((r) => r.name.toLowerCase());
  const words = [...new Set(names.flatMap((name) => name.split(/\s+/)))].filter((w) => /^[a-z]{5,}$/.test(w)).sort();
  const word = words.find((w) => names.filter((name) => name.includes(w)).length === n);
  assert.ok(word, `a word in exactly ${n} names`);
  return word;
}

/** Inserts the companies whose names contain `word` and picks their Company ID column as the selection. */
async function insertAndSelect(page: Page, word: string, expected: number): Promise<string[]> {
  await openSection(page, "Companies");
  const form = page.getByRole("region", { name: "Company search" });
  await form.getByRole("textbox", { name: "Company name" }).fill(word);
  await form.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByTestId("preview-table").waitFor();
  await form.getByRole("button", { name: "Insert into sheet" }).click();
  await form
    .getByRole("status")
    .filter({ hasText: new RegExp(`Inserted (all )?${expected} compan`) })
    .waitFor({ timeout: 60_000 });
  const table = await lastTable(page);
  await page.getByTestId("sheet-table").last().getByRole("button", { name: "Company ID", exact: true }).click();
  return table.rows.map((r) => r[table.headers.indexOf("Company ID")]!);
}

/** The insert's outcome is on screen with the focus in it, and the inserted table's sheet is the one shown. */
async function assertOutcomeInView(page: Page, message: Locator, sheet: string): Promise<void> {
  const box = await message.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, height: window.innerHeight, focused: el.parentElement?.contains(document.activeElement) === true };
  });
  assert.ok(box.top >= 0 && box.bottom <= box.height, `the outcome is on screen: ${JSON.stringify(box)}`);
  assert.ok(box.focused, "the focus moved to the outcome");
  assert.equal(await page.getByRole("tablist", { name: "Sheets" }).getByRole("tab", { selected: true }).innerText(), sheet);
}

describe("research in the task pane", { skip: BROWSER_SKIP, timeout: 600_000 }, () => {
  const e2e = useE2E({ sandbox: { companies: 600, contacts: 3000 } });

  test(`${WIDTH} px: a briefing and a question, lookalikes of five companies, recommended contacts for two accounts`, async () => {
    const { page, errors } = await e2e.openTaskPane();
    await page.setViewportSize({ width: WIDTH, height: 900 });
    await page.getByRole("button", { name: /^More sections/ }).waitFor();

    // Nothing selected yet: each part says what to select, and nothing is sent.
    await openSection(page, "Research");
    e2e.sandbox.resetStats();
    await page.getByRole("region", { name: "Briefing" }).getByRole("button", { name: "Briefings for the selection" }).click();
    await page.getByTestId("briefing-message").getByText("Pick the column of ids first: click its header in a table below.").waitFor();
    await page.getByRole("radio", { name: "Lookalikes" }).click();
    await page.getByRole("region", { name: "Lookalikes" }).getByRole("button", { name: "Find similar companies" }).click();
    await page.getByTestId("lookalikes-message").getByText("Pick the column of ids first: click its header in a table below.").waitFor();
    assert.deepEqual(requestsBesidesBackground(e2e.sandbox), [], "nothing sent for an empty selection");
    assert.deepEqual(await overflow(page), [], "empty selection");
    await page.getByRole("radio", { name: "Briefing" }).click();

    const seeds = await insertAndSelect(page, nameWithCount(e2e, 5), 5);
    assert.equal(seeds.length, 5);

    // A briefing: the estimate first, nothing sent until it is confirmed.
    await openSection(page, "Research");
    const briefing = page.getByRole("region", { name: "Briefing" });
    await briefing.getByRole("textbox", { name: "Company (id, website or name)" }).fill(seeds[0]!);
    e2e.sandbox.resetStats();
    await briefing.getByRole("button", { name: "Get briefing" }).click();
    const estimate = briefing.getByTestId("research-estimate");
    await estimate.getByText(/^1 briefing: 1 AI action credit; you have \d+\.$/).waitFor();
    assert.equal(e2e.sandbox.requests(`GET /data/v1/research/accounts/:companyId`), 0, "nothing sent before Confirm");
    assert.deepEqual(await overflow(page), [], "estimate");
    await estimate.getByRole("button", { name: "Get briefing" }).click();
    const article = briefing.getByTestId("briefing");
    await article.locator("h1, h2").first().waitFor({ timeout: 30_000 });
    assert.ok((await article.innerText()).length > 40, "formatted text");
    for (const href of await article.locator("a").evaluateAll((as) => as.map((a) => [a.getAttribute("href"), a.getAttribute("target")])))
      assert.ok(/^https?:/.test(href[0] ?? "") && href[1] === "_blank", JSON.stringify(href));
    assert.deepEqual(await overflow(page), [], "briefing");

    // A question on it: also estimated and confirmed.
    await briefing.getByRole("textbox", { name: /Ask a question/ }).fill("How many employees does it have?");
    await briefing.getByRole("button", { name: "Ask", exact: true }).click();
    await briefing
      .getByTestId("research-estimate")
      .getByText(/^1 question: 1 AI action credit; you have \d+\.$/)
      .waitFor();
    await briefing.getByTestId("research-estimate").getByRole("button", { name: "Ask", exact: true }).click();
    const answer = briefing.getByTestId("research-answer");
    await answer.waitFor({ timeout: 30_000 });
    assert.match(await answer.innerText(), /How many employees does it have\?[\s\S]+\S/);
    assert.deepEqual(await overflow(page), [], "answer");
    const aiToday = page.getByRole("group", { name: "AI action credits" });
    await aiToday.getByText(/^Today: 2 of 100 used\./).waitFor();
    // Briefings are kept on this device only (the service keeps none for the user): the pane says so.
    await aiToday.getByText(/a briefing fetched before on this device is reused free \(another device or browser pays for it again\)/).waitFor();

    // Briefings for the five selected companies: the one fetched above is reused, not paid again.
    await briefing.getByRole("button", { name: "Briefings for the selection" }).click();
    await briefing
      .getByTestId("research-estimate")
      .getByText(/^5 briefings: 4 AI action credits \(1 briefing already fetched, reused free\); you have \d+\.$/)
      .waitFor();
    e2e.sandbox.resetStats();
    await briefing.getByTestId("research-estimate").getByRole("button", { name: "Get briefings" }).click();
    await briefing.getByTestId("briefing-message").getByText("5 briefings (1 reused, not paid again).").waitFor({ timeout: 30_000 });
    assert.equal(e2e.sandbox.requests("GET /data/v1/research/accounts/:companyId"), 4);
    const show = briefing.getByRole("combobox", { name: "Show the briefing of" });
    assert.equal(await show.locator("option").count(), 5);
    // Companies are named by name; the answer stays with its own company's briefing.
    const names = await show.locator("option").allInnerTexts();
    assert.ok(
      names.every((n) => n.trim() !== "" && !/^company \d+$/i.test(n.trim())),
      names.join(" | "),
    );
    const first = seeds[0]!;
    await show.selectOption(first);
    const firstName = (await show.locator("option:checked").innerText()).trim();
    await briefing.getByRole("textbox", { name: `Ask a question about ${firstName}` }).waitFor();
    const other = await show.locator("option").evaluateAll((os, id) => os.map((o) => (o as HTMLOptionElement).value).find((v) => v !== id), first);
    await show.selectOption(other!);
    const otherName = (await show.locator("option:checked").innerText()).trim();
    await briefing.getByRole("textbox", { name: `Ask a question about ${otherName}` }).waitFor();
    assert.equal(await answer.count(), 0, "no answer about another company under this briefing");
    await show.selectOption(first);
    await briefing.getByRole("region", { name: `Answer about ${firstName}` }).waitFor();
    assert.match(await answer.innerText(), /How many employees does it have\?/);
    assert.deepEqual(await overflow(page), [], "five briefings");
    await aiToday.getByText(/^Today: 6 of 100 used\./).waitFor();

    // A website no company has: estimated (matching first), then said in words; nothing spent, the briefings shown stay.
    await briefing.getByRole("textbox", { name: "Company (id, website or name)" }).fill("no-such-company-zz.example");
    await briefing.getByRole("button", { name: "Get briefing" }).click();
    await briefing
      .getByTestId("research-estimate")
      .getByText(/^1 briefing: 1 AI action credit; you have \d+\. Finding 1 company by website or name first: (no credits|up to 1 credit)\.$/)
      .waitFor();
    await briefing.getByTestId("research-estimate").getByRole("button", { name: "Get briefing" }).click();
    await briefing
      .getByTestId("briefing-message")
      .getByText(/^0 briefings\. Not found: no-such-company-zz\.example: .+ The results shown are the earlier ones\.$/)
      .waitFor({ timeout: 30_000 });
    await article.locator("h1, h2").first().waitFor();
    assert.equal(await briefing.getByRole("combobox", { name: "Show the briefing of" }).locator("option").count(), 5);
    await aiToday.getByText(/^Today: 6 of 100 used\./).waitFor();
    assert.deepEqual(await overflow(page), [], "a website that matches nothing");

    // The daily AI limit, set to what today used, blocks the next question before anything is sent.
    await aiToday.getByRole("spinbutton", { name: "AI action credits per day" }).fill("6");
    await aiToday.getByRole("button", { name: "Save" }).click();
    await aiToday.getByText("Saved: up to 6 AI action credits a day.").waitFor();
    await briefing.getByRole("button", { name: "Ask", exact: true }).click();
    const blocked = briefing.getByTestId("research-estimate");
    await blocked.getByText(/your daily AI limit has 0 left today \(6 of 6 used\)/).waitFor();
    assert.equal(await blocked.getByRole("button", { name: "Ask", exact: true }).isDisabled(), true, "nothing can be confirmed");
    assert.deepEqual(await overflow(page), [], "blocked by the daily AI limit");
    await blocked.getByRole("button", { name: "Cancel" }).click();

    // Lookalikes of the five selected companies, inserted as one table.
    await page.getByRole("radio", { name: "Lookalikes" }).click();
    const lookalikes = page.getByRole("region", { name: "Lookalikes" });
    await lookalikes.getByRole("spinbutton", { name: /How many companies/ }).fill("40");
    e2e.sandbox.resetStats();
    await lookalikes.getByRole("button", { name: "Find similar companies" }).click();
    await lookalikes
      .getByTestId("lookalikes-message")
      .getByText(/similar companies from 5 seed companies/)
      .waitFor({ timeout: 60_000 });
    assert.equal(e2e.sandbox.requests("GET /data/v1/lookalikes/companies"), 5, "one request per seed");
    assert.deepEqual(await overflow(page), [], "lookalikes found");
    // At 320 px, looking at the seeds' sheet: Insert brings its outcome into view and shows the new sheet.
    await page.setViewportSize({ width: 320, height: 900 });
    await page.getByRole("tablist", { name: "Sheets" }).getByRole("tab").first().click();
    await lookalikes.getByRole("button", { name: /^Insert \d+ companies into sheet$/ }).click();
    await lookalikes
      .getByTestId("lookalikes-message")
      .getByText(/Inserted \d+ companies into table/)
      .waitFor({ timeout: 30_000 });
    await assertOutcomeInView(page, lookalikes.getByTestId("lookalikes-message"), "Lookalikes");
    await page.setViewportSize({ width: WIDTH, height: 900 });
    const similar = await lastTable(page);
    assert.deepEqual(similar.headers.slice(0, 5), ["Rank", "Company id", "Company name", "Score", "Similar to"]);
    assert.equal(similar.rows.length, 40);
    const ids = similar.rows.map((r) => r[1]!);
    assert.equal(new Set(ids).size, ids.length, "each company once");
    assert.ok(!ids.some((id) => seeds.includes(id)), "the seeds are left out");
    assert.deepEqual(
      similar.rows.map((r) => r[0]),
      similar.rows.map((_, i) => String(i + 1)),
    );
    for (const row of similar.rows)
      assert.ok(
        row[4]!.split(", ").every((seed) => seeds.includes(seed)),
        row[4],
      );
    assert.deepEqual(await overflow(page), [], "lookalikes inserted");

    // Recommended contacts for two accounts.
    const accounts = await insertAndSelect(page, nameWithCount(e2e, 2), 2);
    await openSection(page, "Research");
    await page.getByRole("radio", { name: "Recommended contacts" }).click();
    const contacts = page.getByRole("region", { name: "Recommended contacts" });
    await contacts.getByRole("combobox", { name: "Use case" }).selectOption("DEAL_ACCELERATION");
    await contacts.getByRole("button", { name: "Recommend contacts" }).click();
    await contacts
      .getByTestId("recommendations-message")
      .getByText(/recommended contacts at 2 accounts/)
      .waitFor({ timeout: 60_000 });
    await contacts.getByRole("button", { name: /^Insert \d+ contacts into sheet$/ }).click();
    await contacts
      .getByTestId("recommendations-message")
      .getByText(/Inserted \d+ contacts into table/)
      .waitFor({ timeout: 30_000 });
    await assertOutcomeInView(page, contacts.getByTestId("recommendations-message"), "Contacts");
    const people = await lastTable(page);
    assert.deepEqual(people.headers, ["Account id", "Rank", "Contact id", "Contact name", "Job title", "Company name", "Score", "Brief"]);
    assert.ok(people.rows.length > 0);
    for (const row of people.rows) assert.ok(row[3]!.trim() !== "" && row[5]!.trim() !== "", `each contact has a name and a company: ${row.join(" | ")}`);
    assert.deepEqual([...new Set(people.rows.map((r) => r[0]))].sort(), [...accounts].sort(), "linked to the two accounts");
    assert.deepEqual(await overflow(page), [], "contacts inserted");
    // At 320 px too, every part of the tab with its results fits.
    await page.setViewportSize({ width: 320, height: 900 });
    for (const part of ["Briefing", "Lookalikes", "Recommended contacts"]) {
      await page.getByRole("radio", { name: part }).click();
      await layoutSettled(page);
      assert.deepEqual(await overflow(page), [], `${part} at 320 px`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
});
