// The sandbox's 24 h cap on an access token's lifetime counts from the moment it is checked when
// the token says it was issued later: a future iat must not stretch the cap.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SignJWT, importJWK } from "jose";
import { createAuthenticator, MAX_ACCESS_TOKEN_LIFETIME_SECONDS } from "../../src/sandbox/auth.js";
import { loadSigningKeys } from "../../src/sandbox/keys.js";
import { FakeClock } from "../core/api/scripted.js";

const ISSUER = "https://sandbox.test";
const AUDIENCE = "bizdata-api";
const NOW = 1_800_000_000;

async function setUp() {
  const keys = await loadSigningKeys(undefined);
  const auth = createAuthenticator(
    keys,
    () => [ISSUER],
    () => AUDIENCE,
    new FakeClock(NOW * 1000),
  );
  const key = await importJWK(keys.privateJwk, "RS256");
  const sign = (iat: number, exp: number) =>
    new SignJWT({ scope: "api:data:company", roles: ["fea:api"], account: "acme" })
      .setProtectedHeader({ alg: "RS256", kid: keys.privateJwk.kid! })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject("someone@acme")
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(key);
  return { auth, sign };
}

describe("sandbox token lifetime cap", () => {
  test("a token issued now for an hour is accepted; one living longer than 24 h is refused", async () => {
    const { auth, sign } = await setUp();
    const principal = await auth.authenticate(`Bearer ${await sign(NOW, NOW + 3600)}`);
    assert.equal(principal.account, "acme");
    await assert.rejects(auth.authenticate(`Bearer ${await sign(NOW, NOW + MAX_ACCESS_TOKEN_LIFETIME_SECONDS + 60)}`), /longer than 24 hours/);
  });

  test("a future iat does not stretch the cap: exp more than 24 h from now is refused", async () => {
    const { auth, sign } = await setUp();
    const future = NOW + 30 * 24 * 3600;
    await assert.rejects(auth.authenticate(`Bearer ${await sign(future, future + 3600)}`), /longer than 24 hours/);
  });
});
