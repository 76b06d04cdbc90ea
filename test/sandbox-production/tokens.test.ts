// Access tokens in both profiles: a token naming no account is refused (it used to mean the
// "default" account), and no token lives longer than 24 hours (the API refuses one that would,
// the sandbox mints none).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { SignJWT, importJWK } from "jose";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.js";

const HOUR = 3600;

for (const profile of ["default", "production"] as const) {
  describe(`access tokens (${profile} profile)`, () => {
    let sandbox: TestSandbox;
    before(async () => {
      sandbox = await startTestSandbox({ profile, companies: 50, contacts: 50 });
    });
    after(() => sandbox.close());

    const usagePath = profile === "production" ? "/gtm/data/v1/users/usage" : "/data/v1/users/usage";
    const usage = (token: string) => fetch(`${sandbox.url}${usagePath}`, { headers: { authorization: `Bearer ${token}` } });

    /** A token signed with the sandbox's own key, so only its claims decide. */
    async function signed(claims: Record<string, unknown>, lifetimeSeconds: number): Promise<string> {
      const keys = sandbox.ctx.keys;
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ scope: "api:data:company api:data:contact api:data:lookup", roles: ["fea:api"], ...claims })
        .setProtectedHeader({ alg: "RS256", kid: keys.privateJwk.kid })
        .setIssuer(sandbox.ctx.options.publicUrl)
        .setAudience(sandbox.ctx.apiAudience)
        .setSubject("someone")
        .setIssuedAt(now)
        .setExpirationTime(now + lifetimeSeconds)
        .sign(await importJWK(keys.privateJwk, "RS256"));
    }

    it("refuses a token without an account claim (401), and accepts the same token naming one", async () => {
      const none = await usage(await signed({}, HOUR));
      assert.equal(none.status, 401);
      assert.match(await none.text(), /names no account/);
      assert.equal((await usage(await signed({ account: "" }, HOUR))).status, 401, "an empty account is none");
      assert.equal((await usage(await signed({ account: "acme" }, HOUR))).status, 200);
    });

    it("refuses a token living longer than 24 hours, accepts one of exactly 24 hours", async () => {
      const long = await usage(await signed({ account: "acme" }, 24 * HOUR + 60));
      assert.equal(long.status, 401);
      assert.match(await long.text(), /longer than 24 hours/);
      assert.equal((await usage(await signed({ account: "acme" }, 24 * HOUR))).status, 200);
    });

    it("mints no development token for longer than 24 hours", async () => {
      const res = await fetch(`${sandbox.url}/__sandbox/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ expiresIn: 30 * 24 * HOUR }),
      });
      assert.equal(res.status, 400);
      assert.equal((await usage(await sandbox.token({ expiresIn: 24 * HOUR }))).status, 200);
    });
  });
}
