// Command line: `npm run broker -- [--http] [--port N] --upstream URL --client-id ID
// --client-secret-file FILE --allow-origin URL [--relay URL [--relay-rate N]]`. The first line printed is
// exactly "Broker listening on <url>" (tools wait for it). Every option also reads from the
// environment, so a container needs no arguments and the secret never sits on a command line.
import { readFileSync, statSync } from "node:fs";
import { parseArgs } from "node:util";
import type { buildBroker } from "./app.js";

const HELP = `Usage: npm run broker -- [options]
  --upstream URL            the service's token endpoint (env BROKER_UPSTREAM)
  --client-id ID            the app's client id (env BROKER_CLIENT_ID)
  --client-secret-file F    file holding the app's client secret (env BROKER_CLIENT_SECRET_FILE,
                            or the secret itself in BROKER_CLIENT_SECRET)
  --allow-origin URL        the add-in's origin (repeatable; env BROKER_ALLOW_ORIGINS, comma-separated)
  --redirect-uri URL        a sign-in page the code exchange may name (repeatable; env BROKER_REDIRECT_URIS;
                            default: redirect.html and dialog.html at any path of an allowed origin)
  --relay URL               also relay /data/v1/, /studio/v1/, /copilot/v1/ to this service base (env BROKER_RELAY)
  --relay-rate N            pace each tenant's relayed calls to N requests/s, its package rate
                            (env BROKER_RELAY_RATE; off by default)
  --relay-redis URL         share that pacing between broker instances through Redis
                            (env BROKER_RELAY_REDIS_URL; without it each instance paces alone)
  --relay-tenant-claim C    the access token claim naming the tenant (default account)
  --relay-jwks URL          the service's signing keys (JWKS): verified tokens take their tenant's
                            slots at once; without it a token does once the service accepted it
                            (env BROKER_RELAY_JWKS_URL); needs --relay-issuer and --relay-audience
  --relay-issuer ISS        with --relay-jwks: the iss of the service's access tokens (env BROKER_RELAY_ISSUER)
  --relay-audience AUD      with --relay-jwks: the aud of this app's access tokens (env BROKER_RELAY_AUDIENCE)
  --http                    plain HTTP (behind a TLS-terminating load balancer, or tests)
  --tls-key F --tls-cert F  HTTPS key and certificate (env BROKER_TLS_KEY_FILE, BROKER_TLS_CERT_FILE)
  --port N                  port (default 4020; 0 picks a free one; env PORT)
  --host H                  interface (default localhost; 0.0.0.0 in a container)
  --trust-proxy N|ADDRS     behind load balancers: N proxy hops, or their addresses/CIDR ranges
                            (comma-separated), whose X-Forwarded-For entries are believed, read
                            from the right (env BROKER_TRUST_PROXY; default: none)
  --token-rate N            token requests per minute per client address (default 30)
  --relay-address-rate N    relayed requests per minute per client address (default 3000)
  --allow-readable-secret-file
                            start even if the secret or TLS key file is readable by other users
  --quiet                   no request log`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${HELP}\n`);
  process.exit(2);
}

function readSecretFile(file: string, what: string, allowReadable = false): string {
  try {
    const mode = statSync(file).mode & 0o777;
    if (!allowReadable && process.platform !== "win32" && (mode & 0o077) !== 0) {
      fail(
        `The ${what} file ${file} is readable by other users (mode ${mode.toString(8).padStart(4, "0")}). ` +
          `Make it readable by the broker's user only (chmod 600 ${file}), or pass --allow-readable-secret-file to start anyway.`,
      );
    }
    return readFileSync(file, "utf8").trim();
  } catch (error) {
    fail(`Cannot read the ${what} file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
}

/** A hop count, or proxy addresses; config.ts checks the addresses. */
function trustProxyOption(value: string | undefined): false | number | string[] {
  if (value === undefined || value === "") return false;
  if (/^\d+$/.test(value)) return Number(value);
  const addresses = value
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  if (addresses.some((a) => !/^[0-9A-Fa-f.:]+(\/\d{1,3})?$/.test(a))) {
    fail(`--trust-proxy takes the number of proxy hops in front of the broker, or the proxies' addresses (got "${value}").`);
  }
  return addresses;
}

/** The command line, parsed (or the start stopped with what is wrong). */
function commandLine() {
  try {
    return parseArgs({
      options: {
        upstream: { type: "string" },
        "client-id": { type: "string" },
        "client-secret-file": { type: "string" },
        "allow-origin": { type: "string", multiple: true },
        relay: { type: "string" },
        http: { type: "boolean" },
        "tls-key": { type: "string" },
        "tls-cert": { type: "string" },
        port: { type: "string" },
        host: { type: "string" },
        "trust-proxy": { type: "string" },
        "redirect-uri": { type: "string", multiple: true },
        "relay-rate": { type: "string" },
        "relay-redis": { type: "string" },
        "relay-tenant-claim": { type: "string" },
        "relay-jwks": { type: "string" },
        "relay-issuer": { type: "string" },
        "relay-audience": { type: "string" },
        "allow-readable-secret-file": { type: "boolean" },
        "token-rate": { type: "string" },
        "relay-address-rate": { type: "string" },
        quiet: { type: "boolean" },
        help: { type: "boolean" },
      },
      strict: true,
    }).values;
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
}

type Values = ReturnType<typeof commandLine>;
const listOf = (values: string[] | undefined, envValue: string | undefined) =>
  values?.length
    ? values
    : (envValue ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);

/** A whole number of at least 1, or undefined when not given. */
function countOption(name: string, text: string | undefined, what: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) fail(`--${name} must be ${what} (got "${text}").`);
  return n;
}

/** The relay's central pacing, from --relay-rate and what goes with it. */
function pacingOf(v: Values, env: NodeJS.ProcessEnv) {
  const relayRate = countOption("relay-rate", v["relay-rate"] ?? env.BROKER_RELAY_RATE, "a whole number of requests per second, at least 1");
  const relayRedis = v["relay-redis"] ?? env.BROKER_RELAY_REDIS_URL;
  if (relayRedis && relayRate === undefined) fail("--relay-redis shares the relay's pacing: set --relay-rate too.");
  const relayJwks = v["relay-jwks"] ?? env.BROKER_RELAY_JWKS_URL;
  if (relayJwks && relayRate === undefined) fail("--relay-jwks decides who takes the relay's paced slots: set --relay-rate too.");
  if (relayRate === undefined) return {};
  const issuer = v["relay-issuer"] ?? env.BROKER_RELAY_ISSUER;
  const audience = v["relay-audience"] ?? env.BROKER_RELAY_AUDIENCE;
  return {
    pacing: {
      perSecond: relayRate,
      ...(relayRedis ? { redisUrl: relayRedis } : {}),
      ...(relayJwks ? { jwksUrl: relayJwks } : {}),
      ...(issuer ? { jwksIssuer: issuer } : {}),
      ...(audience ? { jwksAudience: audience } : {}),
      ...(v["relay-tenant-claim"] ? { tenantClaim: v["relay-tenant-claim"] } : {}),
    },
  };
}

/** The broker's configuration from the command line and the environment. */
function configOf(v: Values, env: NodeJS.ProcessEnv) {
  const secretFile = v["client-secret-file"] ?? env.BROKER_CLIENT_SECRET_FILE;
  const allowReadable = v["allow-readable-secret-file"] ?? false;
  const relay = v.relay ?? env.BROKER_RELAY;
  const tokenRate = countOption("token-rate", v["token-rate"], "a whole number of at least 1");
  const relayAddressRate = countOption("relay-address-rate", v["relay-address-rate"], "a whole number of at least 1");
  return {
    upstream: v.upstream ?? env.BROKER_UPSTREAM ?? fail("--upstream is required: the service's token endpoint."),
    clientId: v["client-id"] ?? env.BROKER_CLIENT_ID ?? fail("--client-id is required."),
    clientSecret: secretFile
      ? readSecretFile(secretFile, "client secret", allowReadable)
      : (env.BROKER_CLIENT_SECRET ?? fail("--client-secret-file is required.")),
    allowOrigins: listOf(v["allow-origin"], env.BROKER_ALLOW_ORIGINS),
    ...(relay ? { relay } : {}),
    trustProxy: trustProxyOption(v["trust-proxy"] ?? env.BROKER_TRUST_PROXY),
    redirectUris: listOf(v["redirect-uri"], env.BROKER_REDIRECT_URIS),
    ...pacingOf(v, env),
    rateLimit: {
      ...(tokenRate ? { token: { max: tokenRate, windowMs: 60_000 } } : {}),
      ...(relayAddressRate ? { relay: { max: relayAddressRate, windowMs: 60_000 } } : {}),
    },
  };
}

/** Where it listens: HTTPS with the TLS files (or plain HTTP behind a load balancer), port and host. */
function listeningOf(v: Values, env: NodeJS.ProcessEnv) {
  const http = v.http ?? false;
  const keyFile = v["tls-key"] ?? env.BROKER_TLS_KEY_FILE;
  const certFile = v["tls-cert"] ?? env.BROKER_TLS_CERT_FILE;
  if (!http && (!keyFile || !certFile)) fail("HTTPS needs --tls-key and --tls-cert (or use --http behind a TLS-terminating load balancer).");
  const portText = v.port ?? env.PORT ?? "4020";
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a whole number from 0 to 65535 (got "${portText}").`);
  const allowReadable = v["allow-readable-secret-file"] ?? false;
  const https =
    !http && keyFile && certFile ? { key: readSecretFile(keyFile, "TLS key", allowReadable), cert: readSecretFile(certFile, "TLS certificate") } : undefined;
  return { http, port, host: v.host ?? "localhost", https };
}

type Built = Awaited<ReturnType<typeof buildBroker>>;

/** What the broker says on start: the address first (stdout's first line), then what it does. */
function report(built: Built, listening: { http: boolean; port: number; host: string }): void {
  const { app, config } = built;
  const address = app.server.address();
  const actualPort = typeof address === "object" && address ? address.port : listening.port;
  const host = listening.host;
  const urlHost = host === "0.0.0.0" || host === "::" ? "localhost" : host.includes(":") ? `[${host}]` : host;
  process.stdout.write(`Broker listening on ${listening.http ? "http" : "https"}://${urlHost}:${actualPort}\n`);
  process.stdout.write(
    `  token endpoint: /token -> ${config.upstream}${config.relay ? `; relay: /data/v1/, /studio/v1/, /copilot/v1/ -> ${config.relay}` : ""}\n`,
  );
  process.stdout.write(`  allowed origins: ${config.allowOrigins.join(", ")}\n`);
  if (config.pacing) {
    const trust = config.pacing.jwksUrl ? "tokens verified against the service's keys" : "tokens proven by the service's answers";
    process.stdout.write(
      `  relay pacing: ${config.pacing.perSecond} requests/s per tenant${config.pacing.redisUrl ? ", shared through Redis" : " (this instance alone)"}; ${trust}\n`,
    );
  }
}

async function main(): Promise<void> {
  const v = commandLine();
  if (v.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  const config = configOf(v, process.env);
  const listening = listeningOf(v, process.env);
  let built: Built;
  try {
    // The broker's modules load once the command line is known good: a wrong option is told at once.
    const { buildBroker } = await import("./app.js");
    // The log goes to stderr: stdout's first line is the address.
    built = await buildBroker(config, { log: v.quiet ? false : { stream: process.stderr }, ...(listening.https ? { https: listening.https } : {}) });
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  await built.app.listen({ port: listening.port, host: listening.host });
  report(built, listening);
  const stop = () => {
    built.app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`The broker could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
