// The sandbox's production profile over real HTTP, with the token broker in front of its
// token endpoint (as a real deployment runs them).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { buildBroker } from "../../src/broker/app.js";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { signInToProduction } from "./flow.js";
import { accountFromAccessToken } from "../../src/auth/oauthFlow.js";
import { SANDBOX_PRODUCTION_ENVIRONMENT } from "../../src/core/settings/environment.js";

const ORIGIN = "https://localhost:3000";
const CLIENT = { clientId: "prod-test-client", clientSecret: "prod-test-secret" };
const JSONAPI = "application/vnd.api+json";
const ALL = ["api:data:company", "api:data:contact", "api:data:lookup", "api:audience:read", "api:audience:manage"];

describe("sandbox production profile", () => {
  let sandbox: TestSandbox;
  let broker: FastifyInstance;
  let brokerUrl: string;
  let token: string;

  before(async () => {
    sandbox = await startTestSandbox({ profile: "production", ...CLIENT, corsOrigins: [ORIGIN] });
    broker = (await buildBroker({ upstream: `${sandbox.url}/gtm/oauth/v1/token`, ...CLIENT, allowOrigins: [ORIGIN] }, { log: false })).app;
    brokerUrl = await broker.listen({ port: 0, host: "127.0.0.1" });
    token = await sandbox.token({ scopes: ALL });
  });
  after(async () => {
    await broker.close();
    await sandbox.close();
  });

  const api = (path: string, init: { method?: string; body?: unknown; token?: string | null } = {}) =>
    fetch(`${sandbox.url}${path}`, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: {
        ...(init.token === null ? {} : { authorization: `Bearer ${init.token ?? token}` }),
        ...(init.body === undefined ? {} : { "content-type": JSONAPI }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
  const tokenRequest = (url: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN, ...headers }, body: new URLSearchParams(form).toString() });

  it("signs in with PKCE, exchanges the code only with the client's credentials (through the broker), and refreshes through it", async () => {
    const signIn = await signInToProduction(sandbox.url, { email: "analyst@example.com", password: "analyst-pass", clientId: CLIENT.clientId, origin: ORIGIN });
    const exchange = { grant_type: "authorization_code", code: signIn.code, code_verifier: signIn.verifier, redirect_uri: signIn.redirectUri, client_id: CLIENT.clientId };
    const direct = await tokenRequest(`${sandbox.url}/gtm/oauth/v1/token`, exchange);
    assert.equal(direct.status, 401);
    assert.equal(((await direct.json()) as { error: string }).error, "invalid_client");

    const viaBroker = await tokenRequest(`${brokerUrl}/token`, exchange);
    assert.equal(viaBroker.status, 200);
    assert.equal(viaBroker.headers.get("access-control-allow-origin"), ORIGIN);
    const tokens = (await viaBroker.json()) as { access_token: string; refresh_token: string; scope: string; id_token?: string };
    assert.equal(tokens.id_token, undefined, "no openid asked: no ID token");
    assert.ok(tokens.refresh_token);
    for (const scope of ALL) assert.ok(tokens.scope.split(" ").includes(scope), `no scope asked grants ${scope}`);
    // The access token names the user by email, so the pane shows it (not the internal user id).
    const claims = JSON.parse(Buffer.from(tokens.access_token.split(".")[1] ?? "", "base64url").toString()) as { email?: string; sub?: string };
    assert.equal(claims.email, "analyst@example.com");
    assert.equal(accountFromAccessToken(tokens.access_token, SANDBOX_PRODUCTION_ENVIRONMENT.signIn).username, "analyst@example.com");

    const usage = await api("/gtm/data/v1/users/usage", { token: tokens.access_token });
    assert.equal(usage.status, 200);

    const refreshed = await tokenRequest(`${brokerUrl}/token`, { grant_type: "refresh_token", refresh_token: tokens.refresh_token });
    assert.equal(refreshed.status, 200);
    const next = (await refreshed.json()) as { access_token: string; refresh_token: string };
    assert.notEqual(next.refresh_token, tokens.refresh_token, "refresh tokens rotate");
    const reused = await tokenRequest(`${brokerUrl}/token`, { grant_type: "refresh_token", refresh_token: tokens.refresh_token });
    assert.equal(reused.status, 400);
    assert.equal(((await reused.json()) as { error: string }).error, "invalid_grant");
  });

  it("the broker with a wrong configured secret passes the service's 401 invalid_client through", async () => {
    const wrong = (await buildBroker({ upstream: `${sandbox.url}/gtm/oauth/v1/token`, clientId: CLIENT.clientId, clientSecret: "wrong", allowOrigins: [ORIGIN] }, { log: false })).app;
    const res = await wrong.inject({ method: "POST", url: "/token", headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" }, payload: "grant_type=refresh_token&refresh_token=x" });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().error, "invalid_client");
    await wrong.close();
  });

  it("has no discovery document and no default-profile paths", async () => {
    const discovery = await fetch(`${sandbox.url}/gtm/oauth/v1/.well-known/openid-configuration`);
    assert.equal(discovery.status, 404);
    assert.equal(((await discovery.json()) as { error: { code: string } }).error.code, "ZI9998");
    assert.equal((await api("/data/v1/users/usage")).status, 404);
    assert.equal((await api("/gtm/data/v1/users/usage")).status, 200);
    assert.equal((await fetch(`${sandbox.url}/__sandbox/health`)).status < 500, true, "development endpoints stay");
  });

  it("uses production's names: renamed filters and fields work, the specification's answer 400", async () => {
    const search = (kind: string, attributes: Record<string, unknown>) =>
      api(`/gtm/data/v1/${kind === "Company" ? "companies" : "contacts"}/search?page[size]=5`, { body: { data: { type: `${kind}Search`, attributes } } });
    assert.equal((await search("Company", { zoominfoContactsMin: "1" })).status, 200);
    const spec = await search("Company", { serviceContactsMin: "1" });
    assert.equal(spec.status, 400);
    assert.equal(((await spec.json()) as { errors: { source: { pointer: string } }[] }).errors[0]!.source.pointer, "/data/attributes/serviceContactsMin");
    assert.equal((await search("Contact", { businessModel: ["B2B"] })).status, 400, "no businessModel in contact search");
    assert.equal((await search("Contact", { itDepartmentBudgetMin: "10" })).status, 400);
    assert.equal((await search("Company", { businessModel: ["B2B"] })).status, 200, "company search keeps it");

    const enrich = (outputFields: string[], t = token) =>
      api("/gtm/data/v1/companies/enrich", { token: t, body: { data: { type: "CompanyEnrich", attributes: { matchCompanyInput: [{ companyId: 1 }, { companyId: 2 }], outputFields } } } });
    const renamed = await enrich(["name", "numberOfContactsInZoomInfo", "alexaRank"]);
    assert.equal(renamed.status, 200);
    const doc = (await renamed.json()) as { data: { attributes?: Record<string, unknown> }[] };
    const keys = new Set(doc.data.flatMap((d) => Object.keys(d.attributes ?? {})));
    assert.ok(keys.has("numberOfContactsInZoomInfo") && keys.has("alexaRank"), [...keys].join());
    assert.ok(!keys.has("numberOfContactsInService") && !keys.has("siteRank"));
    assert.equal((await enrich(["numberOfContactsInService"])).status, 400);
    assert.equal((await enrich(["siteRank"])).status, 400);
  });

  it("pages like production: meta.page.total is the records on the page, and past the end is 400 PFAPI0004", async () => {
    const body = { data: { type: "CompanySearch", attributes: { zoominfoContactsMin: "1" } } };
    const first = await api("/gtm/data/v1/companies/search?page[size]=7", { body });
    const doc = (await first.json()) as { data: unknown[]; meta: { totalResults: number; page: { total: number; number: number } } };
    assert.equal(doc.data.length, 7);
    assert.equal(doc.meta.page.total, 7);
    assert.ok(doc.meta.totalResults > 7);
    const lastPage = Math.ceil(doc.meta.totalResults / 100);
    // Past the end must still be a page a search may ask for (at most 100): seed fewer records if not.
    assert.ok(lastPage < 100, `${doc.meta.totalResults} results: the page past the end is beyond what a search may ask for`);
    const past = await api(`/gtm/data/v1/companies/search?page[size]=100&page[number]=${lastPage + 1}`, { body });
    assert.equal(past.status, 400);
    assert.equal(((await past.json()) as { errors: { code: string }[] }).errors[0]!.code, "PFAPI0004");
  });

  it("answers with gateway codes: ZI0001 without a token, ZI0002 without the operation's scope, ZI9998 for a wrong verb", async () => {
    const none = await api("/gtm/studio/v1/audiences", { token: null });
    assert.equal(none.status, 401);
    assert.equal(((await none.json()) as { error: { code: string } }).error.code, "ZI0001");
    const noAudience = await api("/gtm/studio/v1/audiences", { token: await sandbox.token({ scopes: ["api:data:company"] }) });
    assert.equal(noAudience.status, 403);
    const gateway = ((await noAudience.json()) as { error: { code: string; message: string } }).error;
    assert.equal(gateway.code, "ZI0002");
    assert.match(gateway.message, /\/gtm\/studio\/v1\/audiences/);
    const lookupWithOtherScope = await api("/gtm/data/v1/lookup/industries", { token: await sandbox.token({ scopes: ["api:data:contact"] }) });
    assert.equal(lookupWithOtherScope.status, 200, "lookup needs any one data scope");
  });

  it("lists audiences with studio paging and filters, reads rows by search, and has no GET .../rows", async () => {
    const list = await api("/gtm/studio/v1/audiences?page[size]=1");
    assert.equal(list.status, 200);
    const listed = (await list.json()) as { data: { id: string; attributes: { type: string; columns: { id: string; attributes: { dataType?: string; columnType: string } }[] } }[]; meta: { page: { size: number; number: number }; total: number } };
    assert.equal(listed.data.length, 1);
    assert.deepEqual(listed.meta.page, { size: 1, number: 1 });
    assert.ok(listed.meta.total >= 2, "total counts every audience");
    assert.equal((listed.meta as Record<string, unknown>).totalResults, undefined);
    const audience = listed.data[0]!;
    assert.ok(audience.attributes.columns.some((c) => c.attributes.dataType === undefined), "a column without dataType");
    const typed = (await (await api(`/gtm/studio/v1/audiences?filter[type]=${audience.attributes.type}&page[size]=100`)).json()) as { data: { attributes: { type: string } }[] };
    assert.ok(typed.data.every((a) => a.attributes.type === audience.attributes.type));

    const wrongVerb = await api(`/gtm/studio/v1/audiences/${audience.id}/rows`);
    assert.equal(wrongVerb.status, 404);
    assert.equal(((await wrongVerb.json()) as { error: { code: string } }).error.code, "ZI9998");

    const input = audience.attributes.columns.find((c) => c.attributes.columnType === "INPUT")!;
    const rows = await api(`/gtm/studio/v1/audiences/${audience.id}/rows/actions/search?page[size]=3&sort=-${input.id}&columns=${input.id}`, { body: {} });
    assert.equal(rows.status, 200);
    const rowDoc = (await rows.json()) as { data: { attributes: { values: { columnId: string; value?: unknown }[] } }[]; meta: { page: { size: number; number: number }; total: number } };
    assert.equal(rowDoc.data.length, 3);
    assert.deepEqual(rowDoc.meta.page, { size: 3, number: 1 });
    assert.ok(rowDoc.data.every((r) => r.attributes.values.length === 1 && r.attributes.values[0]!.columnId === input.id));
    const refs = rowDoc.data.map((r) => String(r.attributes.values[0]!.value));
    assert.deepEqual(refs, [...refs].sort((a, b) => b.localeCompare(a, "en", { numeric: true })), "sorted descending");
    const filtered = await api(`/gtm/studio/v1/audiences/${audience.id}/rows/actions/search`, { body: { filters: [{ columnId: input.id, value: refs[0] }] } });
    const filteredDoc = (await filtered.json()) as { data: unknown[]; meta: { total: number } };
    assert.equal(filteredDoc.meta.total, filteredDoc.data.length);
    assert.ok(filteredDoc.data.length >= 1);
  });

  it("starts an audience job with api:audience:manage and reports it with api:audience:read", async () => {
    const list = (await (await api("/gtm/studio/v1/audiences")).json()) as { data: { id: string; attributes: { columns: { id: string; attributes: { columnType: string } }[] } }[] };
    const audience = list.data[0]!;
    const enrichable = audience.attributes.columns.find((c) => c.attributes.columnType === "ENRICHMENT")!;
    const ai = audience.attributes.columns.find((c) => c.attributes.columnType === "AI_RESEARCH")!;
    const body = { data: { type: "AudienceEnrichment", attributes: { scope: "AUDIENCE", columns: [enrichable.id, ai.id] } } };
    const readOnly = await sandbox.token({ scopes: ["api:audience:read"] });
    const refused = await api(`/gtm/studio/v1/audiences/${audience.id}/actions/enrich`, { token: readOnly, body });
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, "ZI0002");
    const started = await api(`/gtm/studio/v1/audiences/${audience.id}/actions/enrich`, { body });
    assert.equal(started.status, 202, await started.clone().text());
    const jobId = ((await started.json()) as { data: { id: string } }).data.id;
    const status = await api(`/gtm/studio/v1/audiences/${audience.id}/jobs/${jobId}`, { token: readOnly });
    assert.equal(status.status, 200, await status.clone().text());
    assert.ok(((await status.json()) as { data: { attributes: { status: string } } }).data.attributes.status);
  });

  it("lists the fields an account may use, and fails a request asking for an unentitled one", async () => {
    const limited = await sandbox.token({ scopes: ALL, account: "limited-fields" });
    const lookup = await api("/gtm/data/v1/lookup/enrich?filter[entity]=company&filter[fieldType]=output", { token: limited });
    assert.equal(lookup.status, 200);
    const fields = ((await lookup.json()) as { data: { id: string }[] }).data.map((d) => d.id);
    assert.ok(fields.includes("numberOfContactsInZoomInfo") && fields.includes("name"));
    assert.ok(!fields.includes("revenue"));
    const full = ((await (await api("/gtm/data/v1/lookup/enrich?filter[entity]=company&filter[fieldType]=output")).json()) as { data: { id: string }[] }).data.map((d) => d.id);
    assert.ok(full.includes("revenue"));

    const enrich = (t: string) => api("/gtm/data/v1/companies/enrich", { token: t, body: { data: { type: "CompanyEnrich", attributes: { matchCompanyInput: [{ companyId: 1 }], outputFields: ["name", "revenue"] } } } });
    const refused = await enrich(limited);
    assert.equal(refused.status, 400);
    const error = ((await refused.json()) as { errors: { code: string; detail: string }[] }).errors[0]!;
    assert.equal(error.code, "PFAPI0001");
    assert.match(error.detail, /revenue/);
    assert.equal((await enrich(token)).status, 200);
  });
});

describe("sandbox production profile limits", () => {
  it("answers a used-up rate limit with 429 ZI0004, Retry-After and the rate-limit headers, readable by the add-in's origin", async () => {
    const sandbox = await startTestSandbox({ profile: "production", corsOrigins: [ORIGIN], rateLimit: { perHour: 2 } });
    try {
      const token = await sandbox.token({ scopes: ALL });
      const usage = () => fetch(`${sandbox.url}/gtm/data/v1/users/usage`, { headers: { authorization: `Bearer ${token}`, origin: ORIGIN } });
      assert.equal((await usage()).status, 200);
      assert.equal((await usage()).status, 200);
      const limited = await usage();
      assert.equal(limited.status, 429);
      assert.equal(((await limited.json()) as { error: { code: string } }).error.code, "ZI0004");
      assert.ok(Number(limited.headers.get("retry-after")) > 0);
      assert.equal(limited.headers.get("x-ratelimit-remaining-hour"), "0");
      assert.equal(limited.headers.get("access-control-allow-origin"), ORIGIN);
      assert.match(String(limited.headers.get("access-control-expose-headers")), /Retry-After/);
    } finally {
      await sandbox.close();
    }
  });
});

describe("sandbox default profile", () => {
  it("has no /gtm paths", async () => {
    const sandbox = await startTestSandbox();
    try {
      const token = await sandbox.token();
      const res = await fetch(`${sandbox.url}/gtm/data/v1/users/usage`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.status, 404);
      assert.equal((await fetch(`${sandbox.url}/data/v1/users/usage`, { headers: { authorization: `Bearer ${token}` } })).status, 200);
    } finally {
      await sandbox.close();
    }
  });
});
