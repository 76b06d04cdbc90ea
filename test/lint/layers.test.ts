// The layer rule of docs/architecture.md, as ESLint applies it: source text linted as if it
// were a file at the given path under src/ (the file need not exist).
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { describe, test } from "node:test";
import { ESLint } from "eslint";

const linters = new Map<string, ESLint>();
/**
 * The project's ESLint, running only `rules` of its configuration (ruleFilter): a test reads
 * those rules' messages, and the others (the import-circle rule walks the whole module graph)
 * would only cost time.
 */
function eslintFor(...rules: string[]): ESLint {
  const key = rules.join(" ");
  let linter = linters.get(key);
  if (!linter) {
    linter = new ESLint({ cwd: resolve(import.meta.dirname, "../.."), ruleFilter: ({ ruleId }) => rules.includes(ruleId) });
    linters.set(key, linter);
  }
  return linter;
}

const LAYER_RULES = ["layers/allowed-imports", "no-restricted-globals"];

/** The messages of the layer rule and the restricted-globals rule for `code` at `filePath`. */
async function layerProblems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslintFor(...LAYER_RULES).lintText(code, { filePath });
  assert.ok(result, "eslint answered");
  const fatal = result.messages.filter((m) => m.fatal);
  assert.deepEqual(fatal, [], "the text parses");
  return result.messages.filter((m) => m.ruleId !== null && LAYER_RULES.includes(m.ruleId)).map((m) => m.message);
}

async function assertRefused(filePath: string, code: string, pattern: RegExp) {
  const problems = await layerProblems(filePath, code);
  assert.equal(problems.length, 1, `${filePath}: ${code} -> ${JSON.stringify(problems)}`);
  assert.match(problems[0]!, pattern);
  assert.match(problems[0]!, /docs\/architecture\.md/, "the message names the page that explains the rule");
}

async function assertAllowed(filePath: string, code: string) {
  assert.deepEqual(await layerProblems(filePath, code), [], `${filePath}: ${code}`);
}

describe("the layer rule (eslint.config.js)", () => {
  test("core/ imports only core/ and TypeBox", async () => {
    await assertRefused(
      "src/core/api/x.ts",
      `import { a } from "../../office/workbook.js"; export { a };`,
      /src\/core\/ may not import src\/office\/workbook\.js/,
    );
    await assertRefused("src/core/enrich/x.ts", `import { useState } from "react"; export { useState };`, /may not import the package "react"/);
    await assertRefused("src/core/jobs/x.ts", `export * from "../../auth/index.js";`, /may not import src\/auth\/index\.js/);
    await assertRefused("src/core/x.ts", `export const load = () => import("../sandbox/app.js");`, /may not import src\/sandbox\/app\.js/);
    await assertRefused("src/core/api/x.ts", `import { readFileSync } from "node:fs"; export { readFileSync };`, /package "node:fs"/);
    await assertAllowed(
      "src/core/api/x.ts",
      `import { Type } from "@sinclair/typebox"; import { b } from "../contract/index.js"; import { c } from "../sheet/index.js"; export { Type, b, c };`,
    );
  });

  test("the sandbox and the broker reach only core/contract, and nothing reaches the broker", async () => {
    await assertRefused(
      "src/sandbox/routes/x.ts",
      `import { c } from "../../core/api/client.js"; export { c };`,
      /src\/sandbox\/ may not import src\/core\/api\/client\.js/,
    );
    await assertAllowed("src/sandbox/routes/x.ts", `import { c } from "../../core/contract/index.js"; import Fastify from "fastify"; export { c, Fastify };`);
    await assertRefused("src/broker/x.ts", `import { c } from "../core/api/index.js"; export { c };`, /src\/broker\/ may not import/);
    await assertAllowed(
      "src/broker/x.ts",
      `import { c } from "../core/contract/index.js"; import { createServer } from "node:http"; export { c, createServer };`,
    );
    await assertRefused("src/taskpane/x.tsx", `import { b } from "../broker/server.js"; export { b };`, /may not import src\/broker\/server\.js/);
    await assertRefused("src/sandbox/x.ts", `import { b } from "../broker/server.js"; export { b };`, /may not import src\/broker\/server\.js/);
  });

  test("the add-in's layers never import the sandbox; office/ and auth/ stay below the UI", async () => {
    await assertRefused(
      "src/taskpane/search/x.tsx",
      `import { s } from "../../sandbox/server.js"; export { s };`,
      /src\/taskpane\/ may not import src\/sandbox\/server\.js/,
    );
    await assertRefused("src/functions/x.ts", `import { s } from "../sandbox/server.js"; export { s };`, /src\/functions\/ may not import/);
    await assertRefused("src/office/x.ts", `import { t } from "../auth/index.js"; export { t };`, /src\/office\/ may not import src\/auth\/index\.js/);
    await assertRefused("src/auth/x.ts", `import { w } from "../office/workbook.js"; export { w };`, /src\/auth\/ may not import src\/office\/workbook\.js/);
    await assertAllowed(
      "src/auth/x.ts",
      `import type { OpenDialog } from "../office/dialog.js"; import { e } from "../core/api/errors.js"; export type { OpenDialog }; export { e };`,
    );
    await assertAllowed(
      "src/taskpane/x.tsx",
      `import { a } from "../auth/index.js"; import { w } from "../office/workbook.js"; import { Button } from "@fluentui/react-components"; export { a, w, Button };`,
    );
  });

  test("only the entry points load the composition root", async () => {
    await assertRefused(
      "src/taskpane/search/x.tsx",
      `import { createRuntime } from "../../runtime.js"; export { createRuntime };`,
      /Only the entry points .* load src\/runtime\.ts/,
    );
    await assertRefused("src/functions/cellFunctionsImpl.ts", `export const r = () => import("../runtime.js");`, /Only the entry points/);
    await assertAllowed("src/taskpane/services.tsx", `import type { Runtime } from "../runtime.js"; export type { Runtime };`);
    await assertAllowed(
      "src/taskpane/index.tsx",
      `export const r = () => import("../runtime.js"); export const f = () => import("../functions/functions.js");`,
    );
  });

  test("the Office globals: Office in office/ and the dialog page, Excel in office/, CustomFunctions in office/ and functions/", async () => {
    await assertRefused("src/taskpane/x.tsx", `export const host = () => Office.context.host;`, /Only src\/office\/ and the Office dialog page/);
    await assertRefused("src/auth/tokenSource.ts", `export const host = () => Office.context.host;`, /Office global/);
    await assertRefused("src/functions/x.ts", `export const run = () => Excel.run(async () => undefined);`, /the Excel global/);
    await assertRefused(
      "src/taskpane/x.tsx",
      `export const e = () => new CustomFunctions.Error(CustomFunctions.ErrorCode.notAvailable);`.replace(
        "CustomFunctions.ErrorCode.notAvailable",
        "0 as never",
      ),
      /the CustomFunctions global/,
    );
    await assertAllowed("src/office/x.ts", `export const run = () => Excel.run(async () => Office.context.host);`);
    await assertAllowed("src/auth/dialog.ts", `export const ready = () => Office.onReady();`);
    await assertAllowed("src/functions/x.ts", `export const e = () => new CustomFunctions.Error(CustomFunctions.ErrorCode.notAvailable);`);
  });
});

describe("import circles and file length (eslint.config.js)", () => {
  const problemsOf = async (filePath: string, code: string, rule: string) => {
    const [result] = await eslintFor(rule).lintText(code, { filePath });
    return (result?.messages ?? []).filter((m) => m.ruleId === rule).map((m) => m.message);
  };

  test("a circle of type-only imports is refused, naming the modules on it", async () => {
    // resolver.ts imports caches.ts: caches naming resolver back closes a circle.
    const problems = await problemsOf(
      "src/core/enrich/caches.ts",
      `import type { Resolved } from "./resolver.js"; export type R = Resolved;`,
      "cycles/with-types",
    );
    assert.equal(problems.length, 1, JSON.stringify(problems));
    assert.match(problems[0]!, /Import circle: src\/core\/enrich\/caches\.ts -> src\/core\/enrich\/resolver\.ts -> src\/core\/enrich\/caches\.ts/);
    assert.deepEqual(
      await problemsOf("src/core/enrich/caches.ts", `import type { Logger } from "../api/types.js"; export type L = Logger;`, "cycles/with-types"),
      [],
    );
  });

  test("a file past the line limit is refused", async () => {
    const long = Array.from({ length: 401 }, (_, i) => `export const v${i} = ${i};`).join("\n");
    assert.equal((await problemsOf("src/core/enrich/x.ts", long, "max-lines")).length, 1);
    assert.equal((await problemsOf("src/core/enrich/x.ts", long.split("\n").slice(0, 400).join("\n"), "max-lines")).length, 0);
  });

  test("a function past 80 lines is refused in core/, broker/ and sandbox/, and 150 in the task pane", async () => {
    const fn = (lines: number) => `export function f(): number {\n  let n = 0;\n${"  n += 1;\n".repeat(lines - 4)}  return n;\n}\n`;
    for (const file of ["src/core/enrich/x.ts", "src/broker/x.ts", "src/sandbox/search/x.ts", "src/sandbox/x.ts"]) {
      assert.equal((await problemsOf(file, fn(81), "max-lines-per-function")).length, 1, file);
      assert.equal((await problemsOf(file, fn(80), "max-lines-per-function")).length, 0, file);
    }
    assert.equal((await problemsOf("src/taskpane/x.ts", fn(150), "max-lines-per-function")).length, 0);
    assert.equal((await problemsOf("src/taskpane/x.ts", fn(151), "max-lines-per-function")).length, 1);
  });
});
