// The job status panel in browser mode, in headless Chromium, against the real sandbox (its
// clock moved by the test): enrich the 500-row audience, reload the page mid-job and see it
// resume, reach SUCCEEDED and insert the rows into a sheet; then enrich chosen rows of the audience with bad references and
// see PARTIALLY_SUCCEEDED with the number of failed rows; and check accessibility.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { manualClock, TEST_COMPANIES } from "../helpers/sandbox.js";
import { axeSource, type AxeViolation, type E2E, useE2E, BROWSER_SKIP } from "./helpers.js";

interface AudienceDoc {
  id: string;
  attributes: { name: string; recordCount: number; type: string; columns: { id: string; attributes: { columnType: string } }[] };
}

/**
 * axe-core on the job panel. Fluent's focus manager (tabster) adds invisible focus-redirecting
 * elements (data-tabster-dummy) that axe reports as aria-hidden-focus; they are not the panel's
 * markup, so they are left out.
 */
async function panelViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ content: axeSource() });
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run({ include: [["[data-testid=jobs-panel]"]], exclude: [["[data-tabster-dummy]"]] }, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

async function audiences(e2e: E2E): Promise<AudienceDoc[]> {
  const res = await fetch(`${e2e.sandbox.url}/v1/audiences`, { headers: { authorization: `Bearer ${await e2e.sandbox.token()}` } });
  return ((await res.json()) as { data: AudienceDoc[] }).data;
}

async function openJobs(e2e: E2E): Promise<{ page: Page; errors: string[] }> {
  const opened = await e2e.openTaskPane();
  await opened.page.getByRole("tab", { name: "Jobs" }).click();
  await opened.page.getByRole("button", { name: "Start enrichment" }).waitFor({ timeout: 30_000 });
  return opened;
}

function optionLabel(a: AudienceDoc): string {
  return `${a.attributes.name} (${a.attributes.recordCount.toLocaleString("en-US")} ${a.attributes.type === "CONTACT" ? "contacts" : "companies"})`;
}

function jobItem(page: Page, audienceName: string): Locator {
  return page.locator("li[data-job-id]").filter({ hasText: audienceName }).first();
}

/** Waits (Playwright's own wait on the element) until the job shows one of the states; returns it. */
async function waitForState(item: Locator, states: string[], timeout = 60_000): Promise<string> {
  const inState = item.page().locator(states.map((state) => `[data-state="${state}"]`).join(", "));
  await item.and(inState).waitFor({ timeout });
  return (await item.getAttribute("data-state")) ?? "";
}

describe("job status panel in the browser against the sandbox", { skip: BROWSER_SKIP, timeout: 600_000 }, () => {
  let all: AudienceDoc[];
  // The sandbox's clock moves only when a test moves it: jobs advance exactly as far as told
  // (150 rows a second of it), however busy the machine is.
  const sandboxClock = manualClock();
  const e2e = useE2E({ sandbox: { jobRowsPerSecond: 150, clock: sandboxClock } }, async (started) => {
    await started.chromium.context.clock.install();
    all = await audiences(started);
  });
  // The page polls a job on its own timers (1 s, growing). Its clock is Playwright's: after the
  // sandbox's clock moves, the page's jumps past its longest pause, so the next poll is made at
  // once instead of after a pause of wall-clock time.
  const clock = {
    advance: async (ms: number) => {
      await sandboxClock.advance(ms);
      await e2e.chromium.context.clock.fastForward(10_000);
    },
  };
  // The sandbox counts requests in windows of a second of its clock, and the pane takes requests
  // in its window that it did not send (the test's own, an earlier page's) for colleagues' and
  // paces itself down to a tenth. The clock stands still between moves, so one window would last
  // the whole file: a page opened when no job is running starts a window of its own.
  const openInNewWindow = async () => {
    await sandboxClock.advance(1000);
    return openJobs(e2e);
  };

  test("enrich the 500-row audience: progress, reload mid-job, SUCCEEDED, insert the rows", async () => {
    const target = all.find((a) => a.attributes.recordCount === 500)!;
    assert.ok(target, "the sandbox seeds a 500-row audience");
    let { page, errors } = await openInNewWindow();
    await page.getByRole("combobox", { name: "Audience" }).selectOption({ label: optionLabel(target) });
    await page.getByRole("button", { name: "Start enrichment" }).click();
    await page.getByRole("button", { name: /^Start: at most/ }).click();
    await page.getByRole("status").filter({ hasText: "started" }).waitFor();

    let item = jobItem(page, target.attributes.name);
    await clock.advance(50); // the engine's first step: the job is RUNNING
    await waitForState(item, ["RUNNING"]);
    // The progress moves as the job runs: 150 of 500 rows, then 300.
    const percent = item.getByTestId("job-percent");
    await clock.advance(1000);
    await percent.filter({ hasText: /^30%$/ }).waitFor();
    await clock.advance(1000);
    await percent.filter({ hasText: /^60%$/ }).waitFor();

    // Close and reopen the pane mid-job: the job is remembered and followed again.
    assert.deepEqual(errors, []);
    await page.close();
    ({ page, errors } = await openJobs(e2e));
    item = jobItem(page, target.attributes.name);
    await item.waitFor();
    assert.equal(await item.getByTestId("job-percent").innerText(), "60%", "the job waited for the clock");
    await clock.advance(2000);
    assert.equal(await waitForState(item, ["SUCCEEDED", "PARTIALLY_SUCCEEDED", "FAILED"]), "SUCCEEDED");
    assert.equal(await item.getByTestId("job-percent").innerText(), "100%");
    assert.match(await item.getByTestId("job-summary").innerText(), /every row was enriched/);
    assert.equal(await item.getByRole("progressbar").getAttribute("aria-valuenow"), "100");

    await item.getByRole("button", { name: "Insert rows into sheet" }).click();
    await item.getByText(/Inserted 500 rows into sheet/).waitFor({ timeout: 60_000 });
    await page.getByTestId("table-summary").filter({ hasText: ": 500 rows." }).waitFor();
    const headers = await page.getByTestId("sheet-table").locator("thead th").allInnerTexts();
    assert.deepEqual([headers[0], headers[1], headers.at(-1)], ["Row ID", "Company ID", "Status"]);
    const firstRow = await page.getByTestId("sheet-table").locator("tbody tr").first().locator("td").allInnerTexts();
    assert.equal(firstRow.at(-1), "Enriched");
    assert.ok(firstRow[2]!.length > 0, "the company name was filled in");
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("enrich chosen rows holding bad references: PARTIALLY_SUCCEEDED with the failed count", async () => {
    const messy = all.find((a) => a.attributes.name.includes("needs cleanup"))!;
    assert.ok(messy);
    // What the panel should report, from the sandbox's rows: bad references among the first 25.
    const token = await e2e.sandbox.token();
    const res = await fetch(`${e2e.sandbox.url}/v1/audiences/${messy.id}/rows?page[number]=1&page[size]=25`, { headers: { authorization: `Bearer ${token}` } });
    const rows = ((await res.json()) as { data: { attributes: { values: { value?: unknown }[] } }[] }).data;
    const expectedFailed = rows.filter((r) => {
      const ref = String(r.attributes.values[0]?.value ?? "");
      return !/^\d+$/.test(ref) || Number(ref) > TEST_COMPANIES;
    }).length;
    assert.ok(expectedFailed > 0 && expectedFailed < 25);

    const { page, errors } = await openInNewWindow();
    await page.getByRole("combobox", { name: "Audience" }).selectOption({ label: optionLabel(messy) });
    await page.getByRole("radio", { name: "Chosen rows" }).check();
    const boxes = page.getByRole("group", { name: "Rows of the audience" }).getByRole("checkbox");
    await boxes.first().waitFor();
    assert.equal(await boxes.count(), 25);
    for (let i = 0; i < 25; i++) await boxes.nth(i).check();
    await page.getByText("25 rows chosen").waitFor();

    // A pasted id that is not a row id is refused before anything is sent.
    await page.getByRole("textbox", { name: "Or paste row ids (one per line)" }).fill("not-a-row");
    const before = e2e.sandbox.requests("POST /v1/audiences/:audienceId/actions/enrich");
    await page.getByRole("button", { name: "Start enrichment" }).click();
    await page.getByRole("alert").filter({ hasText: '"not-a-row" is not a row id' }).waitFor();
    assert.equal(e2e.sandbox.requests("POST /v1/audiences/:audienceId/actions/enrich"), before);
    await page.getByRole("textbox", { name: "Or paste row ids (one per line)" }).fill("");

    await page.getByRole("button", { name: "Start enrichment" }).click();
    await page.getByRole("button", { name: /^Start: at most/ }).click();
    await page.getByRole("status").filter({ hasText: "started" }).waitFor();
    await clock.advance(1000); // 25 rows at 150 a second
    const item = jobItem(page, messy.attributes.name);
    assert.equal(await waitForState(item, ["SUCCEEDED", "PARTIALLY_SUCCEEDED", "FAILED"]), "PARTIALLY_SUCCEEDED");
    await item
      .getByTestId("job-summary")
      .filter({ hasText: `${expectedFailed} rows failed` })
      .waitFor();
    assert.match(await item.getByTestId("job-state").innerText(), /Partly succeeded/);

    assert.deepEqual(errors, []);
    await page.close();
  });

  test("plain answers when no rows match (204) and when the account has no credits (402)", async () => {
    const created = await fetch(`${e2e.sandbox.url}/__sandbox/audiences`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Empty list", type: "COMPANY", recordIds: [] }),
    });
    assert.equal(created.status, 201);
    const { page, errors } = await openInNewWindow();
    const audience = page.getByRole("combobox", { name: "Audience" });
    await audience.selectOption({ label: "Empty list (0 companies)" });
    await page.getByRole("button", { name: "Start enrichment" }).click();
    await page.getByRole("status").filter({ hasText: "No rows match this choice" }).waitFor();

    const messy = all.find((a) => a.attributes.name.includes("needs cleanup"))!;
    await e2e.sandbox.setAccount("default", 0);
    try {
      await audience.selectOption({ label: optionLabel(messy) });
      // Rows already enriched by the earlier test cost nothing; ask for the whole audience.
      await page.getByRole("button", { name: "Start enrichment" }).click();
      await page.getByRole("button", { name: /^Start: at most/ }).click();
      await page
        .getByRole("alert")
        .filter({ hasText: /^Your account has no credits left for new records\. Ask your administrator for more credits\.( \(Reference: [^)]+\))?$/ })
        .waitFor();
    } finally {
      await e2e.sandbox.setAccount("default", 100_000);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("no serious or critical accessibility violations in the panel (axe-core)", async () => {
    const { page } = await openInNewWindow();
    await page.locator("li[data-job-id]").first().waitFor();
    await page.getByRole("radio", { name: "Chosen rows" }).click();
    await page.getByRole("group", { name: "Rows of the audience" }).getByRole("checkbox").first().waitFor();
    const violations = await panelViolations(page);
    assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
    await page.close();
  });
});
