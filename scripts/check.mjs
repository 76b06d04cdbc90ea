// The project's checks, side by side: the type check (tsc), lint (ESLint, with the layer rules and
// the function-length caps) and the formatting check (Prettier). Each one's output is printed when
// it ends, in this order; the run fails when any check fails. `npm test` runs the tests only;
// CI (.ci/run) runs both.
//
//   node scripts/check.mjs     (npm run check)
import { spawn } from "node:child_process";

const CHECKS = [
  ["tsc", "--noEmit", "-p", "tsconfig.json"],
  ["eslint", "."],
  ["prettier", "--check", "."],
];

/** Runs one check with its output kept; resolves with its exit status and what it printed. */
function run(args) {
  return new Promise((resolve) => {
    const child = spawn("npx", args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (status) => resolve({ status: status ?? 1, output: `> npx ${args.join(" ")}\n${output}` }));
  });
}

const started = Date.now();
let status = 0;
for (const check of await Promise.all(CHECKS.map(run))) {
  console.log(`${check.output.trimEnd()}\n`);
  status ||= check.status;
}
console.log(`# checks ${status === 0 ? "passed" : "FAILED"} in ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(status);
