// The production topology over real HTTP, without a browser: the sandbox's production profile,
// the token broker in front of its token endpoint, and the add-in's own sign-in (oauthFlow: no
// discovery, no scope, no id token) and service client behind the production edge. The
// browser's part (the popup and the login form) is played by following the redirects with a
// cookie jar.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { buildBroker } from "../../src/broker/app.js";
import { beginAuthorization, completeAuthorization, refreshTokens } from "../../src/auth/oauthFlow.js";
import { createServiceClient } from "../../src/core/api/index.js";
import { productionTransport } from "../../src/core/api/production/index.js";
import { JobPoller } from "../../src/core/jobs/index.js";
import type { JobStatus } from "../../src/core/api/types.js";
import { SANDBOX_PRODUCTION_ENVIRONMENT, productionAddresses, type SignInSettings } from "../../src/core/settings/environment.js";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { CookieJar } from "../auth/helpers/oidcFlow.js";

const ORIGIN = "https://localhost:3000";
const CLIENT = { clientId: "prod-e2e-client", clientSecret: "prod-e2e-secret" };

/** A browser sends its page's origin with every cross-origin request; the broker admits only the add-in's. */
const fromAddin: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set("origin", ORIGIN);
  return fetch(input, { ...init, headers });
};

/** Plays the browser: opens the authorize address, fills the login form, returns the redirect page's address. */
async function userSignsIn(authorizeUrl: string, email: string, password: string): Promise<URL> {
  const jar = new CookieJar();
  const get = async (url: string) => {
    const res = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.store(res);
    return res;
  };
  let res = await get(authorizeUrl);
  for (let step = 0; step < 12; step++) {
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, authorizeUrl);
      if (next.origin === ORIGIN) return next;
      res = await get(next.href);
      continue;
    }
    const html = await res.text();
    const action = /<form method="post" action="([^"]+\/login)"/.exec(html)?.[1]?.replace(/&#38;/g, "&");
    assert.ok(action, `a login form (got ${res.status})`);
    res = await fetch(new URL(action, authorizeUrl), {
      method: "POST",
      redirect: "manual",
      headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password }).toString(),
    });
    jar.store(res);
  }
  throw new Error("the sign-in did not reach the redirect page");
}

describe("production topology: sandbox production profile + token broker + the add-in's sign-in and client", () => {
  let sandbox: TestSandbox;
  let broker: FastifyInstance;
  let signIn: SignInSettings;
  let apiBase: string;
  const brokerRequests: string[] = [];

  before(async () => {
    sandbox = await startTestSandbox({ profile: "production", ...CLIENT, corsOrigins: [ORIGIN] });
    broker = (await buildBroker({ upstream: `${sandbox.url}/gtm/oauth/v1/token`, ...CLIENT, allowOrigins: [ORIGIN] }, { log: false })).app;
    broker.addHook("onRequest", async (req) => void brokerRequests.push(`${req.method} ${req.url}`));
    const brokerUrl = await broker.listen({ port: 0, host: "127.0.0.1" });
    const at = productionAddresses(`${sandbox.url}/gtm`);
    apiBase = at.apiBaseUrl;
    signIn = {
      ...SANDBOX_PRODUCTION_ENVIRONMENT.signIn,
      clientId: CLIENT.clientId,
      authority: at.authority,
      authorizeUrl: at.authorizeUrl,
      tokenEndpoint: `${brokerUrl}/token`,
    };
  });
  after(async () => {
    await broker.close();
    await sandbox.close();
  });

  async function signedIn(email: string, password: string) {
    const { url, pending } = await beginAuthorization(signIn, `${ORIGIN}/redirect.html`, "login");
    assert.equal(new URL(url).searchParams.get("scope"), null);
    const landing = await userSignsIn(url, email, password);
    return completeAuthorization(signIn, pending, landing, { fetch: fromAddin });
  }

  function client(token: () => string) {
    return createServiceClient({
      baseUrl: apiBase,
      audiencesBaseUrl: `${apiBase}/studio`,
      getAccessToken: async () => token(),
      fetch: productionTransport(async (url, init) => {
        const response = await fetch(url, { method: init.method, headers: init.headers, ...(init.body !== undefined ? { body: init.body } : {}) });
        return { status: response.status, headers: response.headers, text: () => response.text() };
      }),
      retry: { baseDelayMs: 1 },
    });
  }

  it("signs in through the broker, searches with a renamed filter, enriches a renamed and an unentitled field, reads audience rows, runs a job, renews", async () => {
    let tokens = await signedIn("limited@example.com", "limited-pass");
    assert.ok(tokens.refreshToken, "a refresh token for renewal");
    assert.ok(
      brokerRequests.some((r) => r.startsWith("POST /token")),
      "the code went through the broker",
    );
    const api = client(() => tokens.accessToken);

    const page = await api.searchCompanies({ serviceContactsMin: "1" }, { size: 5 });
    assert.ok(page.items.length > 0, "the renamed filter is accepted");

    const ids = page.items.map((c) => Number(c.id)).filter(Number.isFinite);
    const records = await api.enrichCompanies(
      ids.map((companyId) => ({ companyId })),
      ["name", "numberOfContactsInService", "revenue"],
    );
    assert.equal(records.length, ids.length);
    assert.ok(
      records.every((r) => r.outcome === "matched"),
      "the unentitled field does not sink the batch",
    );
    assert.ok(
      records.some((r) => "numberOfContactsInService" in r.attributes),
      "the renamed field comes back under the contract's name",
    );
    assert.ok(records.every((r) => !("revenue" in r.attributes)));

    // Audiences belong to their account: this user's account gets one of its own.
    const created = await fetch(`${sandbox.url}/__sandbox/audiences`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Limited accounts", type: "COMPANY", recordIds: ids, account: "limited-fields" }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    const audiences = await api.listAudiences();
    assert.ok(audiences.length > 0);
    const audience = audiences[0]!;
    const rows = await api.getAudienceRows(audience.id, { page: 1, size: 25 });
    assert.ok(rows.rows.length > 0, "rows read through the studio search");

    const enrichable = audience.attributes.columns.find((c) => c.attributes.columnType === "ENRICHMENT")!;
    const jobId = await api.startAudienceEnrichment(audience.id, { scope: "AUDIENCE", columns: [enrichable.id] });
    assert.ok(jobId, "a job started");
    const poller = new JobPoller({ client: api, initialDelayMs: 20, maxDelayMs: 200 });
    const done = await new Promise<JobStatus>((resolve, reject) =>
      poller.watch(audience.id, jobId, (update) => {
        if (update.kind === "error") return reject(new Error(update.error.message));
        if (update.status.terminal) resolve(update.status);
      }),
    );
    assert.ok(done.status, "the job was followed to an answer");

    const before = tokens.accessToken;
    tokens = await refreshTokens(signIn, tokens.refreshToken!, { fetch: fromAddin });
    assert.notEqual(tokens.accessToken, before);
    assert.ok((await api.usage()) !== undefined, "the renewed token works");
  });
});
