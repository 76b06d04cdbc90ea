// `npm start`: runs the sandbox (https://localhost:4010) and the add-in dev server
// (https://localhost:3000) together, prints what to open, and stops both on Ctrl-C.
// Arguments after `npm start --` go to the sandbox (e.g. `npm start -- --reset`).
import { spawn, type ChildProcess } from "node:child_process";
import { get } from "node:https";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { connect } from "node:net";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { loadDevCertificates, tryInstallTrustedCertificates, untrustedCertificateHint } from "./certs.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ADDIN_URL = "https://localhost:3000";
const TASKPANE_URL = `${ADDIN_URL}/taskpane.html`;
const DEV_SERVER_PORT = 3000;
const DEV_SERVER_READY_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 5_000;
/** How long the summary waits for the sandbox after the pages are up (first seeding takes a while). */
const SANDBOX_SUMMARY_WAIT_MS = 60_000;

interface Part {
  label: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

function startPart(label: string, args: string[], onLine: (line: string) => void = () => undefined): Part {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: process.env });
  const prefix = `[${label}] `;
  createInterface({ input: child.stdout! }).on("line", (line) => {
    console.log(prefix + line);
    onLine(line);
  });
  createInterface({ input: child.stderr! }).on("line", (line) => console.error(prefix + line));
  const exited = new Promise<number | null>((done) => {
    child.on("error", (error) => {
      console.error(`${prefix}could not start: ${error.message}`);
      done(1);
    });
    child.on("exit", (code, signal) => done(signal ? null : code));
  });
  return { label, child, exited };
}

/** Resolves true once the dev server answers the task pane page, false if it exits first or times out. */
async function waitForDevServer(devServer: Part, ca: string | undefined): Promise<boolean> {
  let exited = false;
  void devServer.exited.then(() => {
    exited = true;
  });
  const deadline = Date.now() + DEV_SERVER_READY_TIMEOUT_MS;
  while (!exited && Date.now() < deadline) {
    if (await answers(TASKPANE_URL, ca)) return true;
    await new Promise((wake) => setTimeout(wake, 500));
  }
  return false;
}

/** True when something already listens on the port (another dev server would answer for ours). */
function portInUse(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: "localhost", port });
    socket.once("connect", () => {
      socket.destroy();
      done(true);
    });
    // Refused: the port is free.
    socket.once("error", () => done(false));
  });
}

function answers(url: string, ca: string | undefined): Promise<boolean> {
  return new Promise((done) => {
    const request = get(url, { ca, timeout: 2_000 }, (response) => {
      response.resume();
      done(response.statusCode === 200);
    });
    request.on("timeout", () => request.destroy());
    // Not up yet (connection refused, still compiling): the caller tries again.
    request.on("error", () => done(false));
  });
}

type SandboxState = { url: string } | { problem: string };

function howToOpen(sandbox: SandboxState, trusted: boolean): string {
  const manifest = join(root, "manifest.xml");
  const lines = [
    "",
    "================================================================================",
    "BizData add-in is running.",
    "",
    `  Task pane in a browser (browser mode, no Excel needed): ${TASKPANE_URL}`,
    "url" in sandbox
      ? `  Sandbox service: ${sandbox.url}`
      : `  Sandbox service: ${sandbox.problem}. The pages still load; searches fail until it runs (npm run sandbox).`,
    "",
    `Sideload ${manifest} into Excel (the dev server must keep running):`,
    "  Excel on Windows: register the manifest for your user, then restart Excel:",
    `      reg add HKCU\\Software\\Microsoft\\Office\\16.0\\WEF\\Developer /v BizData /t REG_SZ /d "${manifest}" /f`,
    "    The BizData group appears on the Home tab (remove it with: reg delete ... /v BizData /f).",
    "    Or: share the folder holding manifest.xml, add its \\\\computer\\share path under File > Options >",
    "    Trust Center > Trust Center Settings > Trusted Add-in Catalogs (Show in Menu), restart Excel,",
    "    then Home > Add-ins > More Add-ins > Shared Folder > BizData.",
    "  Excel on Mac: copy manifest.xml into ~/Library/Containers/com.microsoft.Excel/Data/Documents/wef/",
    "    (create the folder if needed), restart Excel, then Home > Add-ins > BizData (under Developer Add-ins).",
    "  Excel on the web: open a workbook, Home > Add-ins > More Add-ins (or Advanced) > Upload My Add-in,",
    "    and choose manifest.xml. The browser must trust https://localhost:3000 first (open it once).",
    "",
    "  Custom functions: type =BIZ. in a cell. Stop everything with Ctrl-C.",
    "================================================================================",
    "",
  ];
  if (!trusted) lines.splice(lines.length - 2, 0, "", untrustedCertificateHint());
  return lines.join("\n");
}

async function stopAll(parts: Part[]): Promise<void> {
  await Promise.all(
    parts.map(async (part) => {
      if (part.child.exitCode !== null || part.child.signalCode !== null) return;
      part.child.kill("SIGINT");
      const timer = setTimeout(() => part.child.kill("SIGKILL"), STOP_GRACE_MS);
      await part.exited;
      clearTimeout(timer);
    }),
  );
}

async function main(): Promise<number> {
  const sandboxArgs = process.argv.slice(2);
  let stopping = false;
  if (await portInUse(DEV_SERVER_PORT)) {
    console.error(`Port ${DEV_SERVER_PORT} is already in use: stop the other dev server first (the manifest expects the add-in on ${ADDIN_URL}).`);
    return 1;
  }

  // Install the trusted certificates when a person can answer the prompt; either way the
  // certificates exist before both servers start, so they share one certificate authority.
  if (process.stdin.isTTY && !process.env.CI) {
    const problem = await tryInstallTrustedCertificates();
    if (problem) console.error(`Could not install the trusted localhost certificates: ${problem}`);
  }
  const certificates = await loadDevCertificates();

  let announceSandbox: (state: SandboxState) => void = () => undefined;
  const sandboxState = new Promise<SandboxState>((done) => {
    announceSandbox = done;
  });
  const sandbox = startPart("sandbox", ["--import", "tsx", "src/sandbox/main.ts", ...sandboxArgs], (line) => {
    const match = /^Sandbox listening on (\S+)/.exec(line);
    if (match?.[1]) announceSandbox({ url: match[1] });
  });
  void sandbox.exited.then((code) => {
    const problem = `not running: it exited with code ${code ?? "(signal)"}, see the [sandbox] lines above`;
    announceSandbox({ problem });
    if (!stopping) console.error(`[sandbox] ${problem}. The add-in dev server keeps running.`);
  });

  const webpackCli = createRequire(import.meta.url).resolve("webpack-cli/bin/cli.js");
  const devServer = startPart("add-in", [webpackCli, "serve", "--mode", "development"]);
  const parts = [sandbox, devServer];

  const stop = () => {
    if (stopping) return;
    stopping = true;
    console.log("\nStopping the sandbox and the dev server...");
    void stopAll(parts).then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);

  if (await waitForDevServer(devServer, certificates.ca)) {
    let timer: NodeJS.Timeout | undefined;
    const stillStarting = new Promise<SandboxState>((done) => {
      timer = setTimeout(() => done({ problem: "still starting (its address follows as \"Sandbox listening on ...\")" }), SANDBOX_SUMMARY_WAIT_MS);
    });
    const state = await Promise.race([sandboxState, stillStarting]);
    clearTimeout(timer);
    if (!stopping) console.log(howToOpen(state, certificates.trusted));
  } else if (!stopping) {
    console.error(`The add-in dev server did not come up on ${ADDIN_URL} (is port 3000 in use?).`);
    stopping = true;
    await stopAll(parts);
    return 1;
  }

  const devServerCode = await devServer.exited;
  if (stopping) return 0;
  console.error(`The add-in dev server stopped (exit code ${devServerCode ?? "signal"}).`);
  stopping = true;
  await stopAll(parts);
  return devServerCode ?? 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
