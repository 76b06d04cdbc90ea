// Runs every test suite: type check, lint, then node:test over test/**/*.test.ts(x).
// Node 20's --test does not expand ** globs, so the files are listed here.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const args = new Set(process.argv.slice(2));
const unitOnly = args.has("--unit");

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...findTests(full));
    else if (/\.test\.tsx?$/.test(name)) out.push(full);
  }
  return out;
}

function run(cmd, cmdArgs) {
  console.log(`\n> ${cmd} ${cmdArgs.join(" ")}`);
  const result = spawnSync(cmd, cmdArgs, { stdio: "inherit", env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!unitOnly) {
  run("npx", ["tsc", "--noEmit", "-p", "tsconfig.json"]);
  run("npx", ["eslint", "."]);
}
const files = findTests("test").filter((f) => !(unitOnly && f.includes(`${join("test", "e2e")}`)));
run(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=1", ...files]);
