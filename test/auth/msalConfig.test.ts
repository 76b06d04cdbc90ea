import assert from "node:assert/strict";
import { test } from "node:test";
import { ProtocolMode } from "@azure/msal-browser";
import { loadAuthorityMetadata, msalConfiguration } from "../../src/auth/msalConfig.js";
import { addinPageUrl, dialogUrl } from "../../src/auth/index.js";
import { SANDBOX_ENVIRONMENT } from "../../src/core/settings/environment.js";

const discovery = {
  issuer: "https://login.service.example",
  authorization_endpoint: "https://login.service.example/authorize",
  token_endpoint: "https://login.service.example/token",
  jwks_uri: "https://login.service.example/jwks",
};

const fetchJson =
  (body: unknown, status = 200) =>
  async (url: string) => {
    fetched.push(url);
    return { ok: status === 200, status, json: async () => body };
  };
const fetched: string[] = [];

test("OIDC protocol mode, the authority's host:port as known authority, refresh token only when asked", () => {
  const config = msalConfiguration(SANDBOX_ENVIRONMENT.signIn, {
    redirectUri: "https://localhost:3000/redirect.html",
    authorityMetadata: JSON.stringify(discovery),
    cacheLocation: "sessionStorage",
    offlineAccess: true,
  });
  assert.equal(config.system?.protocolMode, ProtocolMode.OIDC);
  assert.deepEqual(config.auth.knownAuthorities, ["localhost:4010"]);
  assert.equal(config.auth.authority, "https://localhost:4010/oauth");
  assert.equal(config.auth.clientId, "excel-addin");
  assert.deepEqual(config.auth.OIDCOptions?.defaultScopes, ["openid", "profile", "offline_access"]);
  const dialog = msalConfiguration(SANDBOX_ENVIRONMENT.signIn, {
    redirectUri: "https://localhost:3000/dialog.html",
    authorityMetadata: "{}",
    cacheLocation: "sessionStorage",
    offlineAccess: false,
  });
  assert.deepEqual(dialog.auth.OIDCOptions?.defaultScopes, ["openid", "profile"]);
});

test("a configured token endpoint (an organization's broker) replaces the discovered one", async () => {
  const signIn = { authority: "https://login.service.example/", clientId: "c", scopes: [], tokenEndpoint: "https://broker.example.org/token" };
  const metadata = JSON.parse(await loadAuthorityMetadata(signIn, fetchJson(discovery))) as typeof discovery;
  assert.equal(fetched.at(-1), "https://login.service.example/.well-known/openid-configuration");
  assert.equal(metadata.token_endpoint, "https://broker.example.org/token");
  assert.equal(metadata.authorization_endpoint, discovery.authorization_endpoint);
  const plain = JSON.parse(await loadAuthorityMetadata({ ...signIn, tokenEndpoint: undefined } as never, fetchJson(discovery))) as typeof discovery;
  assert.equal(plain.token_endpoint, discovery.token_endpoint);
});

test("an unreachable, misplaced or unreadable authority is a clear error", async () => {
  // A 404: the server is there, but this environment's sign-in is not: Settings is the fix.
  await assert.rejects(loadAuthorityMetadata(SANDBOX_ENVIRONMENT.signIn, fetchJson({}, 404)), (e: { userMessage: string }) =>
    /^This environment's sign-in is not here: .*Under Connection settings \(below\), choose the environment/.test(e.userMessage),
  );
  await assert.rejects(loadAuthorityMetadata(SANDBOX_ENVIRONMENT.signIn, fetchJson({}, 503)), (e: { userMessage: string }) =>
    /could not be reached/.test(e.userMessage),
  );
  await assert.rejects(loadAuthorityMetadata(SANDBOX_ENVIRONMENT.signIn, fetchJson({ nothing: true })), (e: { userMessage: string }) =>
    /could not be read/.test(e.userMessage),
  );
});

test("the dialog address is on the add-in's origin and carries only non-secret settings", () => {
  const url = new URL(dialogUrl("https://localhost:3000", { ...SANDBOX_ENVIRONMENT.signIn, tokenEndpoint: "https://broker.example.org/token" }, "renew"));
  assert.equal(url.origin, "https://localhost:3000");
  assert.equal(url.pathname, "/dialog.html");
  assert.deepEqual([...url.searchParams.keys()].sort(), ["authority", "clientId", "flow", "mode", "scopes", "tokenEndpoint"]);
  // Every data scope: records, lookups, signals, research; and reading the plan.
  assert.equal(
    url.searchParams.get("scopes"),
    "api:data:company api:data:contact api:data:lookup api:data:intent api:data:news api:data:scoops api:account-summary:read api:recommendations:read api:entitlement:read",
  );
});

test("an add-in served under a path opens its own dialog and redirect pages there", () => {
  const url = new URL(dialogUrl("https://addins.example.org/excel/", SANDBOX_ENVIRONMENT.signIn, "signin"));
  assert.equal(url.origin + url.pathname, "https://addins.example.org/excel/dialog.html");
  assert.equal(addinPageUrl("https://addins.example.org/excel", "redirect.html"), "https://addins.example.org/excel/redirect.html");
  assert.equal(addinPageUrl("https://localhost:3000", "redirect.html"), "https://localhost:3000/redirect.html");
});
