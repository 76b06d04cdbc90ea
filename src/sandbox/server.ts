// Starts the sandbox app on a port: HTTPS with localhost certificates, or plain HTTP.
import { createServer } from "node:net";
import type { FastifyInstance } from "fastify";
import { buildApp, defaultSandboxOptions, type SandboxOptionsInput } from "./app.js";
import { loadDevCertificates } from "./certificates.js";
import { isLoopbackHost } from "./devGuard.js";
import type { Clock, SandboxContext } from "./context.js";

export type StartOptions = SandboxOptionsInput & {
  /** Port to listen on; 0 picks a free one (default 4010). */
  port?: number;
  /** Interface to listen on (default localhost). Beyond loopback only with unsafeHost. */
  host?: string;
  /**
   * Listen on a non-loopback interface: the development endpoints mint tokens without sign-in,
   * so anyone who can reach the port can use them.
   */
  unsafeHost?: boolean;
  /** Plain HTTP instead of HTTPS. */
  http?: boolean;
  /** Certificates to use for HTTPS (default: the shared localhost certificates). */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /** Time source (default: the system clock). */
  clock?: Clock;
};

export interface RunningSandbox {
  url: string;
  ctx: SandboxContext;
  app: FastifyInstance;
  /** Milliseconds spent seeding on this start (0 when the data in dataDir was reused). */
  seededInMs: number;
  /** False when HTTPS uses untrusted, generated certificates (undefined for HTTP). */
  trustedCertificate?: boolean;
  close(): Promise<void>;
}

/** A free TCP port, so publicUrl (the dev token issuer) is known before the app is built. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once("error", reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export async function startSandbox(start: StartOptions = {}): Promise<RunningSandbox> {
  const { port: requestedPort = 4010, host = "localhost", http = false, tls: givenTls, clock, unsafeHost = false, ...partial } = start;
  if (!unsafeHost && !isLoopbackHost(host)) {
    throw new Error(
      `Refusing to listen on ${host}: the sandbox's development endpoints mint tokens without sign-in. Use a loopback host (localhost, 127.0.0.1, ::1), or pass --unsafe-host if everyone who can reach ${host} may use them.`,
    );
  }
  const port = requestedPort === 0 ? await freePort(host) : requestedPort;
  const scheme = http ? "http" : "https";
  const urlHost = host === "0.0.0.0" || host === "::" ? "localhost" : host.includes(":") ? `[${host}]` : host;
  const url = `${scheme}://${urlHost}:${port}`;
  const options = defaultSandboxOptions({ ...partial, publicUrl: partial.publicUrl ?? url });
  const tls = http ? undefined : (givenTls ?? (await loadDevCertificates()));
  const { app, ctx, seededInMs } = await buildApp(options, { ...(tls ? { https: { key: tls.key, cert: tls.cert } } : {}), ...(clock ? { clock } : {}) });
  try {
    await app.listen({ port, host });
  } catch (error) {
    await app.close();
    throw error;
  }
  const trustedCertificate = tls && "trusted" in tls ? Boolean(tls.trusted) : tls ? true : undefined;
  return { url, ctx, app, seededInMs, trustedCertificate, close: () => app.close() };
}
