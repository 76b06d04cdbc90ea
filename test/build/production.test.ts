// The production build for a real deployment: the manifest and functions.json point at
// ADDIN_PUBLIC_URL; pages load office.js from Microsoft's CDN in
// <head> (no 28 MB local copy), unless OFFICE_JS_LOCAL asks for it (isolated clouds); the
// manifest's AppDomains hold the service, sign-in and broker origins. One deployment is built
// here; OFFICE_JS_LOCAL is checked in the configuration it makes, whose build is the run's pages.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import { buildTaskPane, type Config, webpackCacheOf, webpackConfig } from "../helpers/pages.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const webpackCli = createRequire(import.meta.url).resolve("webpack-cli/bin/cli.js");
const CDN = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js";
const folders: string[] = [];
// The build reads webpack's cache of the run's pages (also a production build:
// test/helpers/pages.ts), so it compiles only what its settings change. It only reads it
// (--cache-readonly): nothing is copied or written back, and the pages' cache stays as it was.
let cache = "";
before(async () => {
  await buildTaskPane();
  cache = webpackCacheOf();
});
const DEPLOYMENT = ["ADDIN_PUBLIC_URL", "SERVICE_API_URL", "SERVICE_SIGNIN_URL", "BROKER_URL", "SERVICE_RELAY_URL", "SERVICE_CLIENT_ID", "OFFICE_JS_LOCAL"];

function productionBuild(env: Record<string, string>): string {
  const out = mkdtempSync(join(tmpdir(), "addin-prod-"));
  folders.push(out);
  const clean = { ...process.env };
  for (const name of DEPLOYMENT) delete clean[name];
  // Minification is skipped: it takes most of the time and changes neither pages nor manifest.
  const result = spawnSync(
    process.execPath,
    [
      webpackCli,
      "--mode",
      "production",
      "--output-path",
      out,
      "--no-stats",
      "--no-optimization-minimize",
      "--cache-type",
      "filesystem",
      "--cache-cache-directory",
      cache,
      "--cache-readonly",
    ],
    {
      cwd: root,
      env: { ...clean, ...env },
      encoding: "utf8",
    },
  );
  assert.equal(result.status, 0, `webpack failed:\n${result.stdout}\n${result.stderr}`);
  return out;
}

/** webpack.config.js's production configuration under `env` (the deployment variables), without building. */
async function productionConfig(env: Record<string, string>): Promise<Config> {
  const saved = Object.fromEntries(DEPLOYMENT.map((name) => [name, process.env[name]]));
  try {
    for (const name of DEPLOYMENT) delete process.env[name];
    Object.assign(process.env, env);
    return await webpackConfig({}, { mode: "production" });
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** Whether the configuration copies office.js into the build. */
function copiesOfficeJs(config: Config): boolean {
  return JSON.stringify(
    (config.plugins as object[]).filter((plugin) => plugin.constructor.name === "CopyPlugin").map((plugin) => (plugin as { patterns?: unknown }).patterns),
  ).includes("assets/office-js");
}

const head = (html: string) => html.slice(html.indexOf("<head>"), html.indexOf("</head>"));

after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe("production build", () => {
  it("points the manifest and functions.json at ADDIN_PUBLIC_URL, references office.js from the CDN in <head>, ships no local copy, and lists the service, sign-in and broker origins as AppDomains", () => {
    const out = productionBuild({
      ADDIN_PUBLIC_URL: "https://addin.example.org/excel",
      SERVICE_API_URL: "https://api.service.example/gtm",
      SERVICE_SIGNIN_URL: "https://signin.service.example/gtm/oauth/v1/authorize",
      BROKER_URL: "https://broker.example.org",
      SERVICE_CLIENT_ID: "client-from-registration",
    });
    for (const page of ["taskpane.html", "dialog.html"]) {
      const html = readFileSync(join(out, page), "utf8");
      assert.ok(head(html).includes(`<script src="${CDN}"></script>`), `${page} loads office.js from the CDN in <head>`);
      assert.ok(!html.includes("assets/office-js"), `${page} has no local office.js reference`);
    }
    assert.ok(!existsSync(join(out, "assets/office-js")), "no local office.js copy");
    const manifest = readFileSync(join(out, "manifest.xml"), "utf8");
    for (const origin of ["https://api.service.example", "https://signin.service.example", "https://broker.example.org"]) {
      assert.ok(manifest.includes(`<AppDomain>${origin}</AppDomain>`), `AppDomain ${origin}`);
    }
    assert.ok(!manifest.includes("localhost"), "no localhost URL left in the manifest");
    assert.ok(
      manifest.includes('<bt:Url id="Taskpane.Url" DefaultValue="https://addin.example.org/excel/taskpane.html"/>'),
      "the task pane at ADDIN_PUBLIC_URL",
    );
    assert.ok(!readFileSync(join(out, "functions.json"), "utf8").includes("localhost"), "no localhost URL left in functions.json");
    assert.ok(!readdirSync(out).some((file) => file.endsWith(".map")), "no source maps in production");
    // The Production preset carries the build's addresses (src/taskpane/deployment.ts).
    const scripts = readdirSync(out, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".js") && !file.startsWith("assets"));
    const code = scripts.map((file) => readFileSync(join(out, file), "utf8")).join("\n");
    for (const value of ["https://signin.service.example/gtm/oauth/v1/authorize", "https://broker.example.org", "client-from-registration"]) {
      assert.ok(code.includes(JSON.stringify(value)), `the built preset holds ${value}`);
    }
    assert.ok(!code.includes("process.env.SERVICE_API_URL"), "every deployment address is replaced at build time");
  });

  it("keeps the local office.js copy when OFFICE_JS_LOCAL is set (isolated clouds)", async () => {
    // The setting gives the production configuration the local copy and no CDN rewrite...
    for (const value of ["true", "1", "yes"]) {
      const config = await productionConfig({ ADDIN_PUBLIC_URL: "https://addin.example.org", OFFICE_JS_LOCAL: value });
      assert.ok(!(config.plugins as object[]).some((plugin) => plugin.constructor.name === "OfficeJsCdnPlugin"), `OFFICE_JS_LOCAL=${value}: no CDN rewrite`);
      assert.ok(copiesOfficeJs(config), `OFFICE_JS_LOCAL=${value}: office.js copied`);
    }
    const unset = await productionConfig({ ADDIN_PUBLIC_URL: "https://addin.example.org" });
    assert.ok(!copiesOfficeJs(unset), "without it, no local copy");
    // ...which is the run's pages' own configuration (test/helpers/pages.ts), built once already:
    // a production build that ships office.js and loads it from there in <head>.
    const pages = await buildTaskPane();
    assert.ok(existsSync(join(pages, "assets/office-js/office.js")));
    const html = readFileSync(join(pages, "taskpane.html"), "utf8");
    assert.ok(head(html).includes('<script src="assets/office-js/office.js"></script>'));
    assert.ok(!html.includes(CDN));
  });
});
