// The task pane's first screen (sign-in panel) keeps its JavaScript small: the search forms,
// pickers, tables, panels and workbook adapters are reached only through import(). This walks
// the static imports from the entry, so a new static import of a heavy part fails here rather
// than quietly growing the first load (`npm run build` prints the size).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const entry = join(root, "src/taskpane/index.tsx");

/** Value imports and re-exports (not `import type`, not import()) of one source file. */
function staticImports(source: string): { specifier: string; names: string[] }[] {
  const found: { specifier: string; names: string[] }[] = [];
  const pattern = /^(?:import|export)\s+(?!type\b)([\s\S]*?)\s+from\s+"([^"]+)";/gm;
  for (const match of source.matchAll(pattern)) {
    const clause = match[1] ?? "";
    const braces = /\{([\s\S]*)\}/.exec(clause)?.[1] ?? "";
    const names = braces
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part && !part.startsWith("type "))
      .map((part) => part.split(/\s+as\s+/)[0] ?? part);
    found.push({ specifier: match[2] ?? "", names });
  }
  return found;
}

function resolveSource(from: string, specifier: string): string | undefined {
  const base = join(dirname(from), specifier).replace(/\.js$/, "");
  return [".ts", ".tsx", "/index.ts"].map((ext) => base + ext).find((file) => existsSync(file));
}

/** Every source file statically reachable from the entry, and the Fluent names they import. */
function firstScreen(from: string = entry): { files: Set<string>; fluent: Set<string> } {
  const files = new Set<string>();
  const fluent = new Set<string>();
  const queue = [from];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    for (const { specifier, names } of staticImports(readFileSync(file, "utf8"))) {
      if (specifier === "@fluentui/react-components") names.forEach((name) => fluent.add(name));
      if (!specifier.startsWith(".")) continue;
      const target = resolveSource(file, specifier);
      assert.ok(target, `${relative(root, file)} imports ${specifier}, which resolves to a source file`);
      queue.push(target);
    }
  }
  return { files, fluent };
}

test("the first screen reaches the search tabs, panels and workbook adapters only through import()", () => {
  const { files } = firstScreen();
  const reached = [...files].map((file) => relative(root, file).replaceAll("\\", "/"));
  assert.ok(reached.includes("src/taskpane/App.tsx"), "the walk follows the entry's imports");
  assert.ok(reached.includes("src/taskpane/auth/SignInPanel.tsx"), "the sign-in panel is on the first screen");
  const deferred = [
    "src/taskpane/SignedInArea.tsx",
    "src/taskpane/search/",
    "src/taskpane/insert/",
    "src/taskpane/saved/",
    "src/taskpane/settings/",
    "src/taskpane/usage/",
    "src/taskpane/jobs/",
    "src/taskpane/enrich/",
    "src/taskpane/workbook/",
    "src/taskpane/enrichAndJobsTabs.tsx",
    "src/taskpane/auth/NoticeBar.tsx",
    "src/office/excelWorkbook.ts",
    "src/office/browserWorkbook.ts",
    // The composition root (service client, enrichment engine) and what it brings: the contract's validators.
    "src/runtime.ts",
    "src/core/api/",
    "src/core/contract/",
    "src/core/enrich/",
    "src/core/jobs/",
    "src/functions/",
  ];
  // The error text the sign-in panel shows (with the service's reference) and the scopes it asks are small modules with no imports.
  const firstScreenParts = new Set(["src/core/api/userText.ts", "src/core/contract/scopes.ts"]);
  for (const part of firstScreenParts) assert.deepEqual(staticImports(readFileSync(join(root, part), "utf8")), [], `${part} stays free of imports`);
  for (const part of deferred) {
    assert.deepEqual(
      reached.filter((file) => file.startsWith(part) && !firstScreenParts.has(file)),
      [],
      `${part} is loaded with import(), not on the first screen`,
    );
  }
});

test("the first screen imports only the Fluent parts the sign-in panel needs", () => {
  const { fluent } = firstScreen();
  // PortalMountNodeProvider is a context provider (popups open inside the pane's landmark).
  const allowed = new Set(["FluentProvider", "webLightTheme", "Button", "makeStyles", "mergeClasses", "tokens", "PortalMountNodeProvider"]);
  assert.ok(fluent.has("Button"), "the walk sees the sign-in button");
  assert.deepEqual([...fluent].filter((name) => !allowed.has(name)).sort(), []);
});

test("the custom-functions entry, which the same page runs first, loads what the functions do only through import()", () => {
  const { files } = firstScreen(join(root, "src/functions/functions.ts"));
  const reached = [...files].map((file) => relative(root, file).replaceAll("\\", "/"));
  assert.deepEqual(reached, ["src/functions/functions.ts"]);
});
