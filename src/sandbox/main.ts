// Command line: `npm run sandbox -- [--http] [--port N] ...`. The first line printed is exactly
// "Sandbox listening on <url>" (tools wait for it).
import { parseArgs } from "node:util";
import { manualClock } from "./clock.js";
import type { RunningSandbox, StartOptions } from "./server.js";

const HELP = `Usage: npm run sandbox -- [options]
  --http                 plain HTTP instead of HTTPS
  --port N               port (default 4010; 0 picks a free one)
  --host H               interface (default localhost; loopback only unless --unsafe-host)
  --unsafe-host          allow a --host beyond loopback (dev endpoints mint tokens without sign-in)
  --companies N          companies to seed (default 20000; up to 1000000)
  --contacts N           contacts to seed (default 100000)
  --seed N               seed of the generated data (default 1)
  --reset                delete the saved data and seed again
  --data-dir DIR         where data and keys are kept (default .sandbox/)
  --latency MS           added latency of every API response
  --fail-rate P          share of API requests answered 503 (0..1)
  --reset-rate P         share of API requests whose connection is dropped (0..1)
  --gateway-errors       401/403/429 in the gateway's {"error":{...}} shape
  --fault-seed N         seed of the fault sequence (default 1)
  --rate-per-second N    requests per second per account (default 25)
  --rate-per-hour N      requests per hour per account (default 50000)
  --rate-per-day N       requests per day per account (default 500000)
  --job-rows-per-second N  audience job speed (default 50)
  --manual-clock         time stands still until POST /__sandbox/clock {"advanceMs": N} moves it (tests)
  --page-cache-mb N      memory for cached search pages, in MB (default 64; 0 turns it off)
  --cors-origin URL      allowed browser origin (repeatable; default https://localhost:3000)
  --profile P            "production" adds the production service's behaviour under /gtm (default: the specification)
  --client-id ID         production profile: the confidential client's id (default bizdata-excel-addin)
  --client-secret S      production profile: its secret (default sandbox-client-secret)`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${HELP}\n`);
  process.exit(2);
}

function num(name: string, value: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) fail(`--${name} must be a number from ${min} to ${max} (got "${value}").`);
  return n;
}

const OPTIONS = {
  http: { type: "boolean" },
  port: { type: "string" },
  host: { type: "string" },
  "unsafe-host": { type: "boolean" },
  companies: { type: "string" },
  contacts: { type: "string" },
  seed: { type: "string" },
  reset: { type: "boolean" },
  "data-dir": { type: "string" },
  latency: { type: "string" },
  "fail-rate": { type: "string" },
  "reset-rate": { type: "string" },
  "gateway-errors": { type: "boolean" },
  "fault-seed": { type: "string" },
  "rate-per-second": { type: "string" },
  "rate-per-hour": { type: "string" },
  "rate-per-day": { type: "string" },
  "job-rows-per-second": { type: "string" },
  "manual-clock": { type: "boolean" },
  "page-cache-mb": { type: "string" },
  "cors-origin": { type: "string", multiple: true },
  profile: { type: "string" },
  "client-id": { type: "string" },
  "client-secret": { type: "string" },
  help: { type: "boolean" },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true }>>["values"];

function parseValues(): Values {
  try {
    return parseArgs({ options: OPTIONS, strict: true }).values;
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

function rateLimitOf(v: Values): StartOptions["rateLimit"] {
  return {
    ...(v["rate-per-second"] !== undefined ? { perSecond: num("rate-per-second", v["rate-per-second"], 1) } : {}),
    ...(v["rate-per-hour"] !== undefined ? { perHour: num("rate-per-hour", v["rate-per-hour"], 1) } : {}),
    ...(v["rate-per-day"] !== undefined ? { perDay: num("rate-per-day", v["rate-per-day"], 1) } : {}),
  };
}

function faultsOf(v: Values): StartOptions["faults"] {
  return {
    ...(v.latency !== undefined ? { latencyMs: num("latency", v.latency, 0) } : {}),
    ...(v["fail-rate"] !== undefined ? { failRate: num("fail-rate", v["fail-rate"], 0, 1) } : {}),
    ...(v["reset-rate"] !== undefined ? { resetRate: num("reset-rate", v["reset-rate"], 0, 1) } : {}),
    ...(v["gateway-errors"] ? { gatewayErrors: true } : {}),
    ...(v["fault-seed"] !== undefined ? { seed: num("fault-seed", v["fault-seed"], 0) } : {}),
  };
}

/** The sandbox's options from the command line (exits with the usage on a wrong value). */
function startOptionsOf(v: Values): StartOptions {
  const rateLimit = rateLimitOf(v);
  const faults = faultsOf(v);
  const companies = num("companies", v.companies, 1, 1_000_000);
  const contacts = num("contacts", v.contacts, 0, 5_000_000);
  const seed = num("seed", v.seed, 0);
  const jobRows = num("job-rows-per-second", v["job-rows-per-second"], 1);
  if (v.profile !== undefined && v.profile !== "production" && v.profile !== "default")
    fail(`--profile must be "production" or "default" (got "${v.profile}").`);
  const pageCacheMb = num("page-cache-mb", v["page-cache-mb"], 0, 65_536);
  return {
    port: num("port", v.port, 0, 65535) ?? 4010,
    ...(v.host ? { host: v.host } : {}),
    unsafeHost: v["unsafe-host"] ?? false,
    http: v.http ?? false,
    dataDir: v["data-dir"] ?? ".sandbox",
    reset: v.reset ?? false,
    ...(companies !== undefined ? { companies } : {}),
    ...(contacts !== undefined ? { contacts } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(jobRows !== undefined ? { jobRowsPerSecond: jobRows } : {}),
    ...(pageCacheMb !== undefined ? { pageCacheBytes: Math.round(pageCacheMb * 1024 * 1024) } : {}),
    ...(v["cors-origin"]?.length ? { corsOrigins: v["cors-origin"] } : {}),
    ...(v.profile === "production" ? { profile: "production" as const } : {}),
    ...(v["client-id"] ? { clientId: v["client-id"] } : {}),
    ...(v["client-secret"] ? { clientSecret: v["client-secret"] } : {}),
    rateLimit,
    faults,
    ...(v["manual-clock"] ? { clock: manualClock() } : {}),
  };
}

function printStarted(sandbox: RunningSandbox, started: number): void {
  process.stdout.write(`Sandbox listening on ${sandbox.url}\n`);
  const o = sandbox.ctx.options;
  process.stdout.write(
    `  data: ${o.companies} companies, ${o.contacts} contacts (seed ${o.seed}) in ${o.dataDir}/` +
      (sandbox.seededInMs ? `, seeded in ${(sandbox.seededInMs / 1000).toFixed(1)} s` : ", reused") +
      `; ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n` +
      (sandbox.trustedCertificate === false
        ? `  the HTTPS certificate is self-made: browsers warn once; Node clients: NODE_EXTRA_CA_CERTS=.certs/localhost/ca.crt\n`
        : "") +
      (o.profile === "production"
        ? `  production profile: API ${sandbox.url}/gtm/data/v1, ${sandbox.url}/gtm/studio/v1; OAuth ${sandbox.url}/gtm/oauth/v1/authorize and /token (client ${o.clientId ?? "bizdata-excel-addin"})\n`
        : "") +
      `  dev token: curl -X POST ${sandbox.url}/__sandbox/token -H 'content-type: application/json' -d '{}'\n`,
  );
}

function closeOnSignals(sandbox: RunningSandbox): void {
  const stop = () => {
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`Closing the sandbox failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

async function main(): Promise<void> {
  const v = parseValues();
  if (v.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  const options = startOptionsOf(v);
  const started = Date.now();
  // The server's modules load once the command line is known good: a wrong option is told at once.
  const { startSandbox } = await import("./server.js");
  const sandbox = await startSandbox(options);
  printStarted(sandbox, started);
  closeOnSignals(sandbox);
}

main().catch((error: unknown) => {
  process.stderr.write(`The sandbox could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
