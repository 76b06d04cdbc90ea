// The sandbox's RS256 signing key: generated once, kept in dataDir as a JWK (in memory without one).
// A run that starts many in-memory sandboxes (the test run) may name a file of ready-made private
// keys in SANDBOX_KEY_POOL: they are taken in turn, each time under a kid of its own, instead of
// making a 2048-bit key (a fifth of a second of processor time) for every start.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import type { SigningKeys } from "./context.js";

const KEYS_FILE = "signing-key.json";
export const KEY_POOL_ENV = "SANDBOX_KEY_POOL";

export async function loadSigningKeys(dataDir: string | undefined): Promise<SigningKeys> {
  const file = dataDir ? join(dataDir, KEYS_FILE) : undefined;
  if (file && existsSync(file)) {
    const privateJwk = JSON.parse(readFileSync(file, "utf8")) as JWK;
    return { privateJwk, publicJwks: { keys: [publicPart(privateJwk)] } };
  }
  const jwk = (!file && pooledKey()) || (await exportJWK((await generateKeyPair("RS256", { extractable: true, modulusLength: 2048 })).privateKey));
  const privateJwk: JWK = { ...jwk, kid: `sandbox-${Date.now().toString(36)}-${++made}`, alg: "RS256", use: "sig" };
  if (file && dataDir) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(privateJwk), { mode: 0o600 });
  }
  return { privateJwk, publicJwks: { keys: [publicPart(privateJwk)] } };
}

let made = 0;
let pool: { keys: JWK[]; next: number } | undefined;

/**
 * The next RSA private key (a JWK without kid) of the SANDBOX_KEY_POOL file, in turn, or undefined
 * without one. Consecutive calls give different keys as long as the pool holds more; each process
 * starts at a place of its own (its pid), so processes seldom sign with the same key at once.
 */
export function pooledKey(): JWK | undefined {
  const path = process.env[KEY_POOL_ENV];
  if (!path) return undefined;
  pool ??= { keys: JSON.parse(readFileSync(path, "utf8")) as JWK[], next: process.pid };
  if (pool.keys.length === 0) return undefined;
  const { kty, n, e, d, p, q, dp, dq, qi } = pool.keys[pool.next++ % pool.keys.length]!;
  return { kty, n, e, d, p, q, dp, dq, qi };
}

/** The public part of an RSA JWK, with its kid, as a key set publishes it. */
export function publicPart(jwk: JWK): JWK {
  const { kty, n, e, kid, alg, use } = jwk;
  return { kty, n, e, kid, alg: alg ?? "RS256", use: use ?? "sig" };
}
