import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { BrokerSeams } from "../../src/broker/app.js";
import type { BrokerConfigInput } from "../../src/broker/config.js";
import { ADDIN, BASIC, brokerFor, CODE, exchangeBody, fakeUpstreamPerSuite, FORM, logSink, VERIFIER } from "./helpers.js";
import { CLIENT_SECRET, type FakeUpstream } from "./upstream.js";

describe("token broker", () => {
  let upstream!: FakeUpstream;
  fakeUpstreamPerSuite((u) => (upstream = u));
  const broker = (overrides?: Partial<BrokerConfigInput>, seams?: BrokerSeams) => brokerFor(upstream, overrides, seams);

  it("adds the configured client credentials as HTTP Basic and returns the answer unchanged", async () => {
    const app = await broker();
    const res = await app.inject({ method: "POST", url: "/token", headers: FORM, payload: exchangeBody({ client_secret: "from-the-request" }) });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers["content-type"]), /^application\/json/);
    assert.deepEqual(res.json(), { access_token: "AT-upstream-issued", refresh_token: "RT-upstream-issued", token_type: "Bearer", expires_in: 900 });
    assert.equal(res.headers["access-control-allow-origin"], ADDIN);
    assert.equal(res.headers["cache-control"], "no-store");
    assert.equal(upstream.received.length, 1);
    const sent = upstream.received[0]!;
    assert.equal(sent.headers.authorization, `Basic ${BASIC}`);
    const form = new URLSearchParams(sent.body);
    assert.equal(form.get("code"), CODE);
    assert.equal(form.get("code_verifier"), VERIFIER);
    assert.equal(form.get("client_secret"), null, "a secret in the request is never forwarded");
    await app.close();
  });

  it("forwards refresh_token grants (a charset in the content type and a query string on /token are fine)", async () => {
    const app = await broker();
    const res = await app.inject({
      method: "POST",
      url: "/token?client-request-id=abc",
      headers: { ...FORM, "content-type": "application/x-www-form-urlencoded;charset=utf-8" },
      payload: "grant_type=refresh_token&refresh_token=RT-old",
    });
    assert.equal(res.statusCode, 200);
    assert.equal(new URLSearchParams(upstream.received[0]!.body).get("refresh_token"), "RT-old");
    await app.close();
  });

  it("refuses a foreign origin and a missing one before any upstream call, and answers preflights of the add-in", async () => {
    const app = await broker();
    const foreign = await app.inject({ method: "POST", url: "/token", headers: { ...FORM, origin: "https://evil.example" }, payload: exchangeBody() });
    assert.equal(foreign.statusCode, 403);
    assert.equal(foreign.headers["access-control-allow-origin"], undefined);
    const none = await app.inject({ method: "POST", url: "/token", headers: { "content-type": FORM["content-type"] }, payload: exchangeBody() });
    assert.equal(none.statusCode, 403);
    const foreignPreflight = await app.inject({
      method: "OPTIONS",
      url: "/token",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    assert.equal(foreignPreflight.statusCode, 403);
    assert.equal(upstream.received.length, 0);
    const preflight = await app.inject({
      method: "OPTIONS",
      url: "/token",
      headers: { origin: ADDIN, "access-control-request-method": "POST", "access-control-request-headers": "content-type, x-client-current-telemetry" },
    });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers["access-control-allow-headers"], "content-type, x-client-current-telemetry");
    assert.equal(preflight.headers["access-control-allow-origin"], ADDIN);
    assert.match(String(preflight.headers["access-control-allow-methods"]), /POST/);
    await app.close();
  });

  it("refuses other grant types with unsupported_grant_type, without calling upstream", async () => {
    const app = await broker();
    for (const grant of ["client_credentials", "password", "urn:ietf:params:oauth:grant-type:device_code", ""]) {
      const res = await app.inject({ method: "POST", url: "/token", headers: FORM, payload: `grant_type=${encodeURIComponent(grant)}&username=a&password=b` });
      assert.equal(res.statusCode, 400, grant);
      assert.equal(res.json().error, "unsupported_grant_type");
    }
    assert.equal(upstream.received.length, 0);
    await app.close();
  });

  it("refuses a request naming another client, and a body that is not a form", async () => {
    const app = await broker();
    const other = await app.inject({ method: "POST", url: "/token", headers: FORM, payload: exchangeBody({ client_id: "someone-else" }) });
    assert.equal(other.statusCode, 401);
    assert.equal(other.json().error, "invalid_client");
    const json = await app.inject({ method: "POST", url: "/token", headers: { ...FORM, "content-type": "application/json" }, payload: "{}" });
    assert.equal(json.statusCode, 415);
    assert.equal(upstream.received.length, 0);
    await app.close();
  });

  it("passes the upstream's 401 invalid_client through when the configured secret is wrong", async () => {
    const app = await broker({ clientSecret: "not-the-secret" });
    const res = await app.inject({ method: "POST", url: "/token", headers: FORM, payload: exchangeBody() });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().error, "invalid_client");
    assert.equal(res.headers["www-authenticate"], 'Basic realm="token"');
    await app.close();
  });

  it("answers 413 to an oversized body without calling upstream", async () => {
    const app = await broker({ tokenBodyLimit: 1024 });
    const res = await app.inject({ method: "POST", url: "/token", headers: FORM, payload: exchangeBody({ padding: "x".repeat(2000) }) });
    assert.equal(res.statusCode, 413);
    assert.equal(upstream.received.length, 0);
    await app.close();
  });

  it("limits token requests per client address, with Retry-After, on a mocked clock", async (t) => {
    t.mock.timers.enable({ apis: ["Date"], now: 1_000_000 });
    const app = await broker({ rateLimit: { token: { max: 2, windowMs: 60_000 } } });
    const send = (ip: string) => app.inject({ method: "POST", url: "/token", headers: FORM, payload: exchangeBody(), remoteAddress: ip });
    assert.equal((await send("10.0.0.1")).statusCode, 200);
    assert.equal((await send("10.0.0.1")).statusCode, 200);
    t.mock.timers.tick(15_000);
    const limited = await send("10.0.0.1");
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.headers["retry-after"], "45");
    assert.equal(limited.json().error, "too_many_requests");
    assert.equal(limited.headers["x-ratelimit-limit"], undefined, "the plugin's own headers would shadow the service's");
    assert.equal((await send("10.0.0.2")).statusCode, 200, "another address has its own budget");
    t.mock.timers.tick(45_000);
    assert.equal((await send("10.0.0.1")).statusCode, 200, "a new window starts");
    assert.equal(upstream.received.length, 4);
    await app.close();
  });

  it("relays API calls with the user's token and passes status, error documents and rate-limit headers through", async () => {
    const app = await broker();
    const res = await app.inject({
      method: "POST",
      url: "/data/v1/companies/search?page[number]=2",
      headers: { origin: ADDIN, authorization: "Bearer user-token-1", "content-type": "application/vnd.api+json" },
      payload: JSON.stringify({ data: { type: "CompanySearch", attributes: {} } }),
    });
    assert.equal(res.statusCode, 429);
    assert.equal(res.headers["retry-after"], "7");
    assert.equal(res.headers["x-ratelimit-remaining-second"], "0");
    assert.equal(res.headers["x-internal"], undefined);
    assert.equal(res.headers["content-type"], "application/vnd.api+json");
    assert.deepEqual(res.json(), { errors: [{ status: "429", code: "PFAPI0005", detail: "rate limited" }] });
    assert.match(String(res.headers["access-control-expose-headers"]), /Retry-After/);
    assert.match(String(res.headers["access-control-expose-headers"]), /X-RateLimit-Remaining-Second/);
    const sent = upstream.received[0]!;
    assert.equal(sent.url, "/gtm/data/v1/companies/search?page[number]=2");
    assert.equal(sent.headers.authorization, "Bearer user-token-1");
    assert.equal(sent.body, JSON.stringify({ data: { type: "CompanySearch", attributes: {} } }));

    const studio = await app.inject({
      method: "POST",
      url: "/studio/v1/audiences/a1/rows/actions/search",
      headers: { origin: ADDIN, authorization: "Bearer t", "content-type": "application/json" },
      payload: "{}",
    });
    assert.equal(studio.statusCode, 200);
    assert.equal(studio.json().echo.body, "{}");
    const missing = await app.inject({ method: "GET", url: "/data/v1/lookup/no-such-field", headers: { origin: ADDIN, authorization: "Bearer t" } });
    assert.equal(missing.statusCode, 404, "the service's own 404 of a relayed operation");
    assert.equal(missing.json().error.code, "ZI9998");
    const elsewhere = await app.inject({ method: "GET", url: "/admin/v1/secrets", headers: { origin: ADDIN } });
    assert.equal(elsewhere.statusCode, 404);
    assert.equal(upstream.received.length, 3);
    await app.close();
  });

  it("does not relay when no relay is configured", async () => {
    const app = await broker({ relay: undefined });
    const res = await app.inject({ method: "GET", url: "/data/v1/users/usage", headers: { origin: ADDIN, authorization: "Bearer t" } });
    assert.equal(res.statusCode, 404);
    assert.equal(upstream.received.length, 0);
    await app.close();
  });

  it("answers health checks without an origin", async () => {
    const app = await broker();
    const res = await app.inject({ method: "GET", url: "/health" });
    assert.equal(res.statusCode, 200);
    await app.close();
  });

  it("logs requests without the secret, codes, verifiers or tokens", async () => {
    const { stream, text } = logSink();
    const app = await broker({}, { log: { level: "trace", stream } });
    await app.inject({ method: "POST", url: "/token", headers: FORM, payload: exchangeBody() });
    await app.inject({
      method: "POST",
      url: "/token?code=query-code-777",
      headers: { ...FORM, authorization: "Basic aGk6dGhlcmU=" },
      payload: "grant_type=refresh_token&refresh_token=RT-secret-refresh",
    });
    await app.inject({ method: "POST", url: "/token", headers: FORM, payload: "grant_type=password&password=hunter2-pass" });
    await app.inject({ method: "POST", url: "/token", headers: FORM, payload: `code=${"y".repeat(40_000)}` });
    await app.inject({
      method: "GET",
      url: "/studio/v1/audiences?filter[searchText]=private",
      headers: { origin: ADDIN, authorization: "Bearer user-bearer-token-999" },
    });
    await app.close();
    const log = text();
    assert.ok(log.includes('"url":"/token"'), "requests are logged");
    assert.ok(log.includes('"statusCode":200') && log.includes('"statusCode":413'), "answers are logged");
    for (const secret of [
      CLIENT_SECRET,
      CODE,
      VERIFIER,
      "AT-upstream-issued",
      "RT-upstream-issued",
      "RT-secret-refresh",
      "query-code-777",
      "aGk6dGhlcmU",
      "hunter2-pass",
      "user-bearer-token-999",
      "yyyyyyyy",
      "private",
      BASIC,
    ]) {
      assert.ok(!log.includes(secret), `the log must not contain ${secret}`);
    }
  });
});
