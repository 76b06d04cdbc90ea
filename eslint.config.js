// Lint: typescript-eslint, the Office add-in rules, and the layer rule of docs/architecture.md:
// each layer of src/ lists what it may import (an allowlist, checked on the resolved path of
// every import, export-from and import()), which Office globals it may touch, and only the
// entry points may load the composition root (src/runtime.ts).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import importX from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import tseslint from "typescript-eslint";
import officeAddins from "eslint-plugin-office-addins";
import globals from "globals";

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const RULE_DOC = "docs/architecture.md";

const officeRules = {
  "office-addins/call-sync-after-load": "error",
  "office-addins/call-sync-before-read": "error",
  "office-addins/load-object-before-read": "error",
  "office-addins/no-context-sync-in-loop": "warn",
  "office-addins/no-empty-load": "warn",
  "office-addins/no-navigational-load": "warn",
  "office-addins/no-office-initialize": "warn",
  "office-addins/test-for-null-using-isNullObject": "error",
};

/** The Node-side packages the sandbox and the broker run on. */
const NODE_SERVER_PACKAGES = ["node:*", "fastify", "@fastify/*", "better-sqlite3", "oidc-provider", "jose", "office-addin-dev-certs"];

/**
 * What each layer may import: `layers` are folders of src/ (a layer may always import itself),
 * `packages` npm packages or node: modules (`*` ends a prefix). Anything else is an error.
 * core/contract is its own layer so that the sandbox and the broker can reach the schemas and
 * nothing else of core/.
 */
export const LAYERS = {
  "core/contract": { layers: [], packages: ["@sinclair/typebox", "@sinclair/typebox/*"] },
  core: { layers: ["core/contract"], packages: ["@sinclair/typebox", "@sinclair/typebox/*"] },
  // Route schemas are TypeBox schemas (the contract's and small route-local ones).
  sandbox: { layers: ["core/contract"], packages: [...NODE_SERVER_PACKAGES, "@sinclair/typebox", "@sinclair/typebox/*"] },
  // The relay's pacing keeps shared slots in Redis through a maintained rate-limiting library.
  broker: { layers: ["core/contract"], packages: [...NODE_SERVER_PACKAGES, "rate-limiter-flexible", "ioredis"] },
  auth: { layers: ["core", "core/contract", "office/dialog.ts"], packages: ["@azure/msal-browser", "@azure/msal-browser/*", "oauth4webapi"] },
  office: { layers: ["core", "core/contract"], packages: [] },
  functions: { layers: ["core", "core/contract", "office"], packages: [] },
  taskpane: {
    layers: ["core", "core/contract", "auth", "office"],
    packages: ["react", "react/*", "react-dom", "react-dom/*", "@fluentui/*", "react-markdown"],
  },
  // The composition root wires every browser layer together; it never reaches the Node-only ones.
  "runtime.ts": { layers: ["core", "core/contract", "auth", "office", "functions", "taskpane"], packages: [] },
};

/** The pages' entry points (webpack.config.js `entry`): the only modules that load runtime.ts. */
export const ENTRY_POINTS = ["functions/functions.ts", "taskpane/index.tsx", "auth/dialog.ts", "auth/redirect.ts"];

/** The layer of a path under src/ ("core/api/client.ts" -> "core"), or null outside the layers. */
function layerOf(fromSrc) {
  if (fromSrc === "runtime.ts") return "runtime.ts";
  if (fromSrc.startsWith("core/contract/")) return "core/contract";
  const top = fromSrc.split("/")[0];
  return top in LAYERS ? top : null;
}

/** Whether `target` (a path under src/) is inside an allowed layer, folder or file. */
function within(target, allowed) {
  if (allowed === "core") return target.startsWith("core/") && !target.startsWith("core/contract/");
  return target === allowed || target.startsWith(`${allowed}/`) || target.replace(/\.js$/, ".ts") === allowed;
}

function packageAllowed(specifier, patterns) {
  return patterns.some((p) => (p.endsWith("*") ? specifier.startsWith(p.slice(0, -1)) : specifier === p));
}

const layerRule = {
  meta: {
    type: "problem",
    docs: { description: `The layer rule: each layer imports only what ${RULE_DOC} allows it.` },
    schema: [],
  },
  create(context) {
    const file = path.relative(path.join(ROOT, "src"), path.resolve(ROOT, context.filename)).split(path.sep).join("/");
    if (file.startsWith("..")) return {};
    const layer = layerOf(file);
    if (!layer) return {};
    const allow = LAYERS[layer];
    const isEntry = ENTRY_POINTS.includes(file);

    const check = (node, specifier) => {
      if (typeof specifier !== "string") return;
      if (!specifier.startsWith(".")) {
        if (packageAllowed(specifier, allow.packages)) return;
        context.report({
          node,
          message: `src/${layer === "runtime.ts" ? layer : `${layer}/`} may not import the package "${specifier}" (layer rule, ${RULE_DOC}).`,
        });
        return;
      }
      const resolved = path.resolve(path.dirname(path.join(ROOT, "src", file)), specifier);
      const target = path.relative(path.join(ROOT, "src"), resolved).split(path.sep).join("/");
      if (target.startsWith("..")) {
        context.report({ node, message: `"${specifier}" is outside src/: code under src/ imports only src/ (${RULE_DOC}).` });
        return;
      }
      const targetFile = target.replace(/\.js$/, ".ts");
      const targetLayer = layerOf(targetFile);
      if (targetLayer === "runtime.ts") {
        // Type-only imports vanish from the bundle; a value import would load the composition root.
        if (isEntry || node.importKind === "type") return;
        context.report({
          node,
          message: `Only the entry points (${ENTRY_POINTS.map((e) => `src/${e}`).join(", ")}) load src/runtime.ts; pass what you need in as arguments (${RULE_DOC}).`,
        });
        return;
      }
      if (targetLayer === layer) return;
      // An entry point may load another page's entry (the shared runtime page runs both).
      if (isEntry && (ENTRY_POINTS.includes(targetFile) || ENTRY_POINTS.includes(`${targetFile}x`))) return;
      if (allow.layers.some((allowed) => within(target, allowed))) return;
      context.report({ node, message: `src/${layer === "runtime.ts" ? layer : `${layer}/`} may not import src/${target} (layer rule, ${RULE_DOC}).` });
    };

    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value),
    };
  },
};

/** Longest a source file may be: past it, a file holds more than one job (docs/architecture.md). */
export const MAX_LINES = 400;

const RELATIVE_IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?["'](\.{1,2}\/[^"']+)["']|import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

/** The file a relative specifier names ("./x.js" -> x.ts, x.tsx or x/index.ts), or null. */
function resolveModule(fromFile, specifier) {
  const base = path.resolve(path.dirname(fromFile), specifier).replace(/\.js$/, "");
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), base]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Every module's relative imports, type-only ones and import() included, read from disk once per run. */
const moduleImports = new Map();
function importsOf(file) {
  let found = moduleImports.get(file);
  if (!found) {
    found = new Set();
    const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    for (const match of text.matchAll(RELATIVE_IMPORT)) {
      const target = resolveModule(file, match[1] ?? match[2]);
      if (target) found.add(target);
    }
    moduleImports.set(file, found);
  }
  return found;
}

/** A path of imports from `start` back to `file`, or null. */
function pathBack(start, file) {
  const seen = new Set([start]);
  const queue = [[start]];
  while (queue.length > 0) {
    const route = queue.shift();
    for (const next of importsOf(route[route.length - 1])) {
      if (next === file) return route;
      if (!seen.has(next)) {
        seen.add(next);
        queue.push([...route, next]);
      }
    }
  }
  return null;
}

/**
 * No import circles, type imports included (import-x/no-cycle skips type-only imports: a circle
 * of types still ties the modules' meaning together and hides the layer a type belongs to).
 */
const cycleRule = {
  meta: { type: "problem", docs: { description: "No import circles, type-only imports included." }, schema: [] },
  create(context) {
    const file = path.resolve(ROOT, context.filename);
    const check = (node, specifier) => {
      if (typeof specifier !== "string" || !specifier.startsWith(".")) return;
      const target = resolveModule(file, specifier);
      if (!target || target === file) return;
      const route = pathBack(target, file);
      if (!route) return;
      const names = [file, ...route, file].map((f) => path.relative(ROOT, f).split(path.sep).join("/"));
      context.report({ node, message: `Import circle: ${names.join(" -> ")}. Move what both sides need into a module of its own (${RULE_DOC}).` });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value),
    };
  },
};

const restrictedGlobals = (names) => ({
  "no-restricted-globals": [
    "error",
    ...names.map((name) => ({
      name,
      message:
        name === "Office"
          ? `Only src/office/ and the Office dialog page (src/auth/dialog.ts) touch the Office global (${RULE_DOC}).`
          : `Only src/office/ (and the functions' registration, src/functions/) touch the ${name} global (${RULE_DOC}).`,
    })),
  ],
});

export default tseslint.config(
  { ignores: ["node_modules/", "dist/", ".sandbox/", ".certs/", "coverage/", "docs/"] },
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    plugins: { "office-addins": officeAddins },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      ...officeRules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-eval": "error",
    },
  },
  {
    files: ["src/**/*.{ts,tsx}"],
    plugins: { layers: { rules: { "allowed-imports": layerRule } } },
    rules: {
      "layers/allowed-imports": "error",
      ...restrictedGlobals(["Office", "Excel", "CustomFunctions"]),
    },
  },
  {
    files: ["src/core/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "error" },
  },
  // Functions short enough to read at once: 80 lines in core/, broker/ and sandbox/ (blank lines and comments aside).
  {
    files: ["src/core/**/*.ts", "src/broker/**/*.ts", "src/sandbox/**/*.ts"],
    rules: { "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  // 150 lines in the task pane: a component is a hook (its state and effects) and views.
  {
    files: ["src/taskpane/**/*.{ts,tsx}"],
    rules: { "max-lines-per-function": ["error", { max: 150, skipBlankLines: true, skipComments: true }] },
  },
  // No import circles (import-x/no-cycle for values, cycles/with-types for type imports too) and
  // no file past MAX_LINES, in the sources and everything around them.
  {
    files: ["src/**/*.{ts,tsx}", "test/**/*.{ts,tsx}", "bench/**/*.ts", "scripts/**/*.ts"],
    plugins: { "import-x": importX, cycles: { rules: { "with-types": cycleRule } } },
    settings: { "import-x/resolver-next": [createTypeScriptImportResolver({ project: path.join(ROOT, "tsconfig.json") })] },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "cycles/with-types": "error",
      "max-lines": ["error", { max: MAX_LINES }],
    },
  },
  // The Office dialog page talks to its opener through Office.context.ui.
  { files: ["src/auth/dialog.ts"], rules: restrictedGlobals(["Excel", "CustomFunctions"]) },
  // Custom functions are registered with, and answer through, the CustomFunctions global.
  { files: ["src/functions/**/*.ts"], rules: restrictedGlobals(["Office", "Excel"]) },
  { files: ["src/office/**/*.{ts,tsx}"], rules: { "no-restricted-globals": "off" } },
  {
    files: ["test/**/*.{ts,tsx}", "bench/**/*.ts", "scripts/**/*.{ts,mjs}"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "@typescript-eslint/no-non-null-assertion": "off" },
  },
);
