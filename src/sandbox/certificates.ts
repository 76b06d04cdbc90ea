// HTTPS certificates for localhost. The same places as the dev server's (scripts/certs.ts), so
// both servers share one certificate authority: the Office dev certificates when their CA is
// installed, otherwise untrusted ones generated once under .certs/localhost/ and reused.
// Nothing is installed here and nothing is printed on stdout (the first line is the address).
import { X509Certificate } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import * as devCerts from "office-addin-dev-certs";

export interface TlsFiles {
  key: string;
  cert: string;
  ca?: string;
  /** False when browsers will warn (the generated fallback). */
  trusted: boolean;
}

const TRUSTED_DIR = join(homedir(), ".office-addin-dev-certs");
const FILES = { ca: "ca.crt", cert: "localhost.crt", key: "localhost.key" };
const DAY_MS = 86_400_000;

export function fallbackCertificateDir(root = process.cwd()): string {
  return resolve(root, ".certs", "localhost");
}

function readDir(dir: string): { key: string; cert: string; ca: string } {
  return {
    key: readFileSync(join(dir, FILES.key), "utf8"),
    cert: readFileSync(join(dir, FILES.cert), "utf8"),
    ca: readFileSync(join(dir, FILES.ca), "utf8"),
  };
}

function trustedInstalled(): boolean {
  try {
    return devCerts.verifyCertificates();
  } catch {
    // The platform check failed or is missing: not installed, use the fallback.
    return false;
  }
}

function readValid(dir: string): { key: string; cert: string; ca: string } | undefined {
  if (!Object.values(FILES).every((f) => existsSync(join(dir, f)))) return undefined;
  const files = readDir(dir);
  const validTo = Date.parse(new X509Certificate(files.cert).validTo);
  return Number.isFinite(validTo) && validTo - Date.now() > DAY_MS ? files : undefined;
}

export async function localhostCertificates(root = process.cwd()): Promise<TlsFiles> {
  if (trustedInstalled()) return { ...readDir(TRUSTED_DIR), trusted: true };
  const dir = fallbackCertificateDir(root);
  const existing = readValid(dir);
  if (existing) return { ...existing, trusted: false };
  rmSync(dir, { recursive: true, force: true });
  // Generate in a private folder and rename it into place: when two servers start at once the
  // first one's certificates win for both.
  const staging = `${dir}.${process.pid}.${Date.now()}`;
  mkdirSync(staging, { recursive: true });
  const log = console.log;
  console.log = (...args: unknown[]) => console.error(...args);
  try {
    await devCerts.generateCertificates(join(staging, FILES.ca), join(staging, FILES.cert), join(staging, FILES.key), 365, ["127.0.0.1", "localhost"]);
    try {
      renameSync(staging, dir);
    } catch (error) {
      if (!existsSync(dir)) throw error;
    }
  } finally {
    console.log = log;
    rmSync(staging, { recursive: true, force: true });
  }
  const generated = readValid(dir);
  if (!generated) throw new Error(`Could not create localhost certificates in ${dir}.`);
  return { ...generated, trusted: false };
}
