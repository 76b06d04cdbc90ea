// scripts/bundleTests.mjs, which compiles the test files the run loads: a bundled file sees its
// source's import.meta and its own names, shares a module with the other files, and a file that
// reaches a computed import() is left to tsx.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { after, describe, test } from "node:test";
// @ts-expect-error: a plain JavaScript module of the scripts, without types
import { bundleTests } from "../../scripts/bundleTests.mjs";

const ROOT = join(import.meta.dirname, "..", "..");
/** Sources in a folder of the repository (packages resolve from there), removed afterwards. */
const work = mkdtempSync(join(ROOT, "node_modules", ".cache", "bundle-test-"));
after(() => rmSync(work, { recursive: true, force: true }));

function write(path: string, text: string): string {
  const full = join(work, "src", path);
  mkdirSync(join(full, ".."), { recursive: true });
  writeFileSync(full, text);
  return relative(process.cwd(), full).split("\\").join("/");
}

/** `import.meta` for the sources written here: this file's own text has it replaced when bundled. */
const META = ["import", "meta"].join(".");

describe("the test files' bundle", () => {
  const shared = write("shared.ts", `export const counter = { n: 0 }; export class Named {}\nexport const where = ${META}.dirname;`);
  const first = write(
    "a/first.ts",
    // A class of the same name beside it: the bundle renames one of the two, and keeps their names.
    `import { counter, Named as SharedNamed, where } from "../shared.js";\nclass Named {}\ncounter.n++;\nexport const seen = { dirname: ${META}.dirname, url: ${META}.url, shared: where, names: [SharedNamed.name, Named.name], counter };`,
  );
  const second = write("b/second.ts", `import { counter } from "../shared.js";\ncounter.n++;\nexport { counter };`);
  const computed = write("c/fresh.ts", `export const load = (n: number) => import(\`../shared.js?copy=\${n}\`);`);
  const plain = write("c/plain.ts", `export const one = 1;`);

  test("each file keeps its source's import.meta and its names, and files share one instance of a module", async () => {
    const out = join(work, "out");
    const bundles: Map<string, string> = await bundleTests([first, second, plain], out);
    assert.deepEqual([...bundles.keys()].sort(), [first, second, plain].sort());
    const a = (await import(bundles.get(first)!)) as { seen: { dirname: string; url: string; shared: string; names: string[]; counter: { n: number } } };
    const b = (await import(bundles.get(second)!)) as { counter: { n: number } };
    assert.equal(a.seen.dirname, join(ROOT, first, ".."));
    assert.equal(a.seen.url, pathToFileURL(join(ROOT, first)).href);
    assert.equal(a.seen.shared, join(ROOT, shared, ".."), "a module bundled in keeps its own");
    assert.deepEqual(a.seen.names, ["Named", "Named"]);
    assert.equal(b.counter, a.seen.counter, "one module for both files");
    assert.equal(b.counter.n, 2);
  });

  test("a file reaching a computed import() is not bundled (it runs through tsx)", async () => {
    const bundles: Map<string, string> = await bundleTests([computed, plain], join(work, "out2"));
    assert.deepEqual([...bundles.keys()], [plain]);
  });
});
