// Command line: `npm run broker -- [--http] [--port N] --upstream URL --client-id ID
// --client-secret-file FILE --allow-origin URL [--relay URL]`. The first line printed is
// exactly "Broker listening on <url>" (tools wait for it). Every option also reads from the
// environment, so a container needs no arguments and the secret never sits on a command line.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { buildBroker } from "./app.js";

const HELP = `Usage: npm run broker -- [options]
  --upstream URL            the service's token endpoint (env BROKER_UPSTREAM)
  --client-id ID            the app's client id (env BROKER_CLIENT_ID)
  --client-secret-file F    file holding the app's client secret (env BROKER_CLIENT_SECRET_FILE,
                            or the secret itself in BROKER_CLIENT_SECRET)
  --allow-origin URL        the add-in's origin (repeatable; env BROKER_ALLOW_ORIGINS, comma-separated)
  --relay URL               also relay /data/v1/ and /studio/v1/ to this service base (env BROKER_RELAY)
  --http                    plain HTTP (behind a TLS-terminating load balancer, or tests)
  --tls-key F --tls-cert F  HTTPS key and certificate (env BROKER_TLS_KEY_FILE, BROKER_TLS_CERT_FILE)
  --port N                  port (default 4020; 0 picks a free one; env PORT)
  --host H                  interface (default localhost; 0.0.0.0 in a container)
  --trust-proxy             take the client address from X-Forwarded-For (behind a load balancer)
  --token-rate N            token requests per minute per client address (default 30)
  --quiet                   no request log`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${HELP}\n`);
  process.exit(2);
}

function readSecretFile(file: string, what: string): string {
  try {
    return readFileSync(file, "utf8").trim();
  } catch (error) {
    fail(`Cannot read the ${what} file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
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
        "trust-proxy": { type: "boolean" },
        "token-rate": { type: "string" },
        quiet: { type: "boolean" },
        help: { type: "boolean" },
      },
      strict: true,
    });
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const v = parsed.values;
  const env = process.env;
  if (v.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  const upstream = v.upstream ?? env.BROKER_UPSTREAM ?? fail("--upstream is required: the service's token endpoint.");
  const clientId = v["client-id"] ?? env.BROKER_CLIENT_ID ?? fail("--client-id is required.");
  const secretFile = v["client-secret-file"] ?? env.BROKER_CLIENT_SECRET_FILE;
  const clientSecret = secretFile ? readSecretFile(secretFile, "client secret") : (env.BROKER_CLIENT_SECRET ?? fail("--client-secret-file is required."));
  const allowOrigins = v["allow-origin"]?.length ? v["allow-origin"] : (env.BROKER_ALLOW_ORIGINS ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const relay = v.relay ?? env.BROKER_RELAY;
  const http = v.http ?? false;
  const keyFile = v["tls-key"] ?? env.BROKER_TLS_KEY_FILE;
  const certFile = v["tls-cert"] ?? env.BROKER_TLS_CERT_FILE;
  if (!http && (!keyFile || !certFile)) fail("HTTPS needs --tls-key and --tls-cert (or use --http behind a TLS-terminating load balancer).");
  const portText = v.port ?? env.PORT ?? "4020";
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a whole number from 0 to 65535 (got "${portText}").`);
  const tokenRate = v["token-rate"] !== undefined ? Number(v["token-rate"]) : undefined;
  if (tokenRate !== undefined && (!Number.isInteger(tokenRate) || tokenRate < 1)) fail(`--token-rate must be a whole number of at least 1 (got "${v["token-rate"]}").`);
  const host = v.host ?? "localhost";

  let built;
  try {
    built = await buildBroker(
      {
        upstream,
        clientId,
        clientSecret,
        allowOrigins,
        ...(relay ? { relay } : {}),
        trustProxy: v["trust-proxy"] ?? false,
        ...(tokenRate ? { rateLimit: { token: { max: tokenRate, windowMs: 60_000 } } } : {}),
      },
      {
        // The log goes to stderr: stdout's first line is the address.
        log: v.quiet ? false : { stream: process.stderr },
        ...(!http && keyFile && certFile ? { https: { key: readSecretFile(keyFile, "TLS key"), cert: readSecretFile(certFile, "TLS certificate") } } : {}),
      },
    );
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const { app, config } = built;
  await app.listen({ port, host });
  const address = app.server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  const urlHost = host === "0.0.0.0" || host === "::" ? "localhost" : host.includes(":") ? `[${host}]` : host;
  process.stdout.write(`Broker listening on ${http ? "http" : "https"}://${urlHost}:${actualPort}\n`);
  process.stdout.write(`  token endpoint: /token -> ${config.upstream}${config.relay ? `; relay: /data/v1/, /studio/v1/ -> ${config.relay}` : ""}\n`);
  process.stdout.write(`  allowed origins: ${config.allowOrigins.join(", ")}\n`);
  const stop = () => {
    app.close().then(
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
