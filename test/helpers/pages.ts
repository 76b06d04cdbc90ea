// The add-in pages for tests: one development build per run. scripts/test.mjs builds
// them once before the tests start and passes the folder in BIZDATA_TEST_PAGES; a file run on
// its own builds them here (reused while the sources are unchanged).
import { createHash } from "node:crypto";
import { existsSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** Folder of the development build made for this run (set by scripts/test.mjs). */
export const PAGES_ENV = "BIZDATA_TEST_PAGES";
const ROOT = resolve(import.meta.dirname, "../..");

function fingerprint(): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const st = statSync(full);
      if (st.isDirectory()) walk(full);
      else hash.update(`${full}:${st.size}:${st.mtimeMs}\n`);
    }
  };
  walk(join(ROOT, "src"));
  for (const f of ["webpack.config.js", "package.json", "manifest.xml"]) {
    const full = join(ROOT, f);
    if (existsSync(full)) hash.update(`${f}:${statSync(full).mtimeMs}\n`);
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * The add-in pages (development mode, no source maps) in a folder outside dist/: the run's
 * build when scripts/test.mjs made one, otherwise built here and reused while the sources are
 * unchanged.
 */
export async function buildTaskPane(mode: "development" | "production" = "development"): Promise<string> {
  const shared = process.env[PAGES_ENV];
  if (mode === "development" && shared && existsSync(join(shared, "taskpane.html"))) return shared;
  const prefix = `bizdata-e2e-${mode}-`;
  const out = join(tmpdir(), `${prefix}${fingerprint()}`);
  if (existsSync(join(out, "taskpane.html"))) return out;
  // Builds of older sources are not needed again (each holds a copy of office.js); one made in
  // the last hour may still be served by another test run, so it stays.
  for (const name of readdirSync(tmpdir())) {
    const old = join(tmpdir(), name);
    if (name.startsWith(prefix) && Date.now() - statSync(old).mtimeMs > 3_600_000) rmSync(old, { recursive: true, force: true });
  }
  const { default: makeConfig } = (await import(join(ROOT, "webpack.config.js"))) as { default: (env: object, argv: object) => Promise<Record<string, any>> };
  const { default: webpack } = await import("webpack");
  const config = await makeConfig({}, { mode });
  // Into a folder of its own first: a run beside this one never serves a half-written build.
  const partial = `${out}.partial-${process.pid}`;
  config.output = { ...config.output, path: partial };
  config.stats = "errors-only";
  config.infrastructureLogging = { level: "error" };
  if (mode === "development") config.devtool = false;
  await new Promise<void>((done, fail) => {
    webpack(config as any, (error, stats) => {
      if (error) return fail(error);
      if (stats?.hasErrors()) return fail(new Error(stats.toString("errors-only")));
      done();
    });
  });
  try {
    renameSync(partial, out);
  } catch {
    // Another run finished the same build first: use it.
    rmSync(partial, { recursive: true, force: true });
  }
  return out;
}
