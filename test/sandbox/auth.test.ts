// 401 for missing, malformed, foreign, expired tokens; 403 for a missing scope or role.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SignJWT, exportJWK, generateKeyPair } from "jose";
import { useSandbox } from "../helpers/sandbox.js";
import { call, companySearch, contactSearch } from "./http.js";

const sandbox = useSandbox();

const searchCompanies = (token?: string, authorization?: string) =>
  authorization === undefined
    ? call(sandbox, "POST", "/data/v1/companies/search", { ...(token ? { token } : {}), body: companySearch({}) })
    : fetch(`${sandbox.url}/data/v1/companies/search`, {
        method: "POST",
        headers: { authorization, "content-type": "application/json" },
        body: JSON.stringify(companySearch({})),
      }).then(async (r) => ({ status: r.status, headers: r.headers, body: (await r.json()) as any }));

function assertError(res: { status: number; body: any }, status: number, detail?: RegExp) {
  assert.equal(res.status, status);
  assert.equal(res.body.errors.length, 1);
  const e = res.body.errors[0];
  assert.equal(e.status, String(status));
  assert.ok(e.id && e.code && e.title);
  if (detail) assert.match(e.detail, detail);
}

describe("401 unauthorized", () => {
  test("no Authorization header", async () => assertError(await searchCompanies(), 401, /Sign in/));
  test("not a Bearer token", async () => assertError(await searchCompanies(undefined, "Basic dXNlcjpwYXNz"), 401));
  test("garbage token", async () => assertError(await searchCompanies("not.a.jwt"), 401));
  test("expired token", async () => assertError(await searchCompanies(await sandbox.token({ expiresIn: -60 })), 401, /expired/));
  test("token signed by a key the sandbox does not know", async () => {
    const { privateKey, publicKey } = await generateKeyPair("RS256");
    const kid = (await exportJWK(publicKey)).n!.slice(0, 8);
    const forged = await new SignJWT({ scope: "api:data:company", roles: ["fea:api"], account: "default" })
      .setProtectedHeader({ alg: "RS256", kid })
      .setIssuer(sandbox.url)
      .setAudience(sandbox.ctx.apiAudience)
      .setExpirationTime("1h")
      .sign(privateKey);
    assertError(await searchCompanies(forged), 401);
  });
  test("the error never repeats the token", async () => {
    const token = await sandbox.token({ expiresIn: -60 });
    const res = await searchCompanies(token);
    assert.ok(!JSON.stringify(res.body).includes(token));
  });
});

describe("403 forbidden", () => {
  test("company search without api:data:company names the scope", async () => {
    assertError(await searchCompanies(await sandbox.token({ scopes: ["api:data:contact"] })), 403, /api:data:company/);
  });
  test("contact search without api:data:contact", async () => {
    const token = await sandbox.token({ scopes: ["api:data:company"] });
    assertError(await call(sandbox, "POST", "/data/v1/contacts/search", { token, body: contactSearch({}) }), 403, /api:data:contact/);
  });
  test("company enrichment without api:data:company", async () => {
    const token = await sandbox.token({ scopes: ["api:data:lookup"] });
    const body = { data: { type: "CompanyEnrich", attributes: { matchCompanyInput: [{ companyId: 1 }], outputFields: ["name"] } } };
    assertError(await call(sandbox, "POST", "/data/v1/companies/enrich", { token, body }), 403, /api:data:company/);
  });
  test("lookup without api:data:lookup", async () => {
    const token = await sandbox.token({ scopes: ["api:data:company"] });
    assertError(await call(sandbox, "GET", "/data/v1/lookup/industries", { token }), 403, /api:data:lookup/);
  });
  test("no fea:zia or fea:api role names the roles", async () => {
    assertError(await searchCompanies(await sandbox.token({ roles: ["fea:other"] })), 403, /fea:zia or fea:api/);
  });
  test("either role is enough", async () => {
    assert.equal((await searchCompanies(await sandbox.token({ roles: ["fea:zia"] }))).status, 200);
    assert.equal((await searchCompanies(await sandbox.token({ roles: ["fea:api"] }))).status, 200);
  });
  test("usage needs a valid token but no particular scope", async () => {
    const token = await sandbox.token({ scopes: [] });
    assert.equal((await call(sandbox, "GET", "/data/v1/users/usage", { token })).status, 200);
    assert.equal((await call(sandbox, "GET", "/data/v1/users/usage")).status, 401);
  });
});

describe("gateway-shaped errors", () => {
  test("with gatewayErrors on, 401 and 403 come as {error:{code,message,status,requestId,retryable}}", async () => {
    await sandbox.setFaults({ gatewayErrors: true });
    try {
      const res = await searchCompanies();
      assert.equal(res.status, 401);
      assert.equal(res.body.errors, undefined);
      assert.equal(res.body.error.status, "401");
      assert.equal(typeof res.body.error.message, "string");
      assert.equal(typeof res.body.error.requestId, "string");
      assert.equal(res.body.error.retryable, false);
      const forbidden = await searchCompanies(await sandbox.token({ scopes: [] }));
      assert.equal(forbidden.status, 403);
      assert.match(forbidden.body.error.message, /api:data:company/);
    } finally {
      await sandbox.setFaults({ gatewayErrors: false });
    }
  });
});

describe("dev tokens", () => {
  test("POST /__sandbox/token returns a bearer token with its lifetime", async () => {
    const res = await call(sandbox, "POST", "/__sandbox/token", { body: { account: "acme", expiresIn: 120 }, contentType: "application/json" });
    assert.equal(res.status, 200);
    assert.equal(res.body.token_type, "Bearer");
    assert.equal(res.body.expires_in, 120);
    assert.equal((await searchCompanies(res.body.access_token)).status, 200);
  });
  test("unknown fields are refused", async () => {
    const res = await call(sandbox, "POST", "/__sandbox/token", { body: { scope: "x" }, contentType: "application/json" });
    assert.equal(res.status, 400);
    assert.equal(res.body.errors[0].source.pointer, "/scope");
  });
});

describe("CORS for the add-in's origin", () => {
  test("preflight allows the Authorization header; responses expose the rate-limit headers", async () => {
    const preflight = await fetch(`${sandbox.url}/data/v1/companies/search`, {
      method: "OPTIONS",
      headers: { origin: "https://localhost:3000", "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-origin"), "https://localhost:3000");
    assert.match(preflight.headers.get("access-control-allow-headers") ?? "", /authorization/i);
    const token = await sandbox.token();
    const res = await fetch(`${sandbox.url}/data/v1/companies/search`, {
      method: "POST",
      headers: { origin: "https://localhost:3000", authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(companySearch({})),
    });
    assert.equal(res.headers.get("access-control-allow-origin"), "https://localhost:3000");
    for (const h of ["X-RateLimit-Remaining-Second", "Retry-After", "X-RateLimit-Rejected-Bucket"]) {
      assert.match(res.headers.get("access-control-expose-headers") ?? "", new RegExp(h));
    }
    const foreign = await fetch(`${sandbox.url}/data/v1/companies/search`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    assert.equal(foreign.headers.get("access-control-allow-origin"), null);
  });
});
