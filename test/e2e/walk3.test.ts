// The third walk, at 320 and 350 px in headless Chromium against the sandbox: the wrong
// environment's sign-in message wraps and names the heading the pane shows; the company
// preview fits (every column in view, websites readable and whole); a signal insert above one
// search's reach says its plan (scoops) or what one search reaches (news) and asks first, and
// the Signals tab says what searches cost; Enrich selection says in one place how much of the
// selection today's limit allows and in how many requests, the progress counts the same
// requests, and today's count and the usage gauge move with the run. Nothing scrolls sideways.
// Each walk goes once, at 320 px, and checks its layout at 320 and 350 px (atWidths in helpers.ts).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { USER_SETTINGS_KEY } from "../../src/core/settings/userSettings.js";
import { DATA_SCOPES } from "../../src/core/settings/environment.js";
import { assertFits, assertFitsAtWidths, atWidths, axeSource, layoutSettled, openSection, useE2E, BROWSER_SKIP } from "./helpers.js";
import { declineImport, NARROW_HEIGHT, openNarrow } from "./narrowPane.js";

// Enough companies for more than 10,000 scoops and more than 10,000 news articles.
const COMPANIES = 7_000;
// The walks go at the first width; their layout is checked at each.
const WIDTHS = [320, 350];
const WIDTH = WIDTHS[0]!;

/** Where each cell of the preview's rows lies, and how its website links are drawn. */
function previewLayout(page: Page) {
  return page.getByTestId("preview-table").evaluate((table) => {
    const width = document.documentElement.clientWidth;
    const cells = [...table.querySelectorAll("th, td")].map((c) => c.getBoundingClientRect());
    const links = [...table.querySelectorAll("a")].map((a) => ({
      text: a.textContent ?? "",
      fontPx: parseFloat(getComputedStyle(a).fontSize),
      lines: new Set([...a.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size,
      // The width inside the cell's padding.
      parentWidth: (() => {
        const cell = a.parentElement as HTMLElement;
        const style = getComputedStyle(cell);
        return cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      })(),
      textWidth: (() => {
        const probe = document.createElement("span");
        probe.style.cssText = `position:absolute;white-space:nowrap;font:${getComputedStyle(a).font}`;
        probe.textContent = a.textContent;
        document.body.append(probe);
        const w = probe.getBoundingClientRect().width;
        probe.remove();
        return w;
      })(),
    }));
    return { width, rightmost: Math.max(...cells.map((b) => b.right)), leftmost: Math.min(...cells.map((b) => b.left)), links };
  });
}

/** axe's findings of one rule on the page as it is now (any impact). */
async function axeFindings(page: Page, rule: string): Promise<string[]> {
  // Once per page: axe's half a megabyte of source is parsed again on every injection.
  if (!(await page.evaluate(() => "axe" in globalThis))) await page.addScriptTag({ content: axeSource() });
  return page.evaluate(async (id) => {
    const axe = (globalThis as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: { nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run({ exclude: [["[data-tabster-dummy]"]] }, { runOnly: [id], resultTypes: ["violations"] });
    return result.violations.flatMap((v) => v.nodes.map((n) => n.target.join(" ")));
  }, rule);
}

describe("the third walk, at a task pane's width", { skip: BROWSER_SKIP, timeout: 600_000 }, () => {
  const e2e = useE2E({ sandbox: { companies: COMPANIES, contacts: 100 } });

  test("signed out with nothing stored: the pane asks no sign-in server on load", async () => {
    const page = await e2e.chromium.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const sandboxCalls: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).port === "4010") sandboxCalls.push(request.url());
    });
    await page.setViewportSize({ width: 320, height: NARROW_HEIGHT });
    // The default environment is the Sandbox preset (localhost:4010, where nothing runs here).
    await page.goto(`${e2e.pages.origin}/taskpane.html`);
    await page.getByRole("button", { name: "Sign in", exact: true }).waitFor({ timeout: 30_000 });
    await page.getByRole("heading", { name: "Connection settings" }).waitFor();
    // The pane has loaded and drawn its start: a request of its start has been sent by now. (Not
    // "networkidle": office.js asks Office's telemetry host a few seconds in, which never answers
    // on a machine without a network, so the network may never be idle.)
    await page.waitForLoadState("load");
    await layoutSettled(page);
    assert.deepEqual(sandboxCalls, [], "nothing asked of localhost:4010 before Sign in");
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("320 and 350 px: the wrong environment's sign-in message wraps and names Connection settings", async () => {
    const context = e2e.chromium.context;
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // Settings point at a server that is there but answers "not found" for the sign-in.
    const environment = {
      kind: "custom",
      label: "Another environment",
      apiBaseUrl: e2e.sandbox.url,
      audiencesBaseUrl: e2e.sandbox.url,
      signIn: { authority: "https://signin.walk.test:4311/oauth", clientId: "excel-addin", scopes: DATA_SCOPES },
    };
    await page.route("https://signin.walk.test:4311/**", (route) => route.fulfill({ status: 404, body: "not found" }));
    // Only in the pane's own document: a frame of another, opaque origin (the sign-in window's
    // stand-in) is refused localStorage, and that refusal would be the page's error.
    await page.addInitScript(({ key, value, origin }) => location.origin === origin && localStorage.setItem(key, value), {
      key: USER_SETTINGS_KEY,
      value: JSON.stringify({ environment }),
      origin: e2e.pages.origin,
    });
    await page.setViewportSize({ width: WIDTH, height: NARROW_HEIGHT });
    await page.goto(`${e2e.pages.origin}/taskpane.html`);
    await page.getByRole("button", { name: "Sign in", exact: true }).click({ timeout: 30_000 });
    const message = page.locator("#sign-in-message");
    await message.getByText(/sign-in is not here/).waitFor({ timeout: 30_000 });
    const text = await message.innerText();
    assert.match(text, /signin\.walk\.test:4311 answered "not found"/);
    assert.match(text, /Under Connection settings \(below\), choose the environment/);
    assert.doesNotMatch(text, /Settings → Environment/);
    await page.getByRole("heading", { name: "Connection settings" }).waitFor();
    await atWidths(page, WIDTHS, async (width) => {
      await assertFits(page, `the wrong environment's sign-in message (${width} px)`);
      // Measured in the page once it shows (boundingBox answers null if the pane re-renders the message meanwhile).
      await message.waitFor({ state: "visible" });
      const box = await message.evaluate((el) => {
        const rect = el.getBoundingClientRect();
        return { x: rect.x, width: rect.width };
      });
      assert.ok(box.x >= 0 && box.x + box.width <= width + 1, `the message spans x ${Math.round(box.x)}-${Math.round(box.x + box.width)} of ${width}`);
    });
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("320 and 350 px: the company preview fits; websites are readable and whole", async () => {
    const { page, errors } = await openNarrow(e2e, WIDTH);
    const form = page.getByRole("region", { name: "Company search" });
    await form.getByRole("button", { name: "Search", exact: true }).click();
    await form
      .getByRole("status")
      .filter({ hasText: /compan(y|ies) match/ })
      .waitFor({ timeout: 30_000 });
    const headers = await page.getByTestId("preview-table").locator("thead th").allInnerTexts();
    assert.ok(
      headers.some((h) => /Employees/.test(h)),
      "the Employees column is there",
    );
    await atWidths(page, WIDTHS, async (width) => {
      await assertFits(page, `the preview (${width} px)`);
      const layout = await previewLayout(page);
      assert.ok(
        layout.leftmost >= 0 && layout.rightmost <= layout.width + 1,
        `preview cells span x ${Math.round(layout.leftmost)}-${Math.round(layout.rightmost)} of ${layout.width}`,
      );
      assert.ok(layout.links.length > 0, "websites are links");
      for (const link of layout.links) {
        assert.ok(link.fontPx >= 12, `${link.text} drawn at ${link.fontPx} px at ${width} px`);
        assert.doesNotMatch(link.text, /^https?:\/\/|^www\./, "a website shows as its domain");
        // A domain that fits its column is never broken across lines.
        if (link.textWidth <= link.parentWidth) assert.equal(link.lines, 1, `${link.text} broken across lines at ${width} px`);
      }
    });
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("320 and 350 px: signal inserts above one search's reach show the plan, or what news reaches, and ask", async () => {
    const { page, errors } = await openNarrow(e2e, WIDTH);
    await openSection(page, "Signals");
    await page
      .getByTestId("signal-costs")
      .getByText(/one request per page of 100 results.*signal searches spend no credits.*one bulk-data credit per company new to the kind/)
      .waitFor();
    const choose = (name: string) => page.getByRole("radiogroup").first().getByRole("radio", { name, exact: true }).check();

    // Scoops: split into parts; the plan and a question before anything is written.
    await choose("Scoops");
    const scoops = page.getByRole("region", { name: "Scoops search" });
    await scoops.getByRole("button", { name: "Search", exact: true }).click();
    const scoopStatus = scoops.getByRole("status").filter({ hasText: /scoops match/ });
    await scoopStatus.waitFor({ timeout: 30_000 });
    const scoopTotal = Number((await scoopStatus.innerText()).replace(/,/g, "").match(/^(\d+)/)![1]);
    assert.ok(scoopTotal > 10_000, `${scoopTotal} scoops: above one search's reach`);
    await scoops
      .getByTestId("insert-cost")
      .getByText(/Insert splits this one into parts.*about [\d,]+ requests, no credits.*shows you the plan first/)
      .waitFor();
    await scoops.getByRole("button", { name: "Insert into sheet" }).click();
    let ask = page.getByRole("alertdialog");
    await ask.getByText(`Import all ${scoopTotal.toLocaleString("en-US")} scoops?`).waitFor({ timeout: 120_000 });
    assert.match(
      await ask.innerText(),
      /[\d,]+ scoops — imported in \d+ parts, about [\d,]+ requests, about \d+ s at your rate limit\. Signal searches spend no credits/,
    );
    await assertFitsAtWidths(page, "the scoops question", WIDTHS);
    await declineImport(page, ask, scoops);

    // News: no filter splits it; said under the preview and asked before Insert writes.
    await choose("News");
    const news = page.getByRole("region", { name: "News search" });
    await news.getByRole("button", { name: "Search", exact: true }).click();
    const newsStatus = news.getByRole("status").filter({ hasText: /news articles match/ });
    await newsStatus.waitFor({ timeout: 30_000 });
    const newsTotal = Number((await newsStatus.innerText()).replace(/,/g, "").match(/^(\d+)/)![1]);
    assert.ok(newsTotal > 10_000, `${newsTotal} news articles: above one search's reach`);
    await news
      .getByTestId("insert-cost")
      .getByText(/reaches 10,000 of these [\d,]+ and cannot be split.*first 10,000 \(100 requests, no credits\).*narrow the search/)
      .waitFor();
    await assertFitsAtWidths(page, "the news insert's reach", WIDTHS);
    await news.getByRole("button", { name: "Insert into sheet" }).click();
    ask = page.getByRole("alertdialog");
    await ask.getByText(`Insert the first 10,000 of ${newsTotal.toLocaleString("en-US")} news articles?`).waitFor({ timeout: 60_000 });
    assert.match(
      await ask.innerText(),
      /about 100 requests.*To reach the other [\d,]+, narrow the search \(choose News categories, or a Company name or Company ids\)/s,
    );
    await assertFitsAtWidths(page, "the news question", WIDTHS);
    await declineImport(page, ask, news);
    await assertFitsAtWidths(page, "declined signal inserts", WIDTHS);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("320 and 350 px: Enrich says once what today's limit allows and in how many requests; the counts move with the run", async () => {
    const { page, errors } = await openNarrow(e2e, WIDTH);
    const form = page.getByRole("region", { name: "Company search" });
    await form.getByRole("textbox", { name: "Employees from" }).fill("2000");
    await form.getByRole("textbox", { name: "Employees to" }).fill("9999");
    await form.getByRole("button", { name: "Insert into sheet" }).click();
    await form
      .getByRole("status")
      .filter({ hasText: /^Inserted / })
      .waitFor({ timeout: 60_000 });
    await page.getByTestId("sheet-table").getByRole("button", { name: "Company ID" }).click();
    await openSection(page, "Enrich");
    const panel = page.getByRole("region", { name: "Enrich selection" });
    const today = panel.getByText(/^Today: [\d,]+ of [\d,]+ new records used/);
    const usedToday = async () => Number((await today.innerText()).match(/^Today: ([\d,]+)/)![1]!.replace(/,/g, ""));
    const usedBefore = await usedToday();
    // Today's limit leaves room for 30 new records.
    const cap = usedBefore + 30;
    await panel.getByRole("spinbutton", { name: "New records per day" }).fill(String(cap));
    await panel.getByRole("button", { name: "Save", exact: true }).click();
    await panel.getByText(`Saved: up to ${cap.toLocaleString("en-US")} new records a day.`).waitFor();
    const gauge = page.getByRole("region", { name: "Account usage" });
    // The summary line's figure for Credits (the gauges themselves are behind its disclosure).
    const credits = gauge.getByTestId("usage-record").locator("span");
    const creditsBefore = await credits.innerText();

    await panel.getByRole("button", { name: "Check selection" }).click();
    const within = panel.getByTestId("within-todays-limit");
    await within.waitFor({ timeout: 30_000 });
    const [, asked, toAsk, requests] = (await within.innerText())
      .replace(/,/g, "")
      .match(/(\d+) of (\d+) within today's limit: (\d+) requests?\./)!
      .map(Number);
    const [, free] = (await panel.getByText(/under management or free/).innerText())
      .replace(/,/g, "")
      .match(/^(\d+)/)!
      .map(Number);
    assert.equal(asked, free! + 30, "the free records and today's allowance of new ones run");
    assert.ok(toAsk! > asked!, `${toAsk} to ask is above the limit`);
    assert.equal(requests, Math.ceil(asked! / 25), "25 ids a request");
    assert.doesNotMatch(await panel.getByRole("region", { name: "Before you run" }).innerText(), / in [\d,]+ requests?/, "no second request count");
    await assertFitsAtWidths(page, "the plan within today's limit", WIDTHS);

    // The run's requests are held until the pane has been looked at while it runs.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/data/v1/companies/enrich", async (route) => {
      await held;
      await route.continue();
    });
    await panel.getByRole("button", { name: /^Enrich [\d,]+ ids$/ }).click();
    await panel.getByText(new RegExp(`· 0 of ${requests} requests?$`)).waitFor({ timeout: 30_000 });
    // Today's count moves while the run goes (its records are reserved as the run starts).
    await panel
      .getByText(`Today: ${cap.toLocaleString("en-US")} of ${cap.toLocaleString("en-US")} new records used`, { exact: false })
      .waitFor({ timeout: 30_000 });
    assert.equal(await panel.getByRole("button", { name: "Cancel" }).count(), 1, "still running");
    release();
    await panel.getByText(/Wrote \d+ columns to /).waitFor({ timeout: 60_000 });
    await page.unroute("**/data/v1/companies/enrich");
    // The gauge follows the credits the run spent without Refresh.
    // Whole text: "30 of 100,000 used" contains "0 of 100,000 used".
    const exactly = (text: string) => new RegExp(`^${text}$`);
    await credits.filter({ hasNotText: exactly(creditsBefore) }).waitFor({ timeout: 30_000 });
    // One source of truth: the service's credits used. Today's count moved by what the run
    // truly cost, the gauge shows the service's figure, and with nothing left today the next
    // plan cannot start.
    const token = await e2e.sandbox.token();
    const usage = (await (await fetch(`${e2e.sandbox.url}/data/v1/users/usage`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      data: { attributes: { usage: { limitType: string; currentUsage: number; totalLimit: number }[] } }[];
    };
    const service = usage.data[0]!.attributes.usage.find((u) => u.limitType === "record")!;
    const n = (v: number) => v.toLocaleString("en-US");
    await credits.filter({ hasText: exactly(`${n(service.currentUsage)} of ${n(service.totalLimit)} used`) }).waitFor({ timeout: 30_000 });
    const spent = service.currentUsage - Number(creditsBefore.match(/^([\d,]+) of/)![1]!.replace(/,/g, ""));
    assert.equal(spent, 30, "the service charged today's allowance of new records");
    await panel.getByText(`Today: ${n(usedBefore + spent)} of ${n(cap)} new records used`, { exact: false }).waitFor({ timeout: 30_000 });
    await panel.getByRole("button", { name: "Check selection" }).click();
    await within.filter({ hasText: /^0 of [\d,]+ within today's limit\. Today's new records are used up/ }).waitFor({ timeout: 30_000 });
    assert.equal(await panel.getByRole("button", { name: /^Enrich [\d,]+ ids$/ }).isDisabled(), true, "nothing within today's limit: Enrich cannot start");
    await assertFitsAtWidths(page, "the enrich result", WIDTHS);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("320 and 350 px: a filled multi-select picker has a clear button; Country says it takes one value; open popups sit in a landmark", async () => {
    const { page, errors } = await openNarrow(e2e, WIDTH);
    const form = page.getByRole("region", { name: "Company search" });
    const industries = form.getByRole("combobox", { name: "Industries" });
    const clear = form.getByRole("button", { name: "Clear Industries" });
    assert.equal(await clear.count(), 0, "no clear button while empty");
    await industries.click();
    // Fluent's multi-select list is a menu of checkbox items.
    const option = page.getByRole("menuitemcheckbox").nth(1);
    await option.waitFor({ timeout: 30_000 });
    const chosen = (await option.innerText()).trim();
    await option.click();
    await page.keyboard.press("Escape");
    await form.getByText(`Chosen: ${chosen}`).waitFor();
    await assertFitsAtWidths(page, "a filled multi-select picker", WIDTHS);
    await clear.click();
    await form.getByText(/^Chosen:/).waitFor({ state: "detached" });
    assert.equal(await clear.count(), 0, "the clear button goes with the choice");

    // Country: one value, as the service's CompanySearch attributes take it (a string, no list).
    const country = form.getByRole("combobox", { name: "Country" });
    await form
      .getByText(/One value: the service's search takes a single one here/)
      .first()
      .waitFor();
    await country.click();
    await page.getByRole("listbox").getByRole("option").first().waitFor();
    await atWidths(page, WIDTHS, async (width) =>
      assert.deepEqual(await axeFindings(page, "region"), [], `the open Country list is inside a landmark at ${width} px`),
    );
    await page.keyboard.press("Escape");
    await page.getByRole("listbox").waitFor({ state: "detached" });

    await page.getByRole("button", { name: /^More sections/ }).click();
    await page.getByRole("menu").waitFor();
    await atWidths(page, WIDTHS, async (width) => {
      assert.deepEqual(await axeFindings(page, "region"), [], `the open More menu is inside a landmark at ${width} px`);
      await assertFits(page, `the More menu (${width} px)`);
    });
    await page.keyboard.press("Escape");
    assert.deepEqual(errors, []);
    await page.close();
  });
});
