// Localhost HTTPS certificates for the dev server (https://localhost:3000) and the sandbox
// (https://localhost:4010): one implementation for both, so they always share one certificate
// authority. The trusted office-addin-dev-certs certificates are used when their CA is
// installed; otherwise untrusted certificates are generated once under .certs/ and reused.
// Nothing is printed on stdout (a server's first line is its address).
import { X509Certificate } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as devCerts from "office-addin-dev-certs";

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Where office-addin-dev-certs keeps the trusted certificates (its fixed default). */
const TRUSTED_CERTIFICATE_DIR = join(homedir(), ".office-addin-dev-certs");

/** Where the untrusted fallback certificates live (git-ignored). */
export const FALLBACK_CERTIFICATE_DIR = join(projectRoot, ".certs", "localhost");

const CA_FILE = "ca.crt";
const CERT_FILE = "localhost.crt";
const KEY_FILE = "localhost.key";
const FALLBACK_VALIDITY_DAYS = 365;
const DOMAINS = ["127.0.0.1", "localhost"];
/** Regenerate a fallback certificate this close to its expiry. */
const RENEW_BEFORE_MS = 24 * 60 * 60 * 1000;

/**
 * The certificates a localhost HTTPS server should use. Never prompts and never installs
 * anything, and prints nothing to stdout (servers own their first output line).
 * `trusted` is false when browsers and Office will warn about the certificate; `ca` is the
 * certificate authority to give Node clients (NODE_EXTRA_CA_CERTS) or tests.
 */
export async function loadDevCertificates(): Promise<{ key: string; cert: string; ca?: string; trusted: boolean }> {
  if (trustedCertificatesInstalled()) {
    return { ...readCertificateDir(TRUSTED_CERTIFICATE_DIR), trusted: true };
  }
  return { ...(await fallbackCertificates()), trusted: false };
}

/**
 * Installs the Office development CA (asks for an administrator password or confirmation on
 * Windows, Mac and Linux) so browsers and Excel trust https://localhost. For interactive use
 * only (`npm start`). Returns an explanation when it could not, undefined when it did.
 */
export async function tryInstallTrustedCertificates(): Promise<string | undefined> {
  if (trustedCertificatesInstalled()) return undefined;
  try {
    await withConsoleLogOnStderr(() => devCerts.getHttpsServerOptions());
  } catch (error) {
    return error instanceof Error ? (error.message.split("\n")[0] ?? error.message) : String(error);
  }
  return trustedCertificatesInstalled() ? undefined : "the certificate authority is still not trusted after installing it";
}

/** What to tell a person when the certificates are not trusted; `origins` are the addresses to accept once (what runs). */
export function untrustedCertificateHint(origins: readonly string[] = ["https://localhost:3000", "https://localhost:4010"]): string {
  const ca = join(FALLBACK_CERTIFICATE_DIR, CA_FILE);
  const list = origins.length > 1 ? `${origins.slice(0, -1).join(", ")} and ${origins[origins.length - 1]}` : (origins[0] ?? "");
  return [
    `The localhost certificates are not trusted (the Office development certificate authority is not installed).`,
    `Browsers will warn once per origin: open ${list} and accept the warning,`,
    `or trust ${ca} in your system or browser. Node clients: NODE_EXTRA_CA_CERTS=${ca}.`,
    `To install the trusted certificates instead: npx office-addin-dev-certs install`,
  ].join("\n");
}

function trustedCertificatesInstalled(): boolean {
  try {
    // Checks the files in ~/.office-addin-dev-certs and that their CA is in the system store.
    return devCerts.verifyCertificates();
  } catch {
    // The platform's check script failed or is missing: treat as not installed and fall back.
    return false;
  }
}

function readCertificateDir(dir: string): { key: string; cert: string; ca: string } {
  return {
    key: readFileSync(join(dir, KEY_FILE), "utf8"),
    cert: readFileSync(join(dir, CERT_FILE), "utf8"),
    ca: readFileSync(join(dir, CA_FILE), "utf8"),
  };
}

function stillValid(certPem: string): boolean {
  const validTo = Date.parse(new X509Certificate(certPem).validTo);
  return Number.isFinite(validTo) && validTo - Date.now() > RENEW_BEFORE_MS;
}

async function fallbackCertificates(): Promise<{ key: string; cert: string; ca: string }> {
  const existing = readFallbackIfValid();
  if (existing) return existing;
  if (existsSync(FALLBACK_CERTIFICATE_DIR)) rmSync(FALLBACK_CERTIFICATE_DIR, { recursive: true, force: true });

  // Generate into a private folder, then rename it into place: a rename onto an existing folder
  // fails, so when two servers start at once the first one's certificates win for both.
  const staging = `${FALLBACK_CERTIFICATE_DIR}.${process.pid}.${Date.now()}`;
  mkdirSync(staging, { recursive: true });
  try {
    await withConsoleLogOnStderr(() =>
      devCerts.generateCertificates(join(staging, CA_FILE), join(staging, CERT_FILE), join(staging, KEY_FILE), FALLBACK_VALIDITY_DAYS, DOMAINS),
    );
    try {
      renameSync(staging, FALLBACK_CERTIFICATE_DIR);
    } catch (error) {
      if (!existsSync(FALLBACK_CERTIFICATE_DIR)) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  const generated = readFallbackIfValid();
  if (!generated) throw new Error(`Could not create localhost certificates in ${FALLBACK_CERTIFICATE_DIR}.`);
  return generated;
}

function readFallbackIfValid(): { key: string; cert: string; ca: string } | undefined {
  const complete = [CA_FILE, CERT_FILE, KEY_FILE].every((file) => existsSync(join(FALLBACK_CERTIFICATE_DIR, file)));
  if (!complete) return undefined;
  const files = readCertificateDir(FALLBACK_CERTIFICATE_DIR);
  return stillValid(files.cert) ? files : undefined;
}

/**
 * office-addin-dev-certs reports progress with console.log; servers promise that their first
 * stdout line is their address, so its messages go to stderr while it runs.
 */
async function withConsoleLogOnStderr<T>(work: () => Promise<T>): Promise<T> {
  const log = console.log;
  console.log = (...args: unknown[]) => console.error(...args);
  try {
    return await work();
  } finally {
    console.log = log;
  }
}
