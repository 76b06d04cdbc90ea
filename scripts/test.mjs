// Runs every test suite: every test file under test/ (node:test, TypeScript compiled by esbuild
// into one bundle: scripts/bundleTests.mjs) in one pool, several at a time, while what the tests share is prepared (the add-in pages, built once,
// and headless Chromium, started once: test/e2e/prepareRun.ts); the files that need those wait
// for them. The type check, lint and formatting check are `npm run check` (scripts/check.mjs);
// CI runs both.
// Files share nothing: each starts its own sandbox on port 0, and a browser file its own pages
// server and its own browser context in the run's Chromium. The slow files start first.
// The run is bound by the processor (two cores), and much of a small file's time is loading
// modules (Fastify, Playwright, React), so files run in a few worker processes that take
// them one at a time from one queue (browser files first, once the pages are ready; other files
// meanwhile and after), every file in a describe of its own (named by its path), so its hooks stay
// its own. The workers end together, whatever each file takes. The webpack build files, which
// start builds of their own, and the real-Redis pacing file run alone.
// The run ends with one summary in node's own format ("# tests", "# pass", "# fail", ...), and
// says how many browser tests did not run (Node 20 leaves a skipped describe out of
// "# skipped"). Node 20's --test does not expand ** globs, so the files are listed here.
//
//   node scripts/test.mjs            all tests
//   node scripts/test.mjs --unit     tests without the browser files (test/e2e/)
//   node scripts/test.mjs test/e2e test/build/webpack.test.ts   only these files
//   TEST_CONCURRENCY=4               processes at a time (default: CPU cores, + 1 with browser files)
//   TEST_ISOLATE=1                   every file in a process of its own (as node --test does)
//   TEST_TIMEOUT_MS=60000            a test still running after this fails (default 180000)
//   REQUIRE_BROWSER=1 (or CI=1)      fail when any browser test did not run (.ci/run sets it)
//   TEST_CPU_REPORT=times.jsonl      each file's processor and wall time (ms), and each process's, as JSON lines
//   TEST_CPU_PROF=dir                a V8 CPU profile of each test process into dir (node --cpu-prof)
//   TEST_BUNDLE=0                    the test files from their sources through tsx, not from their
//                                    bundle (scripts/bundleTests.mjs; stack traces then name .ts lines)
import { spawn } from "node:child_process";
import { generateKeyPair } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { createInterface } from "node:readline";
import { bundleTests } from "./bundleTests.mjs";

const args = new Set(process.argv.slice(2));
const unitOnly = args.has("--unit");
/** Paths given on the command line: only the test files under them run. */
const only = [...args].filter((arg) => !arg.startsWith("--")).map((arg) => arg.split("\\").join("/").replace(/\/$/, ""));
const flag = (value) => value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
const requireBrowser = flag(process.env.REQUIRE_BROWSER) || flag(process.env.CI);
/** A test that neither finishes nor fails in this time fails the run instead of hanging it. */
const TEST_TIMEOUT_MS = Number(process.env.TEST_TIMEOUT_MS) || 180_000;
/** The browser files: they drive Chromium. */
const BROWSER = /^test\/e2e\//;
/** Started first, slowest first, so the pool does not end waiting on one long file. */
const SLOW_FIRST = [BROWSER, /^test\/build\//, /\.sandbox\.test\.ts$/, /^test\/sandbox\/(cli|sigkill|audiences)\.test\.ts$/];
/**
 * Files that run alone: the webpack build files (they start builds of their own), and the relay's
 * pacing on a real Redis, whose 250 ms command timeout is real time: another file's synchronous
 * work in the same process (a sandbox seeding) would hold its answers past it.
 */
const WEBPACK_BUILDS = /^test\/build\/(production|webpack)\.test\.ts$/;
const ALONE = [WEBPACK_BUILDS, /^test\/broker\/pacingRedis\.test\.ts$/];
/** Files that use the run's pages (and Chromium): their processes wait until those are ready. */
const NEEDS_PAGES = [BROWSER, WEBPACK_BUILDS];

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...findTests(full));
    else if (/\.test\.tsx?$/.test(name)) out.push(full);
  }
  return out;
}

/** Runs a command with our output; resolves with its exit status. */
function run(cmd, cmdArgs, { env = process.env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, { stdio: "inherit", env });
    child.on("close", (status) => resolve({ status: status ?? 1 }));
  });
}

/**
 * Node for the tests, the build and what they start: a young generation of 64 MB semi-spaces
 * instead of 16. Tests allocate fast and briefly (requests, rows, JSON): with the default size
 * the garbage collector took about a seventh of their processor time, and the larger young
 * generation saves a few percent of the run's (217 against 223 CPU-s for the unit files).
 */
const nodeEnv = { ...process.env, NODE_OPTIONS: [process.env.NODE_OPTIONS, "--max-semi-space-size=64"].filter(Boolean).join(" ") };

/**
 * Writes `count` RSA private keys (JWKs) to `file` for SANDBOX_KEY_POOL (src/sandbox/keys.ts): the
 * run's in-memory sandboxes and the relay tests' key sets take them in turn instead of each making
 * one (about 0.2 s of processor time a key; the unit files alone start over a hundred sandboxes).
 */
async function writeKeyPool(file, count) {
  const generate = promisify(generateKeyPair);
  const pairs = await Promise.all(Array.from({ length: count }, () => generate("rsa", { modulusLength: 2048 })));
  const keys = pairs.map(({ privateKey }) => privateKey.export({ format: "jwk" }));
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return file;
}

/** Builds the pages and starts Chromium (test/e2e/prepareRun.ts); resolves with what it printed and a stop(). */
function prepare(withBrowser) {
  const child = spawn(process.execPath, ["--import", "tsx", "test/e2e/prepareRun.ts", ...(withBrowser ? [] : ["--no-browser"])], {
    stdio: ["pipe", "pipe", "inherit"],
    env: nodeEnv,
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    child.stdin.end();
    await exited;
  };
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", (line) => resolve({ ...JSON.parse(line), stop }));
    child.once("exit", (code) => reject(new Error(`preparing the pages and Chromium failed (exit ${code})`)));
  });
}

/**
 * What node --test runs: each ALONE file (or every file, with TEST_ISOLATE) in a process of its
 * own, and the other files in `concurrency` worker processes that take them one at a time from one
 * queue (queueFiles) until none is left, so the processes end together whatever each file takes.
 * The alone files take one of the places the workers leave, one after the other.
 */
function groupFiles(testFiles, dir) {
  const alone = testFiles.filter((file) => flag(process.env.TEST_ISOLATE) || ALONE.some((pattern) => pattern.test(file)));
  const queued = testFiles.filter((file) => !alone.includes(file));
  const single = alone.map((file, index) => writeAlone(file, dir, `alone-${index + 1}`));
  const workers = queueFiles(queued, dir, Math.min(queued.length, concurrency));
  return [...workers.slice(0, -1), ...single, ...workers.slice(-1)];
}

/**
 * Worker files in `dir` for `files` (in the order they are to start): each worker runs the first
 * file no other worker has taken, in a describe of its own, then the next, until the queue is
 * empty. A worker takes a file by creating its folder in the queue's claims (which only one can),
 * and takes a file that needs the pages only once they are prepared: until then, the next file
 * that does not.
 */
function queueFiles(files, dir, count) {
  if (count === 0) return [];
  const claims = join(dir, "claims");
  mkdirSync(claims);
  const queue = files.map(queueEntry);
  mostFilesInAProcess = Math.max(mostFilesInAProcess, files.length);
  const code = `// A worker of scripts/test.mjs: runs the queue's test files, each in a describe of its own.
${processHeader()}const queue = ${JSON.stringify(queue)};
const claims = ${JSON.stringify(claims)};
function claim(withPages) {
  for (const [index, entry] of queue.entries()) {
    if (entry.pages && !withPages) continue;
    try {
      mkdirSync(\`\${claims}/\${index}\`);
      return entry;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    }
  }
  return undefined;
}
const waitingForPages = () => queue.some((entry, index) => entry.pages && !existsSync(\`\${claims}/\${index}\`));
for (;;) {
  let entry = claim(ready());
  if (!entry && waitingForPages()) {
    await pages().catch(() => {});
    entry = claim(true);
  }
  if (!entry) break;
  await new Promise((resolve) => runFile(entry, resolve));
}
`;
  return Array.from({ length: count }, (_, index) => {
    const path = join(dir, `worker-${index + 1}.test.mjs`);
    writeFileSync(path, code);
    return path;
  });
}

let mostFilesInAProcess = 1;

/** TEST_CPU_REPORT=file: each test file appends a JSON line there (its process time loading and running, ms). */
const cpuReport = process.env.TEST_CPU_REPORT ? resolve(process.env.TEST_CPU_REPORT) : undefined;

/**
 * The code every process file starts with. pages() waits for preparedFile (written once, whole, by
 * this script) and takes the pages' folder and Chromium's endpoint from it, or fails with the reason
 * they could not be prepared. runFile(entry, done) runs a test file in a describe of its own, after
 * the pages when it needs them, and calls done once it ended. With TEST_CPU_REPORT, cpuOf(file)
 * measures one file's tests (hooks included); the process's own line gives its whole time (module
 * loading included).
 */
function processHeader() {
  const measured = cpuReport
    ? `const ms = (u) => Math.round((u.user + u.system) / 1000);
const report = (line) => appendFileSync(${JSON.stringify(cpuReport)}, JSON.stringify({ pid: process.pid, ...line }) + "\\n");
process.once("exit", () => report({ process: import.meta.url.split("/").pop(), cpuMs: ms(process.cpuUsage()), wallMs: Math.round(performance.now()) }));
function cpuOf(file) {
  let t0, w0;
  before(() => { t0 = process.cpuUsage(); w0 = Date.now(); });
  return { loaded: () => after(() => report({ file, cpuMs: ms(process.cpuUsage(t0)), wallMs: Date.now() - w0 })) };
}
`
    : "";
  const load = cpuReport ? "const c = cpuOf(entry.file); await importEntry(entry); c.loaded();" : "await importEntry(entry);";
  return `import { after, before, describe } from "node:test";
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
const preparedFile = ${JSON.stringify(preparedFile ?? null)};
const ready = () => !preparedFile || existsSync(preparedFile);
async function pages() {
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 100));
  if (!preparedFile) return;
  const prepared = JSON.parse(readFileSync(preparedFile, "utf8"));
  if (prepared.error) throw new Error(prepared.error);
  Object.assign(process.env, prepared.env);
}
/** TypeScript through tsx, registered the first time a file that could not be bundled runs. */
let tsx;
async function importEntry(entry) {
  if (entry.tsx && !tsx) tsx = (await import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))})).register();
  await import(entry.url);
}
${measured}function runFile(entry, done) {
  describe(entry.file, { timeout: ${TEST_TIMEOUT_MS} }, async () => {
    after(done);
    try {
      if (entry.pages) await pages();
      ${load}
    } catch (error) {
      done();
      throw error;
    }
  });
}
`;
}

/** A test file in its own entry: one entry of the queue's form. */
function queueEntry(file) {
  const bundled = bundles?.get(file);
  return {
    file,
    url: bundled ?? pathToFileURL(resolve(file)).href,
    tsx: Boolean(bundles) && !bundled,
    pages: Boolean(preparedFile) && NEEDS_PAGES.some((pattern) => pattern.test(file)),
  };
}

/** A process file in `dir` for a test file that runs alone (after the pages if it needs them). */
function writeAlone(file, dir, name) {
  const path = join(dir, `${name}.test.mjs`);
  writeFileSync(
    path,
    `// A test file run alone by scripts/test.mjs, in a describe of its own.\n${processHeader()}runFile(${JSON.stringify(queueEntry(file))}, () => {});\n`,
  );
  return path;
}

const rank = (file) => {
  const at = SLOW_FIRST.findIndex((pattern) => pattern.test(file));
  return at < 0 ? SLOW_FIRST.length : at;
};
const files = findTests("test")
  .map((f) => f.split("\\").join("/"))
  .filter((f) => !(unitOnly && BROWSER.test(f)))
  .filter((f) => only.length === 0 || only.some((path) => f === path || f.startsWith(`${path}/`)))
  // Within a rank, larger files first: a rough guess of the longer ones.
  .map((file) => ({ file, size: statSync(file).size }))
  .sort((a, b) => rank(a.file) - rank(b.file) || b.size - a.size || a.file.localeCompare(b.file))
  .map(({ file }) => file);
if (files.length === 0) {
  console.log(`No test files under ${only.join(", ")}.`);
  process.exit(1);
}
const browserFiles = files.some((f) => BROWSER.test(f));
// One process per core; with browser files, one more, as some of their steps wait in real time (a
// latency the sandbox is told to add, a browser's retry pause). Not more: every process more makes
// every browser file slower, and a slower browser file costs more processor time, not only more
// time (on two cores, 3 processes: 503 CPU-s and 259 s for the whole run; 4: 647 and 326 s).
const concurrency = Math.max(2, Number(process.env.TEST_CONCURRENCY) || availableParallelism() + (browserFiles ? 1 : 0));

const started = Date.now();
const reports = mkdtempSync(join(tmpdir(), "bizdata-test-"));
/** Where the pages' folder and Chromium's endpoint are written once ready (when the run prepares them). */
const preparedFile = browserFiles ? join(reports, "prepared.json") : undefined;
// The pages are built and Chromium started while the tests begin: the processes that need them
// wait for preparedFile, the others run meanwhile on the processor the build leaves free. Without
// browser files only the webpack test needs the pages: it builds them itself (test/helpers/pages.ts).
const preparing = browserFiles ? prepare(true) : undefined;
if (preparing) {
  const write = (content) => {
    writeFileSync(`${preparedFile}.partial`, JSON.stringify(content));
    renameSync(`${preparedFile}.partial`, preparedFile);
  };
  preparing.then(
    ({ pages, chromiumWs }) => write({ env: { BIZDATA_TEST_PAGES: pages, ...(chromiumWs ? { BIZDATA_TEST_CHROMIUM_WS: chromiumWs } : {}) } }),
    (error) => write({ error: error.message }),
  );
}

// Node's usual reporter on our output (spec on a terminal, TAP otherwise), TAP to a file we
// read the counts from, and the tests and suites that did not run to another.
const reporter = process.stdout.isTTY ? "spec" : "tap";
const tapFile = join(reports, "run.tap");
const skipFile = join(reports, "skipped.jsonl");
const COUNTS = ["tests", "suites", "pass", "fail", "cancelled", "skipped", "todo", "duration_ms"];
const totals = Object.fromEntries(COUNTS.map((name) => [name, 0]));

nodeEnv.SANDBOX_KEY_POOL = await writeKeyPool(join(reports, "signing-keys.json"), 12);
/**
 * The test files as JavaScript (scripts/bundleTests.mjs), run without a loader hook, unless
 * TEST_BUNDLE=0: then from their sources through tsx. Inside the repository, so packages resolve.
 */
const bundleRoot = join("node_modules", ".cache", "bizdata-tests");
const bundleDir = join(bundleRoot, `run-${process.pid}`);
if (existsSync(bundleRoot)) {
  // A run that failed keeps its bundle for its stack traces; a day later it goes.
  for (const name of readdirSync(bundleRoot)) {
    const old = join(bundleRoot, name);
    if (Date.now() - statSync(old).mtimeMs > 24 * 3_600_000) rmSync(old, { recursive: true, force: true });
  }
}
/**
 * The entry files of the commands tests start as child processes (test/helpers/commands.ts): built
 * with the test files, and named to the tests in BIZDATA_TEST_COMMANDS.
 */
const COMMAND_ENTRIES = ["src/sandbox/main.ts", "src/broker/main.ts"];
/** A file esbuild cannot compile (a missing export, a syntax error) fails there, under tsx, not the whole run. */
async function bundleOrSources() {
  if (process.env.TEST_BUNDLE !== undefined && !flag(process.env.TEST_BUNDLE)) return undefined;
  try {
    const bundled = await bundleTests([...files, ...COMMAND_ENTRIES], bundleDir);
    const commands = COMMAND_ENTRIES.filter((entry) => bundled.has(entry)).map((entry) => [entry, fileURLToPath(bundled.get(entry))]);
    nodeEnv.BIZDATA_TEST_COMMANDS = JSON.stringify(Object.fromEntries(commands));
    for (const entry of COMMAND_ENTRIES) bundled.delete(entry);
    return bundled;
  } catch (error) {
    console.log(`# the test files could not be bundled; they run from their sources (through tsx):\n${error.message.replace(/^/gm, "#   ")}`);
    return undefined;
  }
}
const bundles = await bundleOrSources();
// The files that run through tsx go last: a process pays for the loader hook from its first such file on.
const ordered = bundles ? [...files.filter((file) => bundles.has(file)), ...files.filter((file) => !bundles.has(file))] : files;
const entries = groupFiles(ordered, reports);
const aloneCount = entries.filter((entry) => /[\\/]alone-\d+\.test\.mjs$/.test(entry)).length;
console.log(
  `\n> node --test (${files.length} files: ${entries.length - aloneCount} processes take them from one queue, ${aloneCount} run alone; ${concurrency} processes at a time${browserFiles ? "; one Chromium" : ""})`,
);
const result = await run(
  process.execPath,
  [
    ...(bundles ? [] : ["--import", "tsx"]),
    ...(process.env.TEST_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${resolve(process.env.TEST_CPU_PROF)}`] : []),
    "--test",
    `--test-concurrency=${concurrency}`,
    // Every file runs in a group's describe that holds it to TEST_TIMEOUT_MS; the group's process
    // as a whole may take that long for each of its files.
    `--test-timeout=${TEST_TIMEOUT_MS * mostFilesInAProcess}`,
    `--test-reporter=${reporter}`,
    "--test-reporter-destination=stdout",
    "--test-reporter=tap",
    `--test-reporter-destination=${tapFile}`,
    "--test-reporter=./scripts/skipReporter.mjs",
    `--test-reporter-destination=${skipFile}`,
    ...entries,
  ],
  { env: nodeEnv },
);
await (await preparing?.catch(() => undefined))?.stop();
let status = result.status;

// The closing summary is the last of each count at the start of a line.
const tap = readFileSync(tapFile, "utf8");
for (const count of COUNTS) {
  const last = [...tap.matchAll(new RegExp(`^# ${count} (\\d+(?:\\.\\d+)?)$`, "gm"))].at(-1);
  if (last) totals[count] = Number(last[1]);
  else if (count !== "duration_ms") status ||= 1; // no summary: the runner itself failed
}
const skipped = existsSync(skipFile)
  ? readFileSync(skipFile, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  : [];
rmSync(reports, { recursive: true, force: true });
if (totals.fail > 0 || totals.cancelled > 0) status ||= 1;
// Stack traces of a failed run name lines of the bundle: it stays for reading them.
if (status === 0 || !bundles) rmSync(bundleDir, { recursive: true, force: true });

// Tests inside a skipped describe are never registered: such a suite counts as one skipped test.
const skippedSuites = skipped.filter((s) => s.type === "suite");
totals.tests += skippedSuites.length;
totals.skipped += skippedSuites.length;
/** A test's file as given to the run, also when it ran from its bundle. */
const sourceOf = (file) => {
  const path = relative(process.cwd(), file.startsWith("file:") ? fileURLToPath(file) : file)
    .split("\\")
    .join("/");
  return path.startsWith(`${bundleDir}/`) ? path.slice(bundleDir.length + 1).replace(/\.mjs$/, ".ts") : path;
};
const browserSkips = skipped.filter((s) => s.file && BROWSER.test(sourceOf(s.file)));
totals.duration_ms = Date.now() - started;

console.log("\n# all test files");
for (const count of COUNTS) console.log(`# ${count} ${totals[count]}`);
if (unitOnly) console.log("# browser files left out (--unit)");
if (skipped.length > 0) {
  console.log(`# did not run: ${skipped.length} (${skippedSuites.length} whole suites, each counted once above)`);
  for (const s of skipped) console.log(`#   ${s.type} "${s.name}" in ${s.file ? sourceOf(s.file) : "?"}: ${s.reason || "skipped"}`);
}
if (browserSkips.length > 0) {
  const inFiles = new Set(browserSkips.map((s) => s.file)).size;
  const suites = browserSkips.filter((s) => s.type === "suite").length;
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  console.log(
    `\n# !!! BROWSER TESTS DID NOT RUN: ${plural(suites, "whole suite")} and ${plural(browserSkips.length - suites, "test")} in ${plural(inFiles, "file")}. This run did not test the pages in a browser.`,
  );
  if (requireBrowser) {
    console.log("# REQUIRE_BROWSER/CI is set: the run fails. Install Chromium (/usr/bin/chromium; .ci/run does).");
    status ||= 1;
  }
}
if (status !== 0 && bundles)
  console.log(`# the test files ran from their bundle in ${bundleDir} (stack traces name its lines; TEST_BUNDLE=0 runs the sources)`);
process.exit(status);
