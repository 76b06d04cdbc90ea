// The broker attacked as an outsider would: traversal out of the relayed paths, forged
// X-Forwarded-For, repeated OAuth parameters, foreign redirect URIs and origins, and an
// upstream that echoes secrets, floods, stalls or says nothing. The fake upstream records
// what reached it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ADDIN, BASIC, brokerFor, exchangeBody, fakeUpstreamPerSuite, FORM, logSink, rawRequest } from "./helpers.js";
import { FakeClock } from "../core/api/scripted.js";
import { CLIENT_SECRET, type FakeUpstream } from "./upstream.js";

describe("broker security", () => {
  let upstream!: FakeUpstream;
  fakeUpstreamPerSuite((u) => (upstream = u));

  it("relays no path that leaves /data/v1/ or /studio/v1/ once decoded and normalised (404 before sending)", async () => {
    const app = await brokerFor(upstream);
    const base = await app.listen({ port: 0, host: "127.0.0.1" });
    const headers = { origin: ADDIN, authorization: "Bearer user-token-1" };
    try {
      for (const path of [
        "/data/v1/%2e%2e/%2e%2e/%2e%2e/admin/secrets",
        "/data/v1/.%2E/.%2e/.%2E/admin/secrets",
        "/data/v1/%2E%2E/%2E%2E/%2E%2E/admin/secrets",
        "/data/v1/..\\..\\..\\admin\\secrets",
        "/studio/v1/..%5c..%5c..%5cadmin%5csecrets",
        "/data/v1/companies%2f..%2f..%2f..%2fadmin%2fsecrets",
        "/data/v1/./../../admin/secrets",
        "/studio/v1/%2e/x",
        // Path parameters: Tomcat, Jetty and Spring strip ";..." from a segment before resolving it.
        "/data/v1/..;/..;/..;/admin/secrets",
        "/data/v1/%2e%2e;/%2e%2e;/admin",
        "/data/v1/..%3b/..%3b/admin",
        "/data/v1/..;jsessionid=x/admin",
        "/data/v1/.;/x",
        // Full-width and small full stops, percent-encoded: a Unicode-normalising server reads them as dots.
        "/data/v1/%EF%BC%8E%EF%BC%8E/%EF%BC%8E%EF%BC%8E/admin",
        "/data/v1/.%EF%BC%8E/admin",
        "/data/v1/%EF%B9%92%EF%B9%92/admin",
        "/data/v1/%25EF%25BC%258E%25EF%25BC%258E/admin",
      ]) {
        const answer = await rawRequest(base, "GET", path, headers);
        assert.equal(answer.status, 404, path);
        assert.equal(JSON.parse(answer.body).error, "not_found", path);
      }
      const malformed = await rawRequest(base, "GET", "/data/v1/%zz/../../admin", headers);
      assert.ok([400, 404].includes(malformed.status), "a malformed escape is refused too");
      assert.deepEqual(
        upstream.received.map((r) => r.url),
        [],
        "nothing reached the service host",
      );
      const fine = await rawRequest(base, "GET", "/data/v1/users/usage?filter[searchText]=a%2Fb", headers);
      assert.equal(fine.status, 200);
      assert.deepEqual(
        upstream.received.map((r) => r.url),
        ["/gtm/data/v1/users/usage?filter[searchText]=a%2Fb"],
      );
    } finally {
      await app.close();
    }
  });

  it("takes the client address from the configured proxy hops only, counted from the right", async () => {
    const log = logSink();
    const app = await brokerFor(upstream, { trustProxy: ["10.0.0.9"], rateLimit: { token: { max: 3, windowMs: 60_000 } } }, { log: { stream: log.stream } });
    const send = (from: string, forwarded: string) =>
      app.inject({ method: "POST", url: "/token", headers: { ...FORM, "x-forwarded-for": forwarded }, payload: exchangeBody(), remoteAddress: from });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await send("10.0.0.9", `198.18.0.${i}, 203.0.113.7`)).statusCode);
    assert.deepEqual(statuses, [200, 200, 200, 429, 429, 429], "rotating forged entries on the left do not reset the limit");
    assert.equal((await send("10.0.0.10", "203.0.113.8")).statusCode, 200, "a peer that is not the proxy is the client itself");
    await app.close();
    assert.ok(log.text().includes('"remoteAddress":"203.0.113.7"'), "the logged address is the one the proxy saw");
    assert.ok(log.text().includes('"remoteAddress":"10.0.0.10"'));
    assert.ok(!log.text().includes("198.18.0."), "a forged address is never logged");
  });

  it("answers 400 invalid_request to a repeated OAuth parameter, without calling upstream", async () => {
    const app = await brokerFor(upstream);
    for (const payload of [
      "grant_type=refresh_token&refresh_token=RT-old&grant_type=client_credentials",
      `${exchangeBody()}&client_id=someone-else`,
      `${exchangeBody()}&code=second-code`,
      "grant_type=refresh_token&refresh_token=RT-1&refresh_token=RT-2",
    ]) {
      const res = await app.inject({ method: "POST", url: "/token", headers: FORM, payload });
      assert.equal(res.statusCode, 400, payload);
      assert.equal(res.json().error, "invalid_request", payload);
      assert.match(res.json().error_description, /more than once/);
    }
    assert.equal(upstream.received.length, 0);
    await app.close();
  });

  it("forwards only redirect URIs of the add-in's own pages (derived from the allowed origin, or configured)", async () => {
    const derived = await brokerFor(upstream);
    for (const uri of [`${ADDIN}/redirect.html`, `${ADDIN}/bizdata/dialog.html`]) {
      const res = await derived.inject({ method: "POST", url: "/token", headers: FORM, payload: exchangeBody({ redirect_uri: uri }) });
      assert.equal(res.statusCode, 200, uri);
    }
    for (const uri of [
      "https://evil.example/redirect.html",
      `${ADDIN}/other.html`,
      `${ADDIN}.evil.example/redirect.html`,
      "http://addin.example.com/redirect.html",
      `${ADDIN}/redirect.html?x=1`,
      `${ADDIN}/redirect.html#x`,
    ]) {
      const res = await derived.inject({ method: "POST", url: "/token", headers: FORM, payload: exchangeBody({ redirect_uri: uri }) });
      assert.equal(res.statusCode, 400, uri);
      assert.equal(res.json().error, "invalid_request", uri);
    }
    await derived.close();
    assert.equal(upstream.received.length, 2);

    const configured = await brokerFor(upstream, { redirectUris: [`${ADDIN}/app/dialog.html`] });
    const pinned = await configured.inject({
      method: "POST",
      url: "/token",
      headers: FORM,
      payload: exchangeBody({ redirect_uri: `${ADDIN}/app/dialog.html` }),
    });
    assert.equal(pinned.statusCode, 200);
    const other = await configured.inject({ method: "POST", url: "/token", headers: FORM, payload: exchangeBody({ redirect_uri: `${ADDIN}/redirect.html` }) });
    assert.equal(other.statusCode, 400);
    await configured.close();
    assert.equal(upstream.received.length, 3);
  });

  describe("origins", () => {
    const FOREIGN = [
      "https://addin.example.com.evil.example",
      "https://addin.example.com:8443",
      "http://addin.example.com",
      "null",
      "https://evil.example",
      "https://addin.example.co",
    ];

    it("refuses look-alike hosts, another port or scheme and null on /token, before upstream", async () => {
      const app = await brokerFor(upstream);
      for (const origin of FOREIGN) {
        const res = await app.inject({ method: "POST", url: "/token", headers: { ...FORM, origin }, payload: exchangeBody() });
        assert.equal(res.statusCode, 403, origin);
        assert.equal(res.headers["access-control-allow-origin"], undefined, origin);
        const preflight = await app.inject({ method: "OPTIONS", url: "/token", headers: { origin, "access-control-request-method": "POST" } });
        assert.equal(preflight.statusCode, 403, `preflight ${origin}`);
        assert.equal(preflight.headers["access-control-allow-origin"], undefined, origin);
      }
      assert.equal(upstream.received.length, 0);
      await app.close();
    });

    it("refuses the same origins on the relay paths, before upstream", async () => {
      const app = await brokerFor(upstream);
      for (const origin of FOREIGN) {
        for (const [method, url] of [
          ["GET", "/data/v1/users/usage"],
          ["POST", "/studio/v1/audiences/a1/rows/actions/search"],
        ] as const) {
          const res = await app.inject({
            method,
            url,
            headers: { origin, authorization: "Bearer user-token-1", "content-type": "application/json" },
            ...(method === "POST" ? { payload: "{}" } : {}),
          });
          assert.equal(res.statusCode, 403, `${origin} ${url}`);
          assert.equal(res.headers["access-control-allow-origin"], undefined);
        }
        const preflight = await app.inject({
          method: "OPTIONS",
          url: "/data/v1/companies/enrich",
          headers: { origin, "access-control-request-method": "POST" },
        });
        assert.equal(preflight.statusCode, 403, `preflight ${origin}`);
      }
      assert.equal(upstream.received.length, 0);
      await app.close();
    });

    it("answers the add-in's preflights with Vary on Origin and the asked headers (a cache must not reuse another page's answer)", async () => {
      const app = await brokerFor(upstream);
      const preflight = await app.inject({
        method: "OPTIONS",
        url: "/data/v1/companies/enrich",
        headers: {
          origin: ADDIN,
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, content-type, x-bizdata-priority",
        },
      });
      assert.equal(preflight.statusCode, 204);
      assert.equal(preflight.headers["access-control-allow-origin"], ADDIN);
      assert.match(String(preflight.headers["access-control-allow-headers"]), /x-bizdata-priority/);
      assert.match(String(preflight.headers.vary), /Origin/);
      assert.match(String(preflight.headers.vary), /Access-Control-Request-Headers/);
      await app.close();
    });
  });

  describe("upstream answers", () => {
    const credentialForms = [CLIENT_SECRET, BASIC, `Basic ${BASIC}`];

    it("passes on only the OAuth error fields, never what the upstream echoes", async () => {
      for (const [path, status, error] of [
        ["/bad/echo", 400, "invalid_grant"],
        ["/bad/echo-in-description", 400, "invalid_client"],
        ["/bad/html", 502, "temporarily_unavailable"],
      ] as const) {
        const app = await brokerFor(upstream, { upstream: `${upstream.url}${path}` });
        const res = await app.inject({ method: "POST", url: "/token", headers: FORM, payload: exchangeBody() });
        await app.close();
        assert.equal(res.statusCode, status, path);
        const body = res.json() as Record<string, unknown>;
        assert.equal(body.error, error, path);
        assert.deepEqual(
          Object.keys(body).filter((k) => !["error", "error_description", "error_uri"].includes(k)),
          [],
          path,
        );
        for (const secret of credentialForms) assert.ok(!res.body.includes(secret), `${path} must not pass on ${secret}`);
      }
    });

    it("passes on only the token answer's RFC 6749 fields of a 200, never what the upstream echoes", async () => {
      const app = await brokerFor(upstream, { upstream: `${upstream.url}/bad/echo-ok` });
      const res = await app.inject({ method: "POST", url: "/token", headers: FORM, payload: exchangeBody() });
      await app.close();
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), {
        access_token: "AT-upstream-issued",
        token_type: "Bearer",
        expires_in: 900,
        refresh_token: "RT-upstream-issued",
        scope: "api:data:company",
      });
      for (const secret of credentialForms) assert.ok(!res.body.includes(secret), `must not pass on ${secret}`);
    });

    it("answers 502 to an oversized answer, on /token and on the relay", async () => {
      const token = await brokerFor(upstream, { upstream: `${upstream.url}/bad/huge` });
      const tooBig = await token.inject({ method: "POST", url: "/token", headers: FORM, payload: exchangeBody() });
      await token.close();
      assert.equal(tooBig.statusCode, 502);
      assert.ok(tooBig.body.length < 1000);
      const relay = await brokerFor(upstream, { relayAnswerLimit: 64 * 1024 });
      const relayed = await relay.inject({ method: "GET", url: "/data/v1/users/usage", headers: { origin: ADDIN, authorization: "Bearer bad-huge" } });
      await relay.close();
      assert.equal(relayed.statusCode, 502);
      assert.ok(relayed.body.length < 1000);
    });

    // The upstream's time limit runs on the broker's clock: the test moves it once the upstream
    // has shown the behaviour (the request received, or the first part of the answer sent),
    // first to just short of the limit (the call still waits), then to the limit.
    const LIMIT_MS = 3000;
    const expiring = () => {
      const clock = new FakeClock(0);
      let headersArrived!: () => void;
      const answerBegan = new Promise<void>((resolve) => (headersArrived = resolve));
      const seams = {
        clock,
        fetch: (async (...args: Parameters<typeof fetch>) => {
          const response = await fetch(...args);
          headersArrived();
          return response;
        }) as typeof fetch,
      };
      /** Moves the clock to the limit, checking the call is still waiting 1 ms before it. */
      const timeUp = async (answer: Promise<unknown>) => {
        let answered = false;
        void answer.then(() => (answered = true));
        await clock.advanceTo(LIMIT_MS - 1);
        assert.equal(answered, false, "the call waits until its time limit");
        await clock.advanceTo(LIMIT_MS);
      };
      return { seams, answerBegan, timeUp };
    };

    it("leaves no time limit waiting once the upstream has answered (token and relay)", async () => {
      const clock = new FakeClock(0);
      const app = await brokerFor(upstream, { upstreamTimeoutMs: LIMIT_MS }, { clock });
      const token = await app.inject({ method: "POST", url: "/token", headers: FORM, payload: exchangeBody() });
      const relayed = await app.inject({ method: "GET", url: "/data/v1/users/usage", headers: { origin: ADDIN, authorization: "Bearer t" } });
      await app.close();
      assert.equal(token.statusCode, 200);
      assert.notEqual(relayed.statusCode, 504);
      assert.equal(clock.pendingTimers, 0, "each call's time limit ends with the call");
    });

    for (const where of ["token", "relay"] as const) {
      const send = (app: Awaited<ReturnType<typeof brokerFor>>) =>
        where === "token"
          ? app.inject({ method: "POST", url: "/token", headers: FORM, payload: exchangeBody() })
          : app.inject({ method: "GET", url: "/data/v1/users/usage", headers: { origin: ADDIN, authorization: `Bearer bad-${upstreamPath}` } });
      let upstreamPath = "";

      it(`answers 502 when the upstream stalls in the middle of its answer (${where})`, async () => {
        upstreamPath = "stall";
        const { seams, answerBegan, timeUp } = expiring();
        const app = await brokerFor(upstream, { upstream: `${upstream.url}/bad/stall`, upstreamTimeoutMs: LIMIT_MS }, seams);
        const stalled = upstream.stalled();
        const answer = send(app);
        await Promise.all([stalled, answerBegan]);
        await timeUp(answer);
        const res = await answer;
        await app.close();
        assert.equal(res.statusCode, 502);
        assert.ok(["temporarily_unavailable", "bad_gateway"].includes(res.json().error));
      });

      it(`answers 504 when the upstream says nothing within the time limit (${where})`, async () => {
        upstreamPath = "silent";
        const { seams, timeUp } = expiring();
        const app = await brokerFor(upstream, { upstream: `${upstream.url}/bad/silent`, upstreamTimeoutMs: LIMIT_MS }, seams);
        const reached = upstream.nextRequest();
        const answer = send(app);
        await reached;
        await timeUp(answer);
        const res = await answer;
        await app.close();
        assert.equal(res.statusCode, 504);
        assert.equal(res.json().error, "gateway_timeout");
      });
    }
  });
});
