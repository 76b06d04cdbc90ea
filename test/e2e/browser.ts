// Chromium for the browser tests: one browser per run, a fresh context per use. scripts/test.mjs
// starts Debian's Chromium once as a Playwright browser server and passes its endpoint in
// BIZDATA_TEST_CHROMIUM_WS; every launchChromium() connects to it and opens a context of its
// own (own cookies, storage, clock and routes), so browser files share nothing and run side by
// side. A file run on its own starts a server for itself the same way, so it behaves the same.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type BrowserServer, type Download } from "playwright-core";

/**
 * Debian's Chromium: its headless shell (package chromium-headless-shell, the browser Playwright
 * itself runs headless) when installed, otherwise the full browser. The shell draws the same pages
 * with the same engine for half the processor time per page opened, which matters on two cores.
 */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ?? ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((path) => existsSync(path)) ?? "/usr/bin/chromium";
/** Endpoint of the run's browser server (set by scripts/test.mjs). */
export const CHROMIUM_WS_ENV = "BIZDATA_TEST_CHROMIUM_WS";

/** False when Chromium is not installed (the suites then skip with a reason). */
export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/**
 * Chromium, headless, as a server other processes connect to. Its JavaScript engine stops at its
 * baseline compiler (V8's --max-opt=1): a test's page lives seconds, so the optimizing compilers'
 * work, done on the renderer's worker threads, was spent and never paid back (a fifth of the
 * processor time per page opened on two cores). Pages behave the same; only their speed differs.
 */
export function launchChromiumServer(): Promise<BrowserServer> {
  return chromium.launchServer({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--js-flags=--max-opt=1",
      // One renderer process per site in each context: see keepRendererWarm.
      "--process-per-site",
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export interface Chromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/** The browser server of a file run on its own: started by its first launchChromium(), stopped after its last close. */
let ownServer: { server: Promise<BrowserServer>; users: number } | undefined;

async function endpoint(): Promise<{ ws: string; release(): Promise<void> }> {
  const shared = process.env[CHROMIUM_WS_ENV];
  if (shared) return { ws: shared, release: async () => {} };
  ownServer ??= { server: launchChromiumServer(), users: 0 };
  const own = ownServer;
  own.users++;
  const release = async () => {
    if (--own.users > 0) return;
    if (ownServer === own) ownServer = undefined;
    await (await own.server).close();
  };
  try {
    return { ws: (await own.server).wsEndpoint(), release };
  } catch (error) {
    await release().catch(() => {});
    throw error;
  }
}

/** A fresh browser context (its own profile: cookies, storage, clock, routes) in headless Chromium. */
export async function launchChromium(): Promise<Chromium> {
  const { ws, release } = await endpoint();
  try {
    const browser = await chromium.connect(ws);
    // Reduced motion, as a user may ask of the system: Fluent's menus, popovers and dialogs then
    // appear without sliding in, so nothing waits on an animation, and the browser draws fewer
    // frames (a tenth less processor time per page on two cores). No test reads an animation.
    const context = await browser.newContext({
      ignoreHTTPSErrors: true,
      acceptDownloads: true,
      viewport: { width: 900, height: 1000 },
      reducedMotion: "reduce",
    });
    return {
      context,
      close: async () => {
        await context.close();
        await browser.close();
        await release();
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}

/** Path of the page keepRendererWarm holds open: serveDirectory answers it with an empty page. */
export const KEEPER_PATH = "/__renderer-keeper";

/**
 * Holds one page of `origin` open in the context, so its renderer process (one per site, by
 * --process-per-site) outlives the task panes a test opens and closes: each pane opened after the
 * first then starts in a renderer whose script cache already holds the pages' scripts, instead of
 * a new process loading and compiling them again (a fifth less processor time per pane opened).
 * Pages behave the same; the keeper is an empty document that runs nothing.
 */
export async function keepRendererWarm(context: BrowserContext, origin: string): Promise<void> {
  const keeper = await context.newPage();
  await keeper.goto(`${origin}${KEEPER_PATH}`);
}

/**
 * The text of a finished download. The browser runs in another process, so Download.path() is
 * not available: the file is copied here first.
 */
export async function downloadedText(download: Download): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "bizdata-download-"));
  try {
    const file = join(dir, download.suggestedFilename() || "download");
    await download.saveAs(file);
    return readFileSync(file, "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
