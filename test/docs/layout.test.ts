// The maps of the source stay true: README's Layout and docs/architecture.md's layer map name
// every folder of src/ (three levels deep) where it is, and README's Documentation lists every
// page of docs/. A folder added without its line, or a line left behind, fails here.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Folders under src/, as "core/api" paths, down to `depth` levels. */
function sourceFolders(dir = "src", prefix = "", depth = 3): string[] {
  if (depth === 0) return [];
  return fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const name = `${prefix}${entry.name}`;
      return [name, ...sourceFolders(path.join(dir, entry.name), `${name}/`, depth - 1)];
    });
}

/** The first fenced block after `heading` in a markdown file. */
function blockAfter(file: string, heading: string): string {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const start = text.indexOf(heading);
  assert.ok(start >= 0, `${file} has the heading "${heading}"`);
  const open = text.indexOf("```", start);
  const close = text.indexOf("```", open + 3);
  return text.slice(text.indexOf("\n", open) + 1, close);
}

/**
 * The folders a tree drawing names, as paths: a line whose first word ends with "/" is a folder,
 * nested under the nearest line above it that is indented less.
 */
function foldersDrawn(block: string): string[] {
  const stack: { indent: number; name: string }[] = [];
  const found: string[] = [];
  for (const line of block.split("\n")) {
    const match = /^( *)(\S+)/.exec(line);
    if (!match?.[2]?.endsWith("/")) continue;
    const indent = match[1]!.length;
    while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop();
    stack.push({ indent, name: match[2].slice(0, -1) });
    found.push(stack.map((s) => s.name).join("/"));
  }
  return found;
}

const under = (prefix: string, paths: string[]) => paths.filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length));

/** What a drawing leaves out and what it names that does not exist. */
function drift(drawn: string[], actual: string[]) {
  return { missing: actual.filter((f) => !drawn.includes(f)), extra: drawn.filter((f) => !actual.includes(f)) };
}

describe("the maps of the source", () => {
  it("README's Layout names every folder of src/ where it is, and nothing else", () => {
    const drawn = under("src/", foldersDrawn(blockAfter("README.md", "## Layout")));
    assert.deepEqual(drift(drawn, sourceFolders()), { missing: [], extra: [] });
  });

  it("architecture.md's layer map names every layer and every folder of core/, and only folders that exist", () => {
    const drawn = under("src/", foldersDrawn(blockAfter("docs/architecture.md", "## The layers")));
    const layers = sourceFolders().filter((f) => !f.includes("/") || /^core\/[^/]+$/.test(f));
    assert.deepEqual(drift(drawn, layers).missing, []);
    assert.deepEqual(drift(drawn, sourceFolders()).extra, []);
  });

  it("README's Documentation lists every page of docs/", () => {
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Documentation"), readme.indexOf("\n## ", readme.indexOf("## Documentation") + 1));
    const pages = fs.readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md"));
    const missing = pages.filter((page) => !section.includes(`(docs/${page})`));
    assert.deepEqual(missing, []);
  });
});
