// The webpack build, run for real: a build emits every page, the shared-runtime page loads
// office.js, then the functions, then the task pane, and its first JavaScript holds the settings
// store but not the caches' code (the initial JavaScript goal: webpack.config.js); a production
// build refuses a public URL that is not HTTPS. The build checked here is the run's one build of the pages (the one the browser
// tests load: a production build with office.js kept locally, test/helpers/pages.ts); builds for
// a deployment are in production.test.ts.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, it } from "node:test";
import { buildTaskPane } from "../helpers/pages.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const webpackCli = createRequire(import.meta.url).resolve("webpack-cli/bin/cli.js");
const folders: string[] = [];

/** The src of each <script> tag, in page order. */
function scriptSources(html: string): string[] {
  const sources: string[] = [];
  let at = 0;
  for (;;) {
    const tag = html.indexOf("<script", at);
    if (tag < 0) return sources;
    const end = html.indexOf(">", tag);
    const attrs = html.slice(tag, end);
    const src = attrs.indexOf('src="');
    if (src >= 0) sources.push(attrs.slice(src + 5, attrs.indexOf('"', src + 5)));
    at = end;
  }
}

function indexOfChunk(sources: string[], name: string): number {
  return sources.findIndex((src) => src === `${name}.js` || src.startsWith(`${name}.`));
}

after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe("webpack build", () => {
  it("a build emits the pages, functions.json, the manifest, icons and office.js", async () => {
    const out = await buildTaskPane();
    for (const file of [
      "taskpane.html",
      "functions.json",
      "dialog.html",
      "redirect.html",
      "manifest.xml",
      "assets/icon-80.png",
      "assets/office-js/office.js",
    ]) {
      assert.ok(existsSync(join(out, file)), `${file} is emitted`);
    }
    assert.equal(
      readFileSync(join(out, "manifest.xml"), "utf8"),
      readFileSync(join(root, "manifest.xml"), "utf8"),
      "the manifest unchanged without ADDIN_PUBLIC_URL",
    );
    const metadata = JSON.parse(readFileSync(join(out, "functions.json"), "utf8"));
    assert.ok(Array.isArray(metadata.functions), "functions.json lists functions");

    const taskpane = scriptSources(readFileSync(join(out, "taskpane.html"), "utf8"));
    const office = taskpane.indexOf("assets/office-js/office.js");
    const functions = indexOfChunk(taskpane, "functions");
    const pane = indexOfChunk(taskpane, "taskpane");
    assert.ok(office === 0, "office.js loads first");
    assert.ok(functions > office && pane > functions, `functions before the task pane: ${taskpane.join(", ")}`);
    assert.ok(indexOfChunk(scriptSources(readFileSync(join(out, "dialog.html"), "utf8")), "dialog") >= 0);
    assert.ok(indexOfChunk(scriptSources(readFileSync(join(out, "redirect.html"), "utf8")), "redirect") >= 0);

    const officeFiles = readdirSync(join(out, "assets/office-js"), { recursive: true }).map(String);
    assert.ok(!officeFiles.some((file) => file.endsWith(".debug.js") || file.endsWith(".d.ts")), "no debug builds or typings copied");
  });

  it("keeps the caches' code out of the task pane's first JavaScript (its settings are read there, its caches later)", async () => {
    const out = await buildTaskPane();
    const first = scriptSources(readFileSync(join(out, "taskpane.html"), "utf8"))
      .filter((src) => !src.startsWith("assets/"))
      .map((src) => readFileSync(join(out, src), "utf8"))
      .join("\n");
    assert.ok(first.includes('"bizdata.userSettings"'), "the settings store is in the first JavaScript");
    // office/cacheHome.ts (the IndexedDB adapter) and core/storage/budgetedArea.ts (the cache areas' index).
    assert.ok(!first.includes("IndexedDB could not be opened"), "the IndexedDB adapter loads later");
    assert.ok(!first.includes("#index"), "the budgeted cache area loads later");
  });

  it("production build refuses a public URL that is not HTTPS", () => {
    const outDir = mkdtempSync(join(tmpdir(), "addin-refused-"));
    folders.push(outDir);
    const result = spawnSync(process.execPath, [webpackCli, "--mode", "production", "--output-path", outDir], {
      cwd: root,
      env: { ...process.env, ADDIN_PUBLIC_URL: "http://addin.example.com" },
      encoding: "utf8",
    });
    assert.notEqual(result.status, 0);
    assert.match(result.stdout + result.stderr, /ADDIN_PUBLIC_URL must start with https:\/\//);
  });
});
