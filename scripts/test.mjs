// Runs every test suite: type check and lint (side by side), then node:test over
// test/**/*.test.ts(x) in two groups:
// - unit and integration files, which share nothing (each starts its own in-memory sandbox on
//   port 0), run several at a time: most of a file's time is start-up (tsx, imports), so
//   overlapping files saves the most;
// - files that build the pages with webpack, drive Chromium or spawn sandbox processes run one
//   at a time after them (they share the page build and are heavy on the CPU).
// The run ends with one summary in node's own format ("# tests", "# pass", "# fail", ...) over
// both groups, so the last lines tell the whole result. Node 20's --test does not expand **
// globs, so the files are listed here.
//
//   node scripts/test.mjs            type check, lint, all tests
//   node scripts/test.mjs --unit     tests without the end-to-end files
//   TEST_CONCURRENCY=4 node scripts/test.mjs
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";

const args = new Set(process.argv.slice(2));
const unitOnly = args.has("--unit");
const concurrency = Math.max(2, Number(process.env.TEST_CONCURRENCY) || availableParallelism());

/** Files run one at a time: they build with webpack, start Chromium or spawn processes. */
const SERIAL = [/^test\/e2e\//, /^test\/build\/webpack\.test\.ts$/, /^test\/sandbox\/cli\.test\.ts$/];

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...findTests(full));
    else if (/\.test\.tsx?$/.test(name)) out.push(full);
  }
  return out;
}

/** Runs a command; resolves with its exit status. Output goes to ours, or is kept to print later. */
function run(cmd, cmdArgs, { buffer = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, { stdio: buffer ? ["ignore", "pipe", "pipe"] : "inherit", env: process.env });
    let output = "";
    if (buffer) {
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (output += chunk));
    }
    child.on("close", (status) => resolve({ status: status ?? 1, output: `> ${cmd} ${cmdArgs.join(" ")}\n${output}` }));
  });
}

if (!unitOnly) {
  const checks = await Promise.all([
    run("npx", ["tsc", "--noEmit", "-p", "tsconfig.json"], { buffer: true }),
    run("npx", ["eslint", "."], { buffer: true }),
  ]);
  for (const check of checks) console.log(`\n${check.output.trimEnd()}`);
  const failed = checks.find((check) => check.status !== 0);
  if (failed) process.exit(failed.status);
}

const files = findTests("test")
  .map((f) => f.split("\\").join("/"))
  .filter((f) => !(unitOnly && f.startsWith("test/e2e/")));
const serial = files.filter((f) => SERIAL.some((pattern) => pattern.test(f)));
const concurrent = files.filter((f) => !serial.includes(f));

// Node's usual reporter on our output (spec on a terminal, TAP otherwise), and TAP to a file we
// read the counts from.
const reporter = process.stdout.isTTY ? "spec" : "tap";
const reports = mkdtempSync(join(tmpdir(), "bizdata-test-"));
const COUNTS = ["tests", "suites", "pass", "fail", "cancelled", "skipped", "todo", "duration_ms"];
const totals = Object.fromEntries(COUNTS.map((name) => [name, 0]));
const started = Date.now();
let status = 0;

for (const [name, group, groupConcurrency] of [
  ["concurrent", concurrent, concurrency],
  ["serial", serial, 1],
]) {
  if (group.length === 0) continue;
  const report = join(reports, `${name}.tap`);
  console.log(`\n> node --test (${group.length} files, ${groupConcurrency} at a time)`);
  const result = await run(process.execPath, [
    "--import", "tsx", "--test", `--test-concurrency=${groupConcurrency}`,
    `--test-reporter=${reporter}`, "--test-reporter-destination=stdout",
    "--test-reporter=tap", `--test-reporter-destination=${report}`,
    ...group,
  ]);
  if (result.status !== 0) status = result.status;
  // The group's closing summary is the last of each count at the start of a line.
  const tap = readFileSync(report, "utf8");
  for (const count of COUNTS) {
    const matches = [...tap.matchAll(new RegExp(`^# ${count} (\\d+(?:\\.\\d+)?)$`, "gm"))];
    const last = matches.at(-1);
    if (last) totals[count] += Number(last[1]);
    else if (count !== "duration_ms") status ||= 1; // no summary: the runner itself failed
  }
}
rmSync(reports, { recursive: true, force: true });
if (totals.fail > 0 || totals.cancelled > 0) status ||= 1;

totals.duration_ms = Date.now() - started;
console.log("\n# all test files");
for (const count of COUNTS) console.log(`# ${count} ${totals[count]}`);
process.exit(status);
