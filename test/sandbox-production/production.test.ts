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
  const tokenRequest = (url: string, form: Record<string, string>, headers: Record<string, string> = { origin: ORIGIN }) =>
    fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(form).toString() });

  it("signs in with PKCE, exchanges the code only with the client's credentials (through the broker), and refreshes through it", async () => {
    const signIn = await signInToProduction(sandbox.url, { email: "analyst@example.com", password: "analyst-pass", clientId: CLIENT.clientId, origin: ORIGIN });
    const exchange = {
      grant_type: "authorization_code",
      code: signIn.code,
      code_verifier: signIn.verifier,
      redirect_uri: signIn.redirectUri,
      client_id: CLIENT.clientId,
    };
    // A server-side call without the client's secret (as a browser holds none).
    const direct = await tokenRequest(`${sandbox.url}/gtm/oauth/v1/token`, exchange, {});
    assert.equal(direct.status, 401, await direct.clone().text());
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

  it("accepts the client's credentials in the form body (client_secret_post) as well as HTTP Basic", async () => {
    const signIn = await signInToProduction(sandbox.url, { email: "analyst@example.com", password: "analyst-pass", clientId: CLIENT.clientId, origin: ORIGIN });
    const exchange = { grant_type: "authorization_code", code: signIn.code, code_verifier: signIn.verifier, redirect_uri: signIn.redirectUri };
    const wrong = await tokenRequest(`${sandbox.url}/gtm/oauth/v1/token`, { ...exchange, client_id: CLIENT.clientId, client_secret: "not-the-secret" }, {});
    assert.equal(wrong.status, 401);
    assert.equal(((await wrong.json()) as { error: string }).error, "invalid_client");
    const posted = await tokenRequest(`${sandbox.url}/gtm/oauth/v1/token`, { ...exchange, client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret }, {});
    assert.equal(posted.status, 200, await posted.clone().text());
    const tokens = (await posted.json()) as { access_token: string; refresh_token: string };
    const basic = `Basic ${Buffer.from(`${CLIENT.clientId}:${CLIENT.clientSecret}`).toString("base64")}`;
    const refreshed = await tokenRequest(
      `${sandbox.url}/gtm/oauth/v1/token`,
      { grant_type: "refresh_token", refresh_token: tokens.refresh_token },
      { authorization: basic },
    );
    assert.equal(refreshed.status, 200, await refreshed.clone().text());
    assert.equal((await api("/gtm/data/v1/users/usage", { token: tokens.access_token })).status, 200);
  });

  it("the broker with a wrong configured secret passes the service's 401 invalid_client through", async () => {
    const wrong = (
      await buildBroker(
        { upstream: `${sandbox.url}/gtm/oauth/v1/token`, clientId: CLIENT.clientId, clientSecret: "wrong", allowOrigins: [ORIGIN] },
        { log: false },
      )
    ).app;
    const res = await wrong.inject({
      method: "POST",
      url: "/token",
      headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      payload: "grant_type=refresh_token&refresh_token=x",
    });
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
      api("/gtm/data/v1/companies/enrich", {
        token: t,
        body: { data: { type: "CompanyEnrich", attributes: { matchCompanyInput: [{ companyId: 1 }, { companyId: 2 }], outputFields } } },
      });
    const renamed = await enrich(["name", "numberOfContactsInZoomInfo", "alexaRank"]);
    assert.equal(renamed.status, 200);
    const doc = (await renamed.json()) as { data: { attributes?: Record<string, unknown> }[] };
    const keys = new Set(doc.data.flatMap((d) => Object.keys(d.attributes ?? {})));
    assert.ok(keys.has("numberOfContactsInZoomInfo") && keys.has("alexaRank"), [...keys].join());
    assert.ok(!keys.has("numberOfContactsInService") && !keys.has("siteRank"));
    assert.equal((await enrich(["numberOfContactsInService"])).status, 400);
    assert.equal((await enrich(["siteRank"])).status, 400);
  });

  it("pages like production: meta.page.total is the number of pages, and page[number] above 100 is 400 PFAPI0002", async () => {
    const body = { data: { type: "CompanySearch", attributes: { zoominfoContactsMin: "1" } } };
    const page = async (size: number, number = 1) => {
      const res = await api(`/gtm/data/v1/companies/search?page[size]=${size}&page[number]=${number}`, { body });
      assert.equal(res.status, 200);
      return (await res.json()) as { data: unknown[]; meta: { totalResults: number; page: { total: number; number: number } } };
    };
    const first = await page(7);
    assert.equal(first.data.length, 7);
    assert.ok(first.meta.totalResults > 7);
    assert.equal(first.meta.page.total, Math.ceil(first.meta.totalResults / 7), "page count at size 7");
    assert.equal((await page(25)).meta.page.total, Math.ceil(first.meta.totalResults / 25), "the page count follows the page size");
    const tooFar = await api("/gtm/data/v1/companies/search?page[size]=1&page[number]=101", { body });
    assert.equal(tooFar.status, 400);
    const error = ((await tooFar.json()) as { errors: { code: string; detail: string }[] }).errors[0]!;
    assert.equal(error.code, "PFAPI0002");
    assert.match(error.detail, /cannot be greater than max value 100/);
    assert.equal((await api("/gtm/data/v1/companies/search?page[size]=1&page[number]=100", { body })).status, 200, "page 100 is the last reachable");
  });

  it("takes production's contact sorts hierarchy, sourceCount and lastMentioned", async () => {
    for (const sort of ["hierarchy", "-sourceCount", "lastMentioned"]) {
      const res = await api(`/gtm/data/v1/contacts/search?page[size]=3&sort=${sort}`, { body: { data: { type: "ContactSearch", attributes: {} } } });
      assert.equal(res.status, 200, `${sort}: ${await res.clone().text()}`);
      assert.equal(((await res.json()) as { data: unknown[] }).data.length, 3);
    }
    const unknown = await api("/gtm/data/v1/contacts/search?page[size]=3&sort=shoeSize", { body: { data: { type: "ContactSearch", attributes: {} } } });
    assert.equal(unknown.status, 400);
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
    const listed = (await list.json()) as {
      data: { id: string; attributes: { type: string; columns: { id: string; attributes: { dataType?: string; columnType: string } }[] } }[];
      meta: { page: { size: number; number: number }; total: number };
    };
    assert.equal(listed.data.length, 1);
    assert.deepEqual(listed.meta.page, { size: 1, number: 1 });
    assert.ok(listed.meta.total >= 2, "total counts every audience");
    assert.equal((listed.meta as Record<string, unknown>).totalResults, undefined);
    const audience = listed.data[0]!;
    assert.ok(
      audience.attributes.columns.some((c) => c.attributes.dataType === undefined),
      "a column without dataType",
    );
    const typed = (await (await api(`/gtm/studio/v1/audiences?filter[type]=${audience.attributes.type}&page[size]=100`)).json()) as {
      data: { attributes: { type: string } }[];
    };
    assert.ok(typed.data.every((a) => a.attributes.type === audience.attributes.type));

    const wrongVerb = await api(`/gtm/studio/v1/audiences/${audience.id}/rows`);
    assert.equal(wrongVerb.status, 404);
    assert.equal(((await wrongVerb.json()) as { error: { code: string } }).error.code, "ZI9998");

    const input = audience.attributes.columns.find((c) => c.attributes.dataType === "ZI_COMPANY_ID" || c.attributes.dataType === "ZI_CONTACT_ID")!;
    const rows = await api(`/gtm/studio/v1/audiences/${audience.id}/rows/actions/search?page[size]=3&sort=-${input.id}&columns=${input.id}`, { body: {} });
    assert.equal(rows.status, 200);
    const rowDoc = (await rows.json()) as {
      data: { attributes: { values: { columnId: string; value?: unknown }[] } }[];
      meta: { page: { size: number; number: number }; total: number };
    };
    assert.equal(rowDoc.data.length, 3);
    assert.deepEqual(rowDoc.meta.page, { size: 3, number: 1 });
    assert.ok(rowDoc.data.every((r) => r.attributes.values.length === 1 && r.attributes.values[0]!.columnId === input.id));
    const refs = rowDoc.data.map((r) => String(r.attributes.values[0]!.value));
    assert.deepEqual(
      refs,
      [...refs].sort((a, b) => b.localeCompare(a, "en", { numeric: true })),
      "sorted descending",
    );
    const search = (attributes: Record<string, unknown> | undefined, query = "") =>
      api(`/gtm/studio/v1/audiences/${audience.id}/rows/actions/search${query}`, {
        body: attributes === undefined ? {} : { data: { type: "RowSearch", attributes } },
      });
    type RowsDoc = {
      data: { id: string; attributes: { values: { columnId: string; value?: unknown }[] } }[];
      meta: { page: { size: number; number: number }; total: number };
    };
    const equals = { type: "Filter", columnId: input.id, values: [refs[0]], filterOperator: "EQUALS" };
    const filtered = (await (await search({ filter: { operator: "AND", filters: [equals] } })).json()) as RowsDoc;
    assert.equal(filtered.meta.total, filtered.data.length);
    assert.ok(filtered.data.length >= 1);
    assert.ok(filtered.data.every((r) => r.attributes.values.some((v) => v.columnId === input.id && String(v.value) === refs[0])));
    const either = (await (await search({ filter: { operator: "OR", filters: [equals, { ...equals, values: [refs[1]] }] } })).json()) as RowsDoc;
    assert.ok(either.meta.total > filtered.meta.total, "OR widens");
    const both = (await (await search({ filter: { operator: "AND", filters: [equals, { ...equals, values: [refs[1]] }] } })).json()) as RowsDoc;
    assert.equal(both.meta.total, 0, "AND narrows");

    const all = (await (await search(undefined, "?page[size]=500")).json()) as RowsDoc;
    assert.equal(all.meta.page.size, 500, "rows pages go up to 500");
    const picked = [all.data[2]!.id, all.data[0]!.id];
    const byIds = (await (await search({ ids: picked })).json()) as RowsDoc;
    assert.deepEqual(new Set(byIds.data.map((r) => r.id)), new Set(picked));
    assert.equal(byIds.meta.total, 2);
    assert.equal((await search(undefined, "?page[size]=501")).status, 400);
    const flat = await api(`/gtm/studio/v1/audiences/${audience.id}/rows/actions/search`, { body: { filters: [{ columnId: input.id, value: refs[0] }] } });
    assert.equal(flat.status, 400, "a flat filters list is not a RowSearch document");
    const badOperator = await search({ filter: { operator: "AND", filters: [{ ...equals, filterOperator: "LIKE" }] } });
    assert.equal(badOperator.status, 400);
  });

  it("starts an audience job with api:audience:manage and reports it with api:audience:read", async () => {
    const list = (await (await api("/gtm/studio/v1/audiences")).json()) as {
      data: { id: string; attributes: { columns: { id: string; attributes: { columnType: string } }[] } }[];
    };
    const audience = list.data[0]!;
    const enrichable = audience.attributes.columns.find((c) => c.attributes.columnType.startsWith("ZOOMINFO_"))!;
    const ai = audience.attributes.columns.find((c) => c.attributes.columnType === "AI")!;
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

  it("lists every output field in the lookup, and refuses an unentitled one only in the enrichment answer (400 PFAPI0001 naming it)", async () => {
    const limited = await sandbox.token({ scopes: ALL, account: "limited-fields" });
    const lookup = await api("/gtm/data/v1/lookup/enrich?filter[entity]=company&filter[fieldType]=output", { token: limited });
    assert.equal(lookup.status, 200);
    const items = ((await lookup.json()) as { data: { type: string; attributes: { fieldName: string; fieldType: string; accessGranted?: boolean } }[] }).data;
    const fields = items.map((d) => d.attributes.fieldName);
    assert.ok(fields.includes("numberOfContactsInZoomInfo") && fields.includes("name"));
    assert.ok(fields.includes("revenue"), "the lookup is not cut to the account's entitlement");
    assert.ok(items.every((d) => d.type === "CompanyEnrichOutput" && d.attributes.fieldType === "output" && d.attributes.accessGranted !== false));

    const enrich = (t: string, outputFields: string[]) =>
      api("/gtm/data/v1/companies/enrich", {
        token: t,
        body: { data: { type: "CompanyEnrich", attributes: { matchCompanyInput: [{ companyId: 1 }], outputFields } } },
      });
    const refused = await enrich(limited, ["name", "revenue", "phone"]);
    assert.equal(refused.status, 400);
    const errors = ((await refused.json()) as { errors: { code: string; detail: string; id: string }[] }).errors;
    assert.deepEqual(
      errors.map((e) => [e.code, e.detail]),
      [
        ["PFAPI0001", "Disallowed field 'revenue' requested in query"],
        ["PFAPI0001", "Disallowed field 'phone' requested in query"],
      ],
    );
    assert.ok(
      errors.every((e) => e.id),
      "each error has its instance id",
    );
    assert.equal((await enrich(limited, ["name"])).status, 200);
    assert.equal((await enrich(token, ["name", "revenue"])).status, 200);
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
