// How tests start the project's commands (`npm run sandbox`, `npm run broker`) as child
// processes. scripts/test.mjs compiles their entry files with the test files (one esbuild build:
// scripts/bundleTests.mjs) and names the results in BIZDATA_TEST_COMMANDS; a child then starts
// from that JavaScript, without tsx's loader hook (a sandbox started in 2.1 instead of 3.9
// processor seconds). A file run on its own, or TEST_BUNDLE=0, starts them from their sources
// through tsx, as npm does; so does a test that checks the npm command itself (tsxArgs).

const COMMANDS_ENV = "BIZDATA_TEST_COMMANDS";

/** Entry files of the commands (scripts/test.mjs's COMMAND_ENTRIES, the keys of BIZDATA_TEST_COMMANDS). */
type Entry = "src/sandbox/main.ts" | "src/broker/main.ts";

/** Node's arguments for `entry` as `npm run` starts it: through tsx. */
export function tsxArgs(entry: Entry): string[] {
  return ["--import", "tsx", entry];
}

/** Node's arguments that start `entry`: its bundle when the run made one, otherwise its source through tsx. */
export function commandArgs(entry: Entry): string[] {
  const bundled = (JSON.parse(process.env[COMMANDS_ENV] || "{}") as Partial<Record<Entry, string>>)[entry];
  return bundled ? [bundled] : tsxArgs(entry);
}
