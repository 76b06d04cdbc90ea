// The add-in pages for tests: one build per run. scripts/test.mjs builds them once before the
// tests start and passes the folder in BIZDATA_TEST_PAGES; a file run on its own builds them here
// (reused while the sources are unchanged).
import { createHash } from "node:crypto";
import { existsSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import MinimizerPlugin from "minimizer-webpack-plugin";

/** Folder of the pages built for this run (set by scripts/test.mjs). */
export const PAGES_ENV = "BIZDATA_TEST_PAGES";
const ROOT = resolve(import.meta.dirname, "../..");
/** The pages the tests load (minified by esbuild), or as released (by terser: what the bundle-size bench weighs). */
export type PagesBuild = "test" | "release";

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
 * webpack's filesystem cache of the pages of one kind for this checkout, kept across builds: a
 * build after a change compiles again only the modules whose files changed (7 s instead of 22 on
 * two cores when every file of src/ has a new time) and takes the packages' modules (most of the
 * pages: React, Fluent UI, msal-browser), checked by their versions, from the cache. webpack's
 * cache holds absolute paths, so each checkout has its own. Production builds made later in the
 * run start from it too.
 */
export function webpackCacheOf(build: PagesBuild = "test"): string {
  const checkout = createHash("sha256").update(ROOT).digest("hex").slice(0, 12);
  return join(tmpdir(), `bizdata-webpack-cache-${build}-${checkout}`);
}

export type Config = Record<string, any>;

/** webpack.config.js's configuration for `env` and `argv`, without the warning it prints for a local build. */
export async function webpackConfig(env: object, argv: object): Promise<Config> {
  const { default: makeConfig } = (await import(join(ROOT, "webpack.config.js"))) as { default: (env: object, argv: object) => Promise<Config> };
  // The build warns that the manifest keeps its localhost URLs, as a local build should.
  const warn = console.warn;
  console.warn = () => {};
  return await makeConfig(env, argv).finally(() => (console.warn = warn));
}

/**
 * webpack.config.js for the test pages: the production build users load (React and Fluent UI in
 * their production mode), with office.js copied locally (tests have no network), into `path`,
 * with its cache in `cache`. Test pages are minified by esbuild instead of terser: a second of
 * build instead of most of it. Minifying is what drops the code webpack marks unused (thousands
 * of icons Fluent's icon modules hold): unminified, a page compiles four times the script
 * (8 MB against 2 MB), and compiling it is much of the browser's time per page opened.
 */
async function pagesConfig(build: PagesBuild, path: string, cache: string): Promise<Config> {
  const config = await webpackConfig({ officeJsLocal: true }, { mode: "production" });
  return {
    ...config,
    output: { ...config.output, path },
    optimization: {
      ...config.optimization,
      minimize: true,
      ...(build === "test" ? { minimizer: [new MinimizerPlugin({ minify: MinimizerPlugin.esbuildMinify })] } : {}),
    },
    // The size report is for release builds (and would print on the run's output).
    plugins: config.plugins.filter((plugin: object) => plugin.constructor.name !== "InitialJsSizePlugin"),
    // Entries unused for two days go, so the cache does not grow with every change made.
    cache: { type: "filesystem", cacheDirectory: cache, maxAge: 2 * 24 * 3_600_000, buildDependencies: { config: [join(ROOT, "webpack.config.js")] } },
    performance: { hints: false },
    stats: "errors-only",
    infrastructureLogging: { level: "error" },
  };
}

async function runWebpack(config: Config): Promise<void> {
  const { default: webpack } = await import("webpack");
  const compiler = webpack(config as any);
  await new Promise<void>((done, fail) => {
    compiler.run((error, stats) => {
      // Closing writes the cache.
      compiler.close((closeError) => {
        if (error || closeError) return fail(error ?? closeError);
        if (stats?.hasErrors()) return fail(new Error(stats.toString("errors-only")));
        done();
      });
    });
  });
}

/**
 * The add-in pages in a folder outside dist/: the run's build when scripts/test.mjs made one,
 * otherwise built here and reused while the sources are unchanged.
 */
export async function buildTaskPane(build: PagesBuild = "test"): Promise<string> {
  const shared = process.env[PAGES_ENV];
  if (build === "test" && shared && existsSync(join(shared, "taskpane.html"))) return shared;
  const prefix = `bizdata-e2e-${build}-`;
  const out = join(tmpdir(), `${prefix}${fingerprint()}`);
  // Built already, with the cache the production builds start from.
  if (existsSync(join(out, "taskpane.html")) && existsSync(webpackCacheOf(build))) return out;
  // Builds of older sources are not needed again (each holds a copy of office.js); one made in
  // the last hour may still be served by another test run, so it stays.
  for (const name of readdirSync(tmpdir())) {
    const old = join(tmpdir(), name);
    if (name.startsWith(prefix) && Date.now() - statSync(old).mtimeMs > 3_600_000) rmSync(old, { recursive: true, force: true });
  }
  // Into a folder of its own first: a run beside this one never serves a half-written build.
  const partial = `${out}.partial-${process.pid}`;
  await runWebpack(await pagesConfig(build, partial, webpackCacheOf(build)));
  try {
    renameSync(partial, out);
  } catch {
    // Another run finished the same build first: use it.
    rmSync(partial, { recursive: true, force: true });
  }
  return out;
}
