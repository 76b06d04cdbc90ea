// Signals in the task pane at 350 px, in headless Chromium against the sandbox: an intent search
// (topics from the lookup picker, a score range) previewed and inserted into a table whose rows
// are the sandbox's own answer; the pane never scrolls sideways. And a user whose plan lacks
// intent and research sees them greyed with the reason, and their cells answer without a request.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ROLES } from "../../src/core/contract/index.js";
import { openSection, overflow, seriousAccessibilityViolations, type E2E, useE2E, BROWSER_SKIP } from "./helpers.js";
import type { Page } from "playwright-core";
import { manualClock } from "../helpers/sandbox.js";

const WIDTH = 350;

/** Every intent signal the sandbox's API answers for the search. */
async function sandboxSignals(e2e: E2E, attributes: object): Promise<{ company: string; topic: string; score: string }[]> {
  const token = await e2e.sandbox.token();
  const out: { company: string; topic: string; score: string }[] = [];
  for (let page = 1; page <= 100; page++) {
    const res = await fetch(`${e2e.sandbox.url}/data/v1/intent/search?page[number]=${page}&page[size]=100`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ data: { type: "IntentSearch", attributes } }),
    });
    assert.equal(res.status, 200);
    const doc = (await res.json()) as { data: { attributes: { company: { id: number }; topic: string; signalScore: number } }[] };
    out.push(...doc.data.map((d) => ({ company: String(d.attributes.company.id), topic: d.attributes.topic, score: String(d.attributes.signalScore) })));
    if (doc.data.length < 100) break;
  }
  return out;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** The signals the Insights form ticks first (src/taskpane/signals/insightTables.ts). */
const MORNING_TYPES = ["zi.funding", "zi.cxochange", "zi.account-level-intent.spike", "zi.buyingcommitteechange", "zi.scoop"];

/** The sandbox's insights of these companies for the form's first types: signal id -> company id. */
async function sandboxInsights(e2e: E2E, ids: readonly number[]): Promise<Map<string, number>> {
  const token = await e2e.sandbox.token();
  const res = await fetch(`${e2e.sandbox.url}/copilot/v1/companies/insights`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ data: { type: "CompanyInsightsSearch", attributes: { ziCompanyIds: ids, signalTypes: MORNING_TYPES } } }),
  });
  assert.equal(res.status, 200);
  const doc = (await res.json()) as { data: { attributes: { insights: { signalId: string; ziCompanyId: number }[] } }[] };
  return new Map(doc.data.flatMap((d) => d.attributes.insights.map((i) => [i.signalId, i.ziCompanyId] as const)));
}

/** The last table on the page: its headers and rows as shown. */
async function lastTable(page: Page): Promise<{ headers: string[]; rows: string[][] }> {
  const table = page.getByTestId("sheet-table").last();
  const headers = (await table.locator("thead th").allInnerTexts()).map((h) => h.trim());
  const rows = await table.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")));
  return { headers, rows };
}

describe("signals in the task pane", { skip: BROWSER_SKIP, timeout: 600_000 }, () => {
  // The sandbox's day stands still until the insights test moves it.
  const clock = manualClock(Date.parse("2026-11-20T09:00:00Z"));
  const e2e = useE2E({ sandbox: { companies: 600, clock } });

  // Insights for 20 accounts inserted, kept as the morning list and refreshed in place the next
  // day (the sandbox's clock moved), the new ones marked.
  test(`${WIDTH} px: insights for 20 accounts, kept as the morning list and refreshed the next day with the new ones marked`, async () => {
    // 20 accounts that have insights today, by id.
    const candidates = (e2e.sandbox.ctx.db.prepare("SELECT id FROM companies ORDER BY id LIMIT 50").all() as { id: number }[]).map((r) => r.id);
    const today = await sandboxInsights(e2e, candidates);
    const accounts = [...new Set(today.values())].slice(0, 20);
    assert.equal(accounts.length, 20, "20 of the sandbox's companies have insights today");
    const { page, errors } = await e2e.openTaskPane();
    await page.setViewportSize({ width: WIDTH, height: 900 });
    await page.getByRole("button", { name: /^More sections/ }).waitFor();
    const csv = ["Company id", ...accounts.map(String)].join("\r\n") + "\r\n";
    await page.getByLabel("Open a CSV file as a sheet").setInputFiles({ name: "Accounts.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("status").filter({ hasText: "Opened Accounts.csv: 20 rows" }).waitFor();
    await page.getByTestId("sheet-table").last().getByRole("button", { name: "Company id", exact: true }).click();

    await openSection(page, "Signals");
    const form = page.getByRole("region", { name: "Insights" });
    await form.getByText("Insights are free", { exact: false }).waitFor();
    await form.getByRole("button", { name: "Get insights" }).click();
    await form
      .getByTestId("insights-message")
      .getByText(/insights? for 20 companies/)
      .waitFor({ timeout: 60_000 });
    const expected = await sandboxInsights(e2e, accounts);
    const first = await lastTable(page);
    const at = (name: string) => first.headers.indexOf(name);
    assert.ok(at("New") >= 0 && at("Signal id") >= 0 && at("Type") >= 0 && at("Summary") >= 0, first.headers.join("|"));
    assert.deepEqual(first.rows.map((r) => r[at("Signal id")]).sort(), [...expected.keys()].sort());
    assert.ok(
      first.rows.every((r) => r[at("New")] === ""),
      "a first table marks nothing new",
    );
    assert.deepEqual(await overflow(page), [], "insights inserted");
    await form.getByRole("button", { name: "Keep as my morning list" }).click();
    await form.getByText(/Kept as "Insights for my accounts"/).waitFor();

    // The next morning: the sandbox's day moves on, and the list is refreshed in place.
    await clock.advance(DAY_MS);
    const tomorrow = await sandboxInsights(e2e, accounts);
    const fresh = [...tomorrow.keys()].filter((id) => !expected.has(id));
    assert.ok(fresh.length > 0, "a day brings new insights to some of the 20 accounts");
    await openSection(page, "Saved");
    await page.getByRole("button", { name: "Refresh Insights for my accounts with today's insights" }).click();
    await page
      .getByTestId("morning-list-message")
      .getByText(/new since the last refresh/)
      .waitFor({ timeout: 60_000 });
    const next = await lastTable(page);
    assert.deepEqual(next.rows.map((r) => r[at("Signal id")]).sort(), [...tomorrow.keys()].sort());
    const marked = next.rows.filter((r) => r[at("New")] === "New").map((r) => r[at("Signal id")]);
    assert.deepEqual(marked.sort(), fresh.sort());
    await page
      .getByTestId("morning-list-message")
      .getByText(`${fresh.length} ${fresh.length === 1 ? "is" : "are"} new since the last refresh`, { exact: false })
      .waitFor();
    assert.deepEqual(await overflow(page), [], "after the refresh");
    assert.deepEqual(errors, []);
  });

  test(`${WIDTH} px: an intent search from the topic picker is previewed and inserted into a table`, async () => {
    const { page, errors } = await e2e.openTaskPane();
    await page.setViewportSize({ width: WIDTH, height: 900 });
    // The strip has settled at this width once it shows its More menu.
    await page.getByRole("button", { name: /^More sections/ }).waitFor();
    await openSection(page, "Signals");
    await page.getByRole("region", { name: "Intent search" }).waitFor();
    const form = page.getByRole("region", { name: "Intent search" });

    // Before the user has done anything, nothing asks to be fixed.
    assert.equal(await form.getByText(/^Fix before/).count(), 0, "no 'Fix before' before any input");
    // Searching without a topic says what is missing, in the user's terms.
    await form.getByRole("button", { name: "Search", exact: true }).click();
    await form
      .getByText(/Choose at least one topic/)
      .first()
      .waitFor();

    const topics = form.getByRole("combobox", { name: "Topics" });
    await topics.click();
    await topics.fill("Cloud Sec");
    await page.getByRole("menuitemcheckbox", { name: "Cloud Security", exact: true }).click();
    await topics.fill("Machine");
    await page.getByRole("menuitemcheckbox", { name: "Machine Learning", exact: true }).click();
    await page.keyboard.press("Escape");
    await form.getByRole("textbox", { name: "Score from" }).fill("70");
    assert.deepEqual(await overflow(page), [], "form filled");

    await form.getByRole("button", { name: "Search", exact: true }).click();
    const expected = await sandboxSignals(e2e, { topics: ["Cloud Security", "Machine Learning"], signalScoreMin: 70 });
    assert.ok(expected.length > 0);
    await form
      .getByRole("region", { name: "Preview" })
      .getByText(`${expected.length.toLocaleString("en-US")} intent signals match.`)
      .waitFor();
    assert.deepEqual(await overflow(page), [], "preview");
    const violations = await seriousAccessibilityViolations(page);
    assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));

    await form.getByRole("button", { name: "Insert into sheet" }).click();
    await form.getByText(`Inserted all ${expected.length.toLocaleString("en-US")} intent signals`, { exact: false }).waitFor({ timeout: 60_000 });
    const table = page.getByTestId("sheet-table");
    const headers = await table.locator("thead th").allInnerTexts();
    for (const h of ["Company id", "Company name", "Website", "Topic", "Signal score", "Signal date", "Recommended contacts"])
      assert.ok(
        headers.some((x) => x.includes(h)),
        `${h} in ${headers.join("|")}`,
      );
    const rows = await table.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")));
    assert.equal(rows.length, expected.length);
    const col = (name: string) => headers.findIndex((h) => h.includes(name));
    const got = rows.map((r) => `${r[col("Company id")]}|${r[col("Topic")]}|${r[col("Signal score")]}`).sort();
    assert.deepEqual(got, expected.map((e) => `${e.company}|${e.topic}|${e.score}`).sort());
    // Dates are written as dates (shown as ISO text in browser mode), not as free text.
    assert.ok(rows.every((r) => /^\d{4}-\d{2}-\d{2}$/.test(r[col("Signal date")] ?? "")));
    assert.deepEqual(await overflow(page), [], "after insert");

    // The table's company ids, enriched with signal columns from the Enrich tab.
    await table.getByRole("button", { name: "Company id", exact: true }).click();
    await openSection(page, "Enrich");
    const enrich = page.getByRole("region", { name: "Enrich selection" });
    await enrich.getByRole("radio", { name: "Intent scores of the companies" }).check();
    await enrich.getByRole("textbox", { name: "Topics" }).fill("Cloud Security, Machine Learning");
    await enrich.getByRole("button", { name: "Check selection" }).click();
    await enrich.getByRole("button", { name: /^Enrich \d+ ids$/ }).click();
    await page.getByText(/Wrote \d+ columns/).waitFor({ timeout: 60_000 });
    const after = await table.locator("thead th").allInnerTexts();
    const enriched = await table.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")));
    const scoreOf = (topic: string) => after.findIndex((h) => h.trim() === topic);
    assert.ok(scoreOf("Cloud Security") > 0 && scoreOf("Machine Learning") > 0, after.join(" | "));
    // A row's own signal and its company's enriched score on that topic agree.
    for (const r of enriched) assert.equal(r[scoreOf(r[col("Topic")] ?? "")], r[col("Signal score")]);
    assert.deepEqual(await overflow(page), [], "after enriching");

    // A column of websites: matched to company ids, whose latest scoops go in columns beside.
    await table.getByRole("button", { name: "Website", exact: true }).click();
    await enrich.getByRole("radio", { name: "Websites, names, emails" }).click();
    await enrich.getByRole("button", { name: "Read selection" }).click();
    await enrich.getByRole("button", { name: "Check list" }).click();
    await enrich.getByRole("button", { name: "Match and enrich" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: /matched/ })
      .waitFor({ timeout: 60_000 });
    // The matched ids are named by what they were matched from, apart from the table's "Company id".
    await table.getByRole("button", { name: "Company ID (by website)", exact: true }).click();
    await enrich.getByRole("radio", { name: "Ids" }).click();
    await enrich.getByRole("radio", { name: "Scoops of the companies" }).check();
    await enrich.getByRole("button", { name: "Check selection" }).click();
    await enrich.getByRole("button", { name: /^Enrich \d+ ids$/ }).click();
    await table.getByRole("button", { name: "Latest scoop", exact: true }).waitFor({ timeout: 60_000 });
    const final = await table.locator("thead th").allInnerTexts();
    const last = await table.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")));
    const at = (h: string) => final.findIndex((x) => x.trim() === h);
    const token = await e2e.sandbox.token();
    for (const r of last.slice(0, 5)) {
      const res = await fetch(`${e2e.sandbox.url}/data/v1/scoops/enrich`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ data: { type: "ScoopEnrich", attributes: { companyId: r[col("Company id")] } } }),
      });
      const scoops = ((await res.json()) as { data: { attributes: { linkText: string; publishedDate: string } }[] }).data;
      assert.equal(r[at("Company ID (by website)")], r[col("Company id")], "the website matched the row's company");
      assert.equal(r[at("Latest scoop")], scoops[0]?.attributes.linkText ?? "");
      assert.equal(r[at("Latest scoop date")], (scoops[0]?.attributes.publishedDate ?? "").slice(0, 10));
    }
    assert.deepEqual(await overflow(page), [], "after the scoops");
    assert.deepEqual(errors, []);
  });
  test(`${WIDTH} px: a user without intent and without research sees them greyed with the reason before trying, and their cells answer without a request`, async () => {
    // The basic user's plan (docs/entitlements.md): the data, scoops, news, technologies and the limits; no intent, no research.
    const basic = [ROLES.dataApi, ROLES.scoops, ROLES.news, ROLES.technologies, ROLES.audiences, ROLES.bulkCredits, ROLES.aiCredits];
    const page = await e2e.chromium.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.route("**/__sandbox/token", (route) => route.continue({ postData: JSON.stringify({ roles: basic }) }));
    await page.setViewportSize({ width: WIDTH, height: 900 });
    await page.goto(e2e.taskPaneUrl());
    await page.getByRole("tab", { name: "Companies" }).waitFor({ timeout: 30_000 });

    await openSection(page, "Signals");
    const signals = page.getByRole("region", { name: "Signals" });
    await signals.getByText("Intent signals are not in your account's plan. Ask your administrator to add them.").waitFor();
    assert.ok(await signals.getByRole("radio", { name: "Buyer intent" }).isDisabled());
    assert.ok(await signals.getByRole("radio", { name: "Scoops" }).isChecked(), "the first kind the plan allows");
    assert.deepEqual(await overflow(page), [], "Signals tab");
    await openSection(page, "Research");
    const research = page.getByRole("region", { name: "Research" });
    await research.getByText("Briefings are not in your account's plan. Ask your administrator to add them.").waitFor();
    assert.ok(await research.getByRole("radio", { name: "Briefing" }).isDisabled());
    assert.deepEqual(await overflow(page), [], "Research tab");

    // Their cells answer at once with the same reason; nothing reaches the service.
    const refusedRoutes = () =>
      [...e2e.sandbox.ctx.stats.requests.entries()].filter(([route]) => /intent|summar|copilot/.test(route)).reduce((n, [, count]) => n + count, 0);
    const before = refusedRoutes();
    // As a string: the test's compiler would name the page's functions with a helper the page lacks.
    // The page's office.js holds the functions' association; a calculating host also has the cell error type.
    const cells = (await page.evaluate(`(async () => {
      const host = window.CustomFunctions;
      host.Error = class extends Error { constructor(code, message) { super(message); this.code = code; } };
      host.ErrorCode = { invalidValue: "#VALUE!", notAvailable: "#N/A" };
      const mappings = host._association.m_mappings;
      const outcome = (promise) => promise.then((value) => ({ value }), (error) => ({ error: error.code, message: error.message }));
      return {
        intent: await outcome(mappings.INTENT(12, "Cloud Security", { isInValuePreview: false })),
        briefing: await outcome(mappings.BRIEFING(12)),
      };
    })()`)) as { intent: unknown; briefing: unknown };
    assert.deepEqual(cells.intent, { error: "#N/A", message: "Intent signals are not in your account's plan. Ask your administrator to add them" });
    assert.deepEqual(cells.briefing, { error: "#N/A", message: "Briefings are not in your account's plan. Ask your administrator to add them" });
    assert.equal(refusedRoutes(), before, "no intent or research request");
    assert.deepEqual(errors, []);
    await page.close();
  });
});
