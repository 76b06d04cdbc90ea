// HTTPS certificates for localhost: the Office dev certificates when their CA is installed,
// otherwise self-made ones kept under .certs/ (browsers will not trust those without a prompt).
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { generateCertificates, getHttpsServerOptions } from "office-addin-dev-certs";

export interface TlsFiles {
  key: Buffer;
  cert: Buffer;
  ca?: Buffer;
  /** Where they came from, for the start-up message. */
  source: "office-dev-certs" | "generated";
}

export const CERTS_DIR = ".certs";
const FILES = { ca: "ca.crt", cert: "localhost.crt", key: "localhost.key" };
const DEV_CERTS_TIMEOUT_MS = 20_000;

export async function localhostCertificates(root = process.cwd()): Promise<TlsFiles> {
  const dir = join(root, CERTS_DIR);
  const paths = { ca: join(dir, FILES.ca), cert: join(dir, FILES.cert), key: join(dir, FILES.key) };
  const readGenerated = (): TlsFiles => ({
    key: readFileSync(paths.key),
    cert: readFileSync(paths.cert),
    ca: readFileSync(paths.ca),
    source: "generated",
  });
  // Certificates made on an earlier start: reuse them (fast start-up).
  if (existsSync(paths.key) && existsSync(paths.cert) && existsSync(paths.ca)) return readGenerated();
  try {
    const options = await withTimeout(getHttpsServerOptions(), DEV_CERTS_TIMEOUT_MS);
    return { key: options.key, cert: options.cert, ca: options.ca, source: "office-dev-certs" };
  } catch (error) {
    // The CA could not be installed (no sudo, no keychain): make our own for this machine.
    process.stderr.write(`Dev certificates unavailable (${error instanceof Error ? error.message : String(error)}); generating untrusted ones in ${CERTS_DIR}/.\n`);
    mkdirSync(dir, { recursive: true });
    await generateCertificates(paths.ca, paths.cert, paths.key, 365, ["localhost", "127.0.0.1"]);
    return readGenerated();
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
