// Access tokens for the relay's tests: signed by a key set served on 127.0.0.1 (the service's
// published keys, which can be rotated), or forged (alg none, or signed by a key nobody publishes).
import { createServer, type Server } from "node:http";
import { exportJWK, generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWK } from "jose";
import { pooledKey, publicPart } from "../../src/sandbox/keys.js";

/** The issuer and audience of the service's access tokens (the relay's key-set mode checks both). */
export const ISSUER = "https://service.example/oauth/v1";
export const AUDIENCE = "excel-addin";
/** Lifetime of the service's access tokens: a signed token's iat is this long before its exp unless given. */
const LIFETIME_SECONDS = 3600;

const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** An unsigned token naming whatever it likes: anyone can write one. */
export function forgedToken(claims: Record<string, unknown>): string {
  return `${part({ alg: "none", typ: "JWT" })}.${part(claims)}.`;
}

/** A token shaped like the service's, whose signature nobody checked (the fake fetch accepts it unless it ends in "forged"). */
export function unsignedToken(claims: Record<string, unknown>, signature = "signature"): string {
  return `${part({ alg: "RS256", typ: "at+jwt" })}.${part(claims)}.${signature}`;
}

interface Key {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

/** A key of the run's pool (see src/sandbox/keys.ts), or a new one without a pool. */
async function newKey(kid: string): Promise<Key> {
  const pooled = pooledKey();
  if (pooled) return { kid, privateKey: (await importJWK(pooled, "RS256")) as CryptoKey, jwk: publicPart({ ...pooled, kid }) };
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" } };
}

export interface KeySet {
  url: string;
  /** Times the key set was fetched. */
  fetches: number;
  /** A token as the service writes them (its iss and aud, an iat an hour before exp), with `claims` over those. */
  sign(claims: Record<string, unknown>, options?: { key?: "current" | "unpublished"; kid?: string }): Promise<string>;
  /** Publishes a new key (the old one stays published) and signs with it from now on. */
  rotate(): Promise<void>;
  close(): Promise<void>;
}

export async function startKeySet(): Promise<KeySet> {
  const published: Key[] = [await newKey("k1")];
  const unpublished = await newKey("k1");
  let current = published[0]!;
  const state = { fetches: 0 };
  const server: Server = createServer((_req, res) => {
    state.fetches += 1;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ keys: published.map((k) => k.jwk) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    get fetches() {
      return state.fetches;
    },
    async sign(claims, options = {}) {
      const key = options.key === "unpublished" ? unpublished : current;
      const iat = typeof claims.exp === "number" ? { iat: Math.max(0, claims.exp - LIFETIME_SECONDS) } : {};
      return new SignJWT({ iss: ISSUER, aud: AUDIENCE, ...iat, ...claims })
        .setProtectedHeader({ alg: "RS256", kid: options.kid ?? key.kid, typ: "at+jwt" })
        .sign(key.privateKey);
    },
    async rotate() {
      current = await newKey(`k${published.length + 1}`);
      published.push(current);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
