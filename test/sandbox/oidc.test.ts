// The sandbox's sign-in server over real HTTP: discovery, PKCE, tokens the API accepts with
// their scopes and roles, refresh rotation, CORS for the add-in origin, login and consent pages.
import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { useSandbox } from "../helpers/sandbox.js";
import { authorize, refresh, signIn, tokenRequest, type TokenResponse } from "../auth/helpers/oidcFlow.js";

const ADDIN = "http://127.0.0.1:5555";
const TTL_SECONDS = 7;
const sandbox = useSandbox({ corsOrigins: [ADDIN], accessTokenTtlSeconds: TTL_SECONDS });

const user = (name: "analyst" | "basic" | "nocontact" | "norole") => ({
  baseUrl: sandbox.url,
  origin: ADDIN,
  email: `${name}@example.com`,
  password: `${name}-pass`,
});

async function search(token: string, kind: "companies" | "contacts") {
  const res = await fetch(`${sandbox.url}/data/v1/${kind}/search`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/vnd.api+json" },
    body: JSON.stringify({ data: { type: kind === "companies" ? "CompanySearch" : "ContactSearch", attributes: {} } }),
  });
  return { status: res.status, text: await res.text() };
}

test("discovery names the issuer under /oauth and S256 PKCE", async () => {
  const res = await fetch(`${sandbox.url}/oauth/.well-known/openid-configuration`);
  assert.equal(res.status, 200);
  const doc = (await res.json()) as Record<string, unknown>;
  assert.equal(doc.issuer, `${sandbox.url}/oauth`);
  assert.equal(doc.authorization_endpoint, `${sandbox.url}/oauth/auth`);
  assert.equal(doc.token_endpoint, `${sandbox.url}/oauth/token`);
  assert.deepEqual(doc.code_challenge_methods_supported, ["S256"]);
  assert.ok((doc.scopes_supported as string[]).includes("offline_access"));
});

test("an authorization request without PKCE is refused", async () => {
  const outcome = await authorize({ ...user("analyst"), omitPkce: true });
  assert.equal(outcome.landing.searchParams.get("error"), "invalid_request");
  assert.match(outcome.landing.searchParams.get("error_description") ?? "", /PKCE/);
  assert.equal(outcome.landing.searchParams.get("code"), null);
});

test("a code is redeemed only with its PKCE verifier", async () => {
  const outcome = await authorize(user("analyst"));
  const code = outcome.landing.searchParams.get("code")!;
  const res = await tokenRequest(sandbox.url, ADDIN, {
    grant_type: "authorization_code",
    client_id: "excel-addin",
    code,
    redirect_uri: outcome.redirectUri,
    code_verifier: "x".repeat(43),
  });
  assert.equal(res.status, 400);
  assert.equal(((await res.json()) as { error: string }).error, "invalid_grant");
});

test("the analyst's token carries scope, roles and account, and the API accepts it", async () => {
  const tokens = await signIn(user("analyst"));
  assert.equal(decodeProtectedHeader(tokens.access_token).typ, "at+jwt");
  const claims = decodeJwt(tokens.access_token);
  assert.equal(claims.iss, `${sandbox.url}/oauth`);
  assert.equal(claims.aud, sandbox.ctx.apiAudience);
  // Every role of the plan (docs/entitlements.md), insights (fea:gtmpl) and intent (int:api) among them.
  assert.ok(["fea:api", "fea:gtmpl", "int:api", "fea:asu", "fea:cai", "lim:bulk"].every((role) => (claims.roles as string[]).includes(role)));
  assert.equal(claims.account, "default");
  assert.deepEqual(String(claims.scope).split(" ").sort(), ["api:data:company", "api:data:contact", "api:data:lookup"]);
  assert.equal(tokens.expires_in, TTL_SECONDS, "the configured access-token lifetime");
  assert.equal(Number(claims.exp) - Number(claims.iat), TTL_SECONDS);
  assert.ok(tokens.refresh_token, "offline_access with consent gives a refresh token");
  assert.equal((await search(tokens.access_token, "companies")).status, 200);
  assert.equal((await search(tokens.access_token, "contacts")).status, 200);
  const idToken = decodeJwt(tokens.id_token!);
  assert.equal(idToken.preferred_username, "analyst@example.com");
  assert.equal(idToken.name, "Avery Analyst");
});

test("nocontact@ gets no api:data:contact: contact search answers 403 naming the scope", async () => {
  const tokens = await signIn(user("nocontact"));
  assert.ok(!tokens.scope.split(" ").includes("api:data:contact"));
  assert.equal((await search(tokens.access_token, "companies")).status, 200);
  const contacts = await search(tokens.access_token, "contacts");
  assert.equal(contacts.status, 403);
  assert.match(contacts.text, /api:data:contact/);
});

test("basic@ signs in with the plan and intent scopes but a plan without intent, research or insights: the API refuses those, not the data", async () => {
  const scope = "openid offline_access api:data:company api:data:intent api:entitlement:read api:insights:read api:account-summary:read";
  const tokens = await signIn({ ...user("basic"), scope });
  const claims = decodeJwt(tokens.access_token);
  assert.deepEqual(String(claims.scope).split(" ").sort(), ["api:account-summary:read", "api:data:company", "api:data:intent", "api:entitlement:read"]);
  for (const role of ["int:api", "fea:asu", "fea:cai", "fea:gtmpl"]) assert.ok(!(claims.roles as string[]).includes(role), role);
  assert.equal((await search(tokens.access_token, "companies")).status, 200);
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${sandbox.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${tokens.access_token}`, "content-type": "application/vnd.api+json" },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  const intent = await call("POST", "/data/v1/intent/search", { data: { type: "IntentSearch", attributes: { topics: ["Cloud"] } } });
  assert.equal(intent.status, 403);
  assert.match(await intent.text(), /int:api/);
  const research = await call("GET", "/data/v1/research/accounts/1");
  assert.equal(research.status, 403);
  assert.match(await research.text(), /fea:asu/);
  const plan = await call("GET", "/platform/v1/entitlements?filter[admin]=false&filter[roleType]=feature");
  assert.equal(plan.status, 200);
  const codes = ((await plan.json()) as { data: { attributes: { roleCode: string } }[] }).data.map((e) => e.attributes.roleCode);
  assert.deepEqual(codes, ["fea:api"]);
});

test("norole@ has the scopes but no data role: 403 naming the roles", async () => {
  const tokens = await signIn(user("norole"));
  const companies = await search(tokens.access_token, "companies");
  assert.equal(companies.status, 403);
  assert.match(companies.text, /fea:api/);
});

test("refresh tokens rotate: the new one works, the old one fails after use", async () => {
  const first = await signIn(user("analyst"));
  const res = await refresh(sandbox.url, ADDIN, first.refresh_token!);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("access-control-allow-origin"), ADDIN);
  const second = (await res.json()) as TokenResponse;
  assert.ok(second.refresh_token && second.refresh_token !== first.refresh_token);
  assert.notEqual(second.access_token, first.access_token);
  assert.equal((await search(second.access_token, "companies")).status, 200);

  const reuse = await refresh(sandbox.url, ADDIN, first.refresh_token!);
  assert.equal(reuse.status, 400);
  assert.equal(((await reuse.json()) as { error: string }).error, "invalid_grant");
  // Reuse looks like theft: the whole grant is revoked, the newest refresh token included
  // (why the add-in never runs two refreshes at once).
  assert.equal((await refresh(sandbox.url, ADDIN, second.refresh_token!)).status, 400);
});

test("the token endpoint allows CORS only for the add-in's origins", async () => {
  const tokens = await signIn(user("analyst"));
  const foreign = await refresh(sandbox.url, "https://evil.example", tokens.refresh_token!);
  assert.equal(foreign.headers.get("access-control-allow-origin"), null);
});

test("prompt=login consent (what the add-in sends) asks for both and returns a code", async () => {
  const outcome = await authorize({ ...user("analyst"), prompt: "login consent" });
  assert.ok(outcome.landing.searchParams.get("code"));
  assert.equal(outcome.pages.filter((p) => p.includes('name="password"')).length, 1, "one login page");
  assert.equal(outcome.pages.filter((p) => p.includes("Allow access")).length, 1, "one consent page");
});

test("a wrong password shows the login page again with a message; Deny ends with access_denied", async () => {
  await assert.rejects(authorize({ ...user("analyst"), password: "wrong" }), /login refused/);
  const denied = await authorize({ ...user("analyst"), deny: true });
  assert.equal(denied.landing.searchParams.get("error"), "access_denied");
});

test("the login page escapes what it echoes", async () => {
  const jar = await import("../auth/helpers/oidcFlow.js");
  const cookies = new jar.CookieJar();
  const start = await fetch(
    `${sandbox.url}/oauth/auth?${new URLSearchParams({
      client_id: "excel-addin",
      redirect_uri: `${ADDIN}/redirect.html`,
      response_type: "code",
      scope: "openid api:data:company",
      code_challenge: jar.pkcePair().challenge,
      code_challenge_method: "S256",
    })}`,
    { redirect: "manual" },
  );
  cookies.store(start);
  const page = new URL(start.headers.get("location")!, sandbox.url).href;
  const login = await fetch(`${page}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: cookies.header(), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: '"><script>alert(1)</script>', password: "x" }).toString(),
  });
  const html = await login.text();
  assert.equal(login.status, 401);
  assert.ok(!html.includes("<script>alert(1)</script>"));
  assert.match(html, /&#34;&#62;&#60;script&#62;/);
  assert.match(html, /role="alert"/);
});

test("an expired or unknown sign-in step answers a clear page, not a server error", async () => {
  for (const [method, path] of [
    ["GET", "/oauth/interaction/unknown-uid"],
    ["POST", "/oauth/interaction/unknown-uid/login"],
    ["POST", "/oauth/interaction/unknown-uid/confirm"],
  ] as const) {
    const res = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: method === "POST" ? { "content-type": "application/x-www-form-urlencoded" } : {},
      ...(method === "POST" ? { body: "email=a&password=b" } : {}),
    });
    assert.equal(res.status, 400, path);
    assert.match(await res.text(), /has expired/);
  }
});
