// Shared end-to-end plumbing: the add-in pages built once per run (test/helpers/pages.ts), served over plain
// HTTP on port 0, the real sandbox with that page's origin allowed by CORS, and a fresh context
// in the run's headless Chromium (browser.ts), driven through playwright-core. Every e2e suite
// uses these; each file starts its own pages server and sandbox, so files share nothing and
// run side by side. A suite says `describe(name, { skip: BROWSER_SKIP, ... }, () => { const e2e =
// useE2E(options); ... })`: useStarted starts the setup before the block's tests and closes it after.
import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";
import { after, before } from "node:test";
import type { Locator, Page } from "playwright-core";
import { startSandbox, type RunningSandbox, type StartOptions } from "../../src/sandbox/server.js";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { CHROMIUM_PATH, chromiumAvailable, keepRendererWarm, KEEPER_PATH, launchChromium, type Chromium } from "./browser.js";
import { buildTaskPane } from "../helpers/pages.js";

export { CHROMIUM_PATH, chromiumAvailable, downloadedText, launchChromium, type Chromium } from "./browser.js";
export { buildTaskPane } from "../helpers/pages.js";

const ROOT = resolve(import.meta.dirname, "../..");

/** Every browser suite's skip option: false, or why it does not run (Chromium is not installed). */
export const BROWSER_SKIP: string | false = chromiumAvailable()
  ? false
  : `Chromium is not installed (${CHROMIUM_PATH}; Debian packages chromium and chromium-headless-shell)`;

/**
 * Registers before/after hooks in the current describe block: `start` runs before its tests,
 * then `ready` (in the same hook, with what was started), and what was started is closed after
 * the tests, also when one failed or `ready` threw. The returned object stands for what was
 * started: read its fields inside the block's tests (or in `ready`), once it has started.
 */
export function useStarted<T extends { close(): Promise<void> }>(start: () => Promise<T>, ready?: (started: T) => Promise<void> | void): T {
  let running: T | undefined;
  before(async () => {
    running = await start();
    await ready?.(running);
  });
  after(async () => {
    await running?.close();
  });
  return new Proxy({} as T, {
    get(_, key) {
      if (running) return running[key as keyof T];
      // Not a promise, nothing to inspect: awaiting or printing it before the start reads nothing.
      if (typeof key === "symbol" || key === "then") return undefined;
      throw new Error(`"${key}" of the browser setup was read before it started: read it inside the tests of the describe block that set it up.`);
    },
  });
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".css": "text/css",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".xml": "application/xml",
};

export interface StaticServer {
  /** Origin of the pages, e.g. http://127.0.0.1:38211 */
  origin: string;
  close(): Promise<void>;
}

/** Serves a directory on 127.0.0.1, port 0. */
export async function serveDirectory(dir: string): Promise<StaticServer> {
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    if (path === KEEPER_PATH) {
      res.writeHead(200, { "content-type": TYPES[".html"] }).end("<!doctype html><title>keeper</title>");
      return;
    }
    const file = normalize(join(dir, path === "/" ? "taskpane.html" : path));
    if (!file.startsWith(dir + sep) || !existsSync(file) || statSync(file).isDirectory()) {
      res.writeHead(404).end("not found");
      return;
    }
    // Scripts' names carry their content's hash: a page opened again reuses them, as from a static host.
    const cache = extname(file) === ".js" ? { "cache-control": "max-age=3600" } : {};
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", ...cache });
    res.end(readFileSync(file));
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

export interface E2E {
  sandbox: TestSandbox;
  pages: StaticServer;
  chromium: Chromium;
  /** The task pane in browser mode, pointed at the sandbox. */
  taskPaneUrl(query?: Record<string, string>): string;
  /** Opens the task pane and waits until it is ready; collects page errors. */
  openTaskPane(query?: Record<string, string>): Promise<{ page: Page; errors: string[] }>;
  close(): Promise<void>;
}

export type SandboxStartOptions = Parameters<typeof startTestSandbox>[0];

export interface E2EOptions {
  sandbox?: SandboxStartOptions;
}

/** Build + serve the task pane, start the sandbox allowing its origin, launch Chromium. */
export async function startE2E(options: E2EOptions = {}): Promise<E2E> {
  const dir = await buildTaskPane();
  const pages = await serveDirectory(dir);
  let sandbox: TestSandbox | undefined;
  let browser: Chromium | undefined;
  try {
    sandbox = await startTestSandbox({ ...options.sandbox, corsOrigins: [pages.origin, ...(options.sandbox?.corsOrigins ?? [])] });
    browser = await launchChromium();
    await keepRendererWarm(browser.context, pages.origin);
  } catch (error) {
    await browser?.close();
    await sandbox?.close();
    await pages.close();
    throw error;
  }
  const sb = sandbox;
  const taskPaneUrl = (query: Record<string, string> = {}) => `${pages.origin}/taskpane.html?${new URLSearchParams({ api: sb.url, ...query })}`;
  return {
    sandbox: sb,
    pages,
    chromium: browser,
    taskPaneUrl,
    openTaskPane: async (query) => {
      const page = await browser.context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      page.on("dialog", (d) => {
        errors.push(`unexpected dialog: ${d.message()}`);
        void d.dismiss();
      });
      await page.goto(taskPaneUrl(query));
      await page.getByRole("tab", { name: "Companies" }).waitFor({ timeout: 30_000 });
      // Ready when the opening reads have landed: the usage gauge shows the account's usage (or
      // says it is unavailable), so the pane no longer grows under the test's first clicks.
      const usage = page.getByRole("region", { name: "Account usage" });
      await usage
        .getByText(/ of [\d,]+ used/)
        .or(usage.getByText(/^Usage unavailable/))
        .first()
        .waitFor({ timeout: 30_000 });
      return { page, errors };
    },
    close: async () => {
      await browser.close();
      await sb.close();
      await pages.close();
    },
  };
}

/**
 * startE2E(options) before the tests of the current describe block (then `ready`, in the same
 * hook) and its close after them: see useStarted.
 */
export function useE2E(options: E2EOptions = {}, ready?: (e2e: E2E) => Promise<void> | void): E2E {
  return useStarted(() => startE2E(options), ready);
}

/** The sign-in suites' setup: the sandbox on HTTPS, with its own sign-in (see startHttpsE2E). */
export interface HttpsE2E {
  pages: StaticServer;
  sandbox: RunningSandbox;
  chromium: Chromium;
  close(): Promise<void>;
}

/**
 * Build + serve the pages, start the sandbox on HTTPS at localhost with its shared localhost
 * certificates (msal-browser refuses an http authority; Chromium ignores their issuer) allowing
 * the pages' origin, launch Chromium.
 */
export async function startHttpsE2E(sandbox: Omit<StartOptions, "http" | "port" | "host" | "corsOrigins"> = {}): Promise<HttpsE2E> {
  const pages = await serveDirectory(await buildTaskPane());
  let running: RunningSandbox | undefined;
  try {
    running = await startSandbox({ http: false, port: 0, host: "localhost", corsOrigins: [pages.origin], ...sandbox });
    const open = running;
    const chromium = await launchChromium();
    await keepRendererWarm(chromium.context, pages.origin).catch(async (error) => {
      await chromium.close();
      throw error;
    });
    return {
      pages,
      sandbox: open,
      chromium,
      close: async () => {
        await chromium.close();
        await open.close();
        await pages.close();
      },
    };
  } catch (error) {
    await running?.close();
    await pages.close();
    throw error;
  }
}

/** startHttpsE2E(sandbox) before the tests of the current describe block and its close after them: see useStarted. */
export function useHttpsE2E(sandbox: Parameters<typeof startHttpsE2E>[0] = {}, ready?: (e2e: HttpsE2E) => Promise<void> | void): HttpsE2E {
  return useStarted(() => startHttpsE2E(sandbox), ready);
}

/**
 * Resolves once the page has drawn two more frames: what a resize (setViewportSize) changes in
 * the layout, such as which sections fit the tab strip and which go to its More menu, is then
 * on the page. Call it before deciding from the layout what to click.
 */
export async function layoutSettled(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/**
 * Opens a section of the task pane from its tab strip, or from the More menu when the tab does
 * not fit the pane's width; `whenMenuOpen` runs with the menu open, before its item is chosen.
 * Resolves once the section's tab is the selected one.
 */
export async function openSection(page: Page, name: string, options: { whenMenuOpen?: (menu: Locator) => Promise<void> } = {}): Promise<void> {
  const strip = page.getByRole("tablist", { name: "Task pane sections" });
  // The strip is laid out once its first tab shows, for the current width; what does not fit is in the More menu.
  await strip.getByRole("tab").first().waitFor();
  await layoutSettled(page);
  const tab = strip.getByRole("tab", { name, exact: true });
  if (await tab.isVisible()) await tab.click();
  else {
    await page.getByRole("button", { name: /^More sections/ }).click();
    const menu = page.getByRole("menu");
    await menu.waitFor();
    await menuOpened(menu);
    await options.whenMenuOpen?.(menu);
    await menu.getByRole("menuitem", { name, exact: true }).click();
  }
  await strip.getByRole("tab", { name, exact: true, selected: true }).waitFor();
}

/**
 * Resolves once an open menu (or popover) has finished sliding in: Fluent animates its surface
 * for a few hundred milliseconds, and an item clicked meanwhile is not stable yet, so Playwright
 * would retry the click on its own backoff (up to a second). This awaits the animations' end.
 */
export async function menuOpened(menu: Locator): Promise<void> {
  await menu.evaluate(async (el) => {
    let surface: Element = el;
    for (let up: Element | null = el; up && up !== document.body; up = up.parentElement) surface = up;
    const running = surface.getAnimations({ subtree: true }).filter((a) => a.playState === "running" && a.effect?.getTiming().iterations !== Infinity);
    // An animation that never ends (one left paused or pending by the page) must not hold the test:
    // the wait is only to spare Playwright its retries, so it gives up after a second.
    const atMost = new Promise<void>((resolve) => setTimeout(resolve, 1_000));
    await Promise.race([Promise.all(running.map((a) => a.finished.catch(() => undefined))), atMost]);
  });
}

/** The pane's own background reads: the usage gauge's refresh and the plan read that comes with it. */
const BACKGROUND_READ = /^GET \S*\/(users\/usage|entitlements|lookup\/)/;

/**
 * The routes the sandbox answered since its stats were last reset, leaving out the pane's
 * background reads, which come on their own schedule (a refresh may land at any moment).
 */
export function requestsBesidesBackground(sandbox: TestSandbox): string[] {
  return [...sandbox.ctx.stats.requests.keys()].filter((route) => !BACKGROUND_READ.test(route));
}

/** Fails, naming `where`, when the page or anything open on it scrolls sideways (see overflow). */
export async function assertFits(page: Page, where: string): Promise<void> {
  assert.deepEqual(await overflow(page), [], where);
}

/**
 * Runs `check` at each of `widths` in turn, on the page as it is: the viewport takes each width
 * (its height kept) and the layout settles (layoutSettled) before the check; then the page's own
 * width comes back and settles. A flow walked once, at the narrowest width, checks its layout at
 * every width the pane is tested at this way; list the page's own width first, so the check runs
 * there before anything moves.
 */
export async function atWidths(page: Page, widths: readonly number[], check: (width: number) => Promise<void>): Promise<void> {
  const own = page.viewportSize();
  assert.ok(own, "the page has a viewport size");
  let current = own.width;
  for (const width of widths) {
    if (width !== current) {
      await page.setViewportSize({ width, height: own.height });
      current = width;
      await layoutSettled(page);
    }
    await check(width);
  }
  if (current !== own.width) {
    await page.setViewportSize(own);
    await layoutSettled(page);
  }
}

/** assertFits at each of `widths` (see atWidths); the failure names `where` and the width. */
export async function assertFitsAtWidths(page: Page, where: string, widths: readonly number[]): Promise<void> {
  await atWidths(page, widths, (width) => assertFits(page, `${where} (at ${width} px)`));
}

/**
 * office.js for the sign-in dialog page (dialog.html) in Chromium, where Office is absent: Office
 * is ready at once, as Excel on the web, and messageParent is `messageParent`, the source of a
 * JavaScript function that hands the dialog's message back to the test.
 */
export function dialogOfficeStub(messageParent: string): string {
  return `
  window.Office = {
    onReady(callback) {
      const info = { host: "Excel", platform: "OfficeOnline" };
      if (callback) callback(info);
      return Promise.resolve(info);
    },
    context: { ui: { messageParent: ${messageParent} } },
  };
`;
}

/** axe-core's source, to inject into a page. */
export function axeSource(): string {
  return readFileSync(join(ROOT, "node_modules/axe-core/axe.min.js"), "utf8");
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe in the page; returns the serious and critical violations. */
export async function seriousAccessibilityViolations(page: Page): Promise<AxeViolation[]> {
  // Once per page: axe's half a megabyte of source is parsed again on every injection.
  if (!(await page.evaluate(() => "axe" in globalThis))) await page.addScriptTag({ content: axeSource() });
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
    // Fluent's focus manager (tabster) adds hidden <i data-tabster-dummy> focus sentinels that
    // hand focus on at once; axe counts them as focusable hidden elements (aria-hidden-focus).
    // They cannot be removed from here: Fluent closed this "by design" (microsoft/fluentui#27517,
    // #25133; microsoft/tabster#288), and Accessibility Insights now suppresses the same false
    // positive for data-tabster-dummy. Everything else on the page is checked.
    const result = await axe.run({ exclude: [["[data-tabster-dummy]"]] }, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** Sideways overflow of the page, of every message and of every open popup, in words. */
export async function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const root = document.documentElement;
    const width = root.clientWidth;
    if (root.scrollWidth > width) out.push(`page: scrollWidth ${root.scrollWidth} > ${width}`);
    const selector =
      ".fui-MessageBar, [role=status], [role=alert], [role=listbox], [role=menu], [role=region], [role=group], .fui-DialogSurface, [data-testid=preview-table]";
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      // The workbook's table scrolls sideways inside its own frame, as a sheet does.
      if (el.querySelector(":scope > [data-testid=sheet-table]")) continue;
      const name = `${el.getAttribute("role") ?? el.className.split(" ")[0]}: "${(el.textContent ?? "").slice(0, 50)}"`;
      if (el.scrollWidth > el.clientWidth + 1) out.push(`${name} scrollWidth ${el.scrollWidth} > ${el.clientWidth}`);
      if (box.left < -1 || box.right > width + 1) out.push(`${name} spans x ${Math.round(box.left)}-${Math.round(box.right)} of ${width}`);
    }
    return out;
  });
}

/**
 * Where an element is, measured in the page once it shows. A locator's `boundingBox()` answers
 * null when the pane re-renders the element between the wait and the measure; this waits for it
 * to show, then reads its rectangle from the element the locator finds at that moment.
 */
export async function boxOf(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  await locator.waitFor({ state: "visible" });
  return locator.evaluate((el) => {
    const rect = el.getBoundingClientRect();
    return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
  });
}
