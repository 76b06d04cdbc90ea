// The test files as plain JavaScript for scripts/test.mjs: one esbuild build of every test file
// (TypeScript and JSX compiled, our modules bundled, packages left to Node), so the test
// processes load them without a module loader hook. Node 20 runs loader hooks (tsx's) on a thread
// of their own and asks it about every module loaded, packages included: loading the sandbox's
// modules took twice the processor time with tsx registered as without (1.8 against 0.9 CPU-s),
// and each test process loads most of src/, Fastify, oidc-provider and Playwright.
//
// What the bundle keeps as the sources have it:
// - import.meta.url, .dirname and .filename are the source file's, written in as text, so a test
//   reads the files beside it (and the repository's) as before, wherever the bundle lies;
// - names (esbuild's keepNames): a class's or function's name is its own, not a renamed copy's;
// - one instance of each module per process: modules shared by several test files go to shared
//   chunks (splitting), as the one module Node would load for them.
// A file that reaches a module loaded by a computed import() (`../src/x.js?instance=${n}`, a fresh
// copy of a module per call) is not bundled: its copies and the bundle's would be different
// modules. It runs from its source through tsx, registered in its process when it starts.
import { build } from "esbuild";
import { readFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** A dynamic import() of a path computed at run time, relative to the file. */
const COMPUTED_IMPORT = /\bimport\(\s*`\.{1,2}\//;

/** `import.meta`, written so that this file does not hold the text it replaces. */
const META = ["import", "meta"].join(".");

/**
 * Loads our own files (packages stay outside the bundle) with import.meta written in, and notes
 * those with a computed import().
 */
function sourcePlugin(computed) {
  return {
    name: "sources",
    setup(b) {
      b.onLoad({ filter: /\.(ts|tsx|js|mjs)$/ }, async ({ path }) => {
        const text = await readFile(path, "utf8");
        if (COMPUTED_IMPORT.test(text)) computed.add(path);
        const contents = text.includes(META)
          ? text
              .replaceAll(`${META}.dirname`, JSON.stringify(dirname(path)))
              .replaceAll(`${META}.filename`, JSON.stringify(path))
              .replaceAll(`${META}.url`, JSON.stringify(pathToFileURL(path).href))
          : text;
        const loader = path.endsWith(".tsx") ? "tsx" : path.endsWith(".ts") ? "ts" : "js";
        return { contents, loader, resolveDir: dirname(path) };
      });
    },
  };
}

/** Inputs each input reaches (itself included), through static and dynamic imports. */
function reaches(inputs, start, seen = new Set()) {
  if (seen.has(start) || !inputs[start]) return seen;
  seen.add(start);
  for (const { path, external } of inputs[start].imports) if (!external) reaches(inputs, path, seen);
  return seen;
}

/**
 * Bundles `files` (paths relative to the repository) into `outdir`, which must lie inside the
 * repository (packages are found from there). Resolves with a Map of each bundled file to its
 * bundle's URL; files left out (see above) are not in it.
 */
export async function bundleTests(files, outdir) {
  const computed = new Set();
  const entries = files.map((file) => ({ in: file, out: file.replace(/\.tsx?$/, "") }));
  const { metafile } = await build({
    entryPoints: entries,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    jsx: "automatic",
    keepNames: true,
    outdir,
    outExtension: { ".js": ".mjs" },
    metafile: true,
    logLevel: "silent",
    plugins: [sourcePlugin(computed)],
  });
  const cwd = process.cwd();
  const flagged = new Set([...computed].map((path) => relative(cwd, path).split("\\").join("/")));
  const bundled = new Map();
  for (const { in: file, out } of entries) {
    const inputs = reaches(metafile.inputs, file);
    if ([...inputs].some((input) => flagged.has(input))) continue;
    bundled.set(file, pathToFileURL(resolve(join(outdir, `${out}.mjs`))).href);
  }
  return bundled;
}
