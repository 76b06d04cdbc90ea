// The sandbox's RS256 signing key: generated once, kept in dataDir as a JWK (in memory without one).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import type { SigningKeys } from "./context.js";

const KEYS_FILE = "signing-key.json";

export async function loadSigningKeys(dataDir: string | undefined): Promise<SigningKeys> {
  const file = dataDir ? join(dataDir, KEYS_FILE) : undefined;
  if (file && existsSync(file)) {
    const privateJwk = JSON.parse(readFileSync(file, "utf8")) as JWK;
    return { privateJwk, publicJwks: { keys: [publicPart(privateJwk)] } };
  }
  const { privateKey } = await generateKeyPair("RS256", { extractable: true, modulusLength: 2048 });
  const jwk = await exportJWK(privateKey);
  const privateJwk: JWK = { ...jwk, kid: `sandbox-${Date.now().toString(36)}`, alg: "RS256", use: "sig" };
  if (file && dataDir) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(privateJwk), { mode: 0o600 });
  }
  return { privateJwk, publicJwks: { keys: [publicPart(privateJwk)] } };
}

function publicPart(jwk: JWK): JWK {
  const { kty, n, e, kid, alg, use } = jwk;
  return { kty, n, e, kid, alg: alg ?? "RS256", use: use ?? "sig" };
}
