// Lint: typescript-eslint, the Office add-in rules, and the layer rule of DESIGN.md
// (core/ imports nothing from office/, taskpane/, functions/, sandbox/; sandbox/ only core/contract;
// taskpane/ and functions/ reach Excel only through office/).
import tseslint from "typescript-eslint";
import officeAddins from "eslint-plugin-office-addins";
import globals from "globals";

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

const layer = (patterns, message) => ({
  "no-restricted-imports": ["error", { patterns: patterns.map((group) => ({ group: [group], message })) }],
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
    files: ["src/core/**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      ...layer(
        ["**/office/**", "**/taskpane/**", "**/functions/**", "**/sandbox/**", "**/auth/**", "react", "react-dom", "@fluentui/*"],
        "core/ is pure TypeScript: no Office, DOM frameworks, sandbox or UI imports (DESIGN.md).",
      ),
    },
  },
  {
    files: ["src/sandbox/**/*.ts"],
    rules: layer(
      ["**/core/api/**", "**/core/enrich/**", "**/core/sheet/**", "**/office/**", "**/taskpane/**", "**/functions/**", "**/auth/**"],
      "sandbox/ imports only core/contract (DESIGN.md).",
    ),
  },
  {
    files: ["src/broker/**/*.ts"],
    rules: layer(
      ["**/core/api/**", "**/core/enrich/**", "**/core/sheet/**", "**/core/settings/**", "**/sandbox/**", "**/office/**", "**/taskpane/**", "**/functions/**", "**/auth/**"],
      "broker/ imports at most core/contract (DESIGN.md).",
    ),
  },
  {
    files: ["src/taskpane/**/*.{ts,tsx}", "src/functions/**/*.ts", "src/auth/**/*.{ts,tsx}"],
    rules: layer(["**/sandbox/**"], "The add-in never imports the sandbox (DESIGN.md)."),
  },
  {
    files: ["src/taskpane/**/*.{ts,tsx}", "src/functions/**/*.ts"],
    rules: {
      "no-restricted-globals": [
        "error",
        { name: "Excel", message: "Reach Excel only through src/office/ (DESIGN.md)." },
      ],
    },
  },
  {
    files: ["test/**/*.{ts,tsx}", "bench/**/*.ts", "scripts/**/*.{ts,mjs}"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "@typescript-eslint/no-non-null-assertion": "off" },
  },
);
