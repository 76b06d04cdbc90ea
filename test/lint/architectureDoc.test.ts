// docs/architecture.md's layer table says what each layer may import; eslint.config.js's LAYERS
// is what the lint enforces. This reads the table and compares the two, so neither changes alone.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

const ROOT = resolve(import.meta.dirname, "../..");

type LayerRule = { layers: string[]; packages: string[] };
const { LAYERS } = (await import(pathToFileURL(resolve(ROOT, "eslint.config.js")).href)) as { LAYERS: Record<string, LayerRule> };

/** The rows of the table headed "| layer | may import from src/ | may import packages |". */
function documentedLayers(markdown: string): Map<string, LayerRule> {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => /^\|\s*layer\s*\|\s*may import from src\/\s*\|\s*may import packages\s*\|/.test(line));
  assert.ok(start >= 0, "docs/architecture.md has the layer table");
  const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => (m[1] as string).replace(/\/$/, ""));
  const rows = new Map<string, LayerRule>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const [layer = "", from = "", packages = ""] = line.split("|").slice(1, 4);
    const [name] = ticked(layer);
    assert.ok(name, `a layer named in backticks: ${line}`);
    rows.set(name, { layers: ticked(from).sort(), packages: ticked(packages).sort() });
  }
  return rows;
}

test("the layer table of docs/architecture.md is eslint.config.js's LAYERS", () => {
  const documented = documentedLayers(readFileSync(resolve(ROOT, "docs/architecture.md"), "utf8"));
  const enforced = LAYERS;
  assert.deepEqual([...documented.keys()].sort(), Object.keys(enforced).sort(), "the same layers");
  for (const [layer, rule] of Object.entries(enforced)) {
    assert.deepEqual(documented.get(layer), { layers: [...rule.layers].sort(), packages: [...rule.packages].sort() }, `the row of ${layer}`);
  }
});

test("the table reader sees a difference (a row that allows more than the lint)", () => {
  const markdown = "| layer | may import from src/ | may import packages |\n|---|---|---|\n| `office/` | `core/`, `auth/` | none |\n";
  assert.deepEqual(documentedLayers(markdown).get("office"), { layers: ["auth", "core"], packages: [] });
  assert.notDeepEqual(documentedLayers(markdown).get("office")?.layers, [...LAYERS.office!.layers].sort());
});
