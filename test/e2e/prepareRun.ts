// Started by scripts/test.mjs before the tests: builds the add-in pages once and, unless told
// not to (--no-browser), starts Chromium once as a browser server. Prints one line of JSON,
// {"pages": folder, "chromiumWs": endpoint or null}, then keeps the browser running until its
// standard input closes (the run is over).
import { chromiumAvailable, launchChromiumServer } from "./browser.js";
import { buildTaskPane } from "../helpers/pages.js";

const wantBrowser = !process.argv.includes("--no-browser") && chromiumAvailable();
const [pages, server] = await Promise.all([buildTaskPane(), wantBrowser ? launchChromiumServer() : undefined]);
process.stdout.write(`${JSON.stringify({ pages, chromiumWs: server?.wsEndpoint() ?? null })}\n`);
process.stdin.resume();
process.stdin.on("end", () => {
  void (server?.close() ?? Promise.resolve()).then(() => process.exit(0));
});
