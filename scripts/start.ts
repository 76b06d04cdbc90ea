// `npm start`: runs the sandbox (https://localhost:4010) and the add-in dev server
// (https://localhost:3000) together, prints what to open, and stops both on Ctrl-C.
// Arguments after `npm start --` go to the sandbox (e.g. `npm start -- --reset`), except
// `--broker-port N`. The sandbox's port is its own `--port N` (or SANDBOX_PORT), the broker's
// `--broker-port N` (or BROKER_PORT); the dev server is given both addresses, so the task pane's
// Sandbox presets name what runs. The add-in itself stays on port 3000: the manifest names it.
// `npm start -- --profile production` runs a real deployment's topology on this machine: the
// sandbox's production profile, the token broker (https://localhost:4020) in front of its token
// endpoint, and the add-in built with both addresses.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
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

function startPart(label: string, args: string[], onLine: (line: string) => void = () => undefined, env: NodeJS.ProcessEnv = process.env): Part {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], env });
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

export type SandboxState = { url: string } | { problem: string };

const DEFAULT_PORTS = { sandbox: 4010, broker: 4020 };

/** Where the sandbox and the broker listen, and the sandbox's own arguments. */
export interface Topology {
  sandboxPort: number;
  brokerPort: number;
  sandboxUrl: string;
  brokerUrl: string;
  sandboxArgs: string[];
}

/** A fixed port (the pane's preset names it, so 0, "pick a free one", is refused). */
function portNumber(text: string | undefined, what: string): number | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`${what} must be a port number from 1 to 65535, not "${text}".`);
  return port;
}

/** The arguments without `--name value` / `--name=value`. */
function withoutOption(args: string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === `--${name}`) i++;
    else if (!args[i]!.startsWith(`--${name}=`)) out.push(args[i]!);
  }
  return out;
}

/** The ports from the flags, then the environment (SANDBOX_PORT, BROKER_PORT), then 4010 and 4020. */
export function topologyFrom(args: string[], env: NodeJS.ProcessEnv): Topology {
  const flagged = portNumber(optionValue(args, "port"), "--port");
  const sandboxPort = flagged ?? portNumber(env.SANDBOX_PORT, "SANDBOX_PORT") ?? DEFAULT_PORTS.sandbox;
  const brokerPort = portNumber(optionValue(args, "broker-port"), "--broker-port") ?? portNumber(env.BROKER_PORT, "BROKER_PORT") ?? DEFAULT_PORTS.broker;
  const sandboxArgs = withoutOption(args, "broker-port");
  if (flagged === undefined) sandboxArgs.push("--port", String(sandboxPort));
  const scheme = args.includes("--http") ? "http" : "https";
  return { sandboxPort, brokerPort, sandboxUrl: `${scheme}://localhost:${sandboxPort}`, brokerUrl: `https://localhost:${brokerPort}`, sandboxArgs };
}
/** The production profile's default client (src/sandbox/production/oidc.ts, README). */
const PRODUCTION_CLIENT = { clientId: "bizdata-excel-addin", clientSecret: "sandbox-client-secret" };

/** The value of `--name value` or `--name=value` in the arguments. */
function optionValue(args: string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === `--${name}`) return args[i + 1];
    if (args[i]?.startsWith(`--${name}=`)) return args[i]!.slice(name.length + 3);
  }
  return undefined;
}

/**
 * What the dev server builds the add-in with: the sandbox's and broker's addresses and profile
 * (the pane's Sandbox presets name them, and a fresh pane preselects the profile's preset) and,
 * for the production profile, the deployment addresses a production build would be given.
 */
export function addinBuildEnvironment(
  topology: Pick<Topology, "sandboxUrl" | "brokerUrl">,
  productionProfile: boolean,
  clientId: string,
): Record<string, string> {
  return {
    SANDBOX_URL: topology.sandboxUrl,
    SANDBOX_BROKER_URL: topology.brokerUrl,
    SANDBOX_PROFILE: productionProfile ? "production" : "",
    ...(productionProfile ? productionAddresses(topology.sandboxUrl, topology.brokerUrl, clientId) : {}),
  };
}

/** The addresses a production-profile topology gives the add-in's build (README "Run in production"). */
function productionAddresses(sandboxUrl: string, brokerUrl: string, clientId: string): Record<string, string> {
  return {
    SERVICE_API_URL: `${sandboxUrl}/gtm`,
    SERVICE_SIGNIN_URL: `${sandboxUrl}/gtm/oauth/v1/authorize`,
    BROKER_URL: brokerUrl,
    SERVICE_CLIENT_ID: clientId,
  };
}

interface BrokerFiles {
  dir: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/** The broker's command line: its secret, TLS files and CA go through files only it reads, removed on exit. */
function brokerSetup(
  certificates: { key: string; cert: string; ca?: string },
  client: { clientId: string; clientSecret: string },
  topology: Topology,
): BrokerFiles {
  const dir = mkdtempSync(join(tmpdir(), "bizdata-broker-"));
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content, { mode: 0o600 });
    return path;
  };
  const args = [
    "--import",
    "tsx",
    "src/broker/main.ts",
    "--port",
    String(topology.brokerPort),
    "--upstream",
    `${topology.sandboxUrl}/gtm/oauth/v1/token`,
    "--client-id",
    client.clientId,
    "--client-secret-file",
    file("client-secret", client.clientSecret),
    "--allow-origin",
    ADDIN_URL,
    "--tls-key",
    file("localhost.key", certificates.key),
    "--tls-cert",
    file("localhost.crt", certificates.cert),
  ];
  // The broker calls the sandbox over HTTPS with the localhost certificate authority.
  const env = certificates.ca ? { ...process.env, NODE_EXTRA_CA_CERTS: file("ca.crt", certificates.ca) } : process.env;
  return { dir, args, env };
}

/**
 * The banner `npm start` prints once the pages are up: where the task pane is, the sandbox (the
 * address it said it listens on, else the one it was started with) and, for the production
 * profile, its addresses and the broker's; the origins to accept when the certificates are not trusted.
 */
export function startBanner(sandbox: SandboxState, trusted: boolean, topology: Pick<Topology, "sandboxUrl" | "brokerUrl">, productionProfile: boolean): string {
  const sandboxUrl = "url" in sandbox ? sandbox.url.replace(/\/+$/, "") : topology.sandboxUrl;
  const broker = productionProfile ? topology.brokerUrl : undefined;
  const manifest = join(root, "manifest.xml");
  const lines = [
    "",
    "================================================================================",
    "BizData add-in is running.",
    "",
    `  Task pane in a browser (browser mode, no Excel needed): ${TASKPANE_URL}`,
    "url" in sandbox
      ? `  Sandbox service: ${sandbox.url}`
      : `  Sandbox service (${topology.sandboxUrl}): ${sandbox.problem}. The pages still load; searches fail until it runs (npm run sandbox).`,
    ...(broker
      ? [
          `  Production profile: API ${sandboxUrl}/gtm, sign-in ${sandboxUrl}/gtm/oauth/v1/authorize,`,
          `    token broker ${broker}/token. A fresh pane starts on "Sandbox (production profile)"`,
          "    (Settings switches); users as in README (limited@example.com lacks some output fields).",
        ]
      : []),
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
  const origins = [ADDIN_URL, ...(sandboxUrl.startsWith("https:") ? [sandboxUrl] : []), ...(broker ? [broker] : [])];
  if (!trusted) lines.splice(lines.length - 2, 0, "", untrustedCertificateHint(origins));
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
  const topology = topologyFrom(process.argv.slice(2), process.env);
  const { sandboxArgs } = topology;
  const productionProfile = optionValue(sandboxArgs, "profile") === "production";
  const client = {
    clientId: optionValue(sandboxArgs, "client-id") ?? PRODUCTION_CLIENT.clientId,
    clientSecret: optionValue(sandboxArgs, "client-secret") ?? PRODUCTION_CLIENT.clientSecret,
  };
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

  const parts = [sandbox];
  let brokerUrl: string | undefined;
  let brokerDir: string | undefined;
  if (productionProfile) {
    if (await portInUse(topology.brokerPort)) {
      console.error(`Port ${topology.brokerPort} is already in use: stop the other broker first (or choose another with --broker-port N).`);
      await stopAll(parts);
      return 1;
    }
    const setup = brokerSetup(certificates, client, topology);
    brokerDir = setup.dir;
    brokerUrl = topology.brokerUrl;
    parts.push(startPart("broker", setup.args, () => undefined, setup.env));
  }
  process.once("exit", () => {
    if (brokerDir) rmSync(brokerDir, { recursive: true, force: true });
  });

  const webpackCli = createRequire(import.meta.url).resolve("webpack-cli/bin/cli.js");
  const addinEnv = { ...process.env, ...addinBuildEnvironment(topology, productionProfile, client.clientId) };
  const devServer = startPart("add-in", [webpackCli, "serve", "--mode", "development"], () => undefined, addinEnv);
  parts.push(devServer);

  const stop = () => {
    if (stopping) return;
    stopping = true;
    console.log(`\nStopping the sandbox${brokerUrl ? ", the broker" : ""} and the dev server...`);
    void stopAll(parts).then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);

  if (await waitForDevServer(devServer, certificates.ca)) {
    let timer: NodeJS.Timeout | undefined;
    const stillStarting = new Promise<SandboxState>((done) => {
      timer = setTimeout(() => done({ problem: 'still starting (its address follows as "Sandbox listening on ...")' }), SANDBOX_SUMMARY_WAIT_MS);
    });
    const state = await Promise.race([sandboxState, stillStarting]);
    clearTimeout(timer);
    if (!stopping) console.log(startBanner(state, certificates.trusted, topology, productionProfile));
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

// Run as `npm start`; imported (tests of topologyFrom), it starts nothing.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    },
  );
}
