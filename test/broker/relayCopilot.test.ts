// The relay forwards the copilot API's research and lookalike paths (docs/research.md) like the
// data and audience paths: the user's token, the service's answer passed through; paths that
// leave /copilot/v1/ once decoded are still refused before any upstream call.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ADDIN, brokerFor, fakeUpstreamPerSuite } from "./helpers.js";
import type { FakeUpstream } from "./upstream.js";

describe("relay of the copilot API", () => {
  let upstream!: FakeUpstream;
  fakeUpstreamPerSuite((u) => (upstream = u));

  it("relays /copilot/v1/ GETs and POSTs to the service base with the user's token", async () => {
    const app = await brokerFor(upstream);
    const lookalikes = await app.inject({
      method: "GET",
      url: "/copilot/v1/companies/lookalikes?filter[companyId]=12&page[size]=5",
      headers: { origin: ADDIN, authorization: "Bearer user-token-2" },
    });
    // The fake service has no such operation: its own 404 comes back, not the broker's refusal.
    assert.equal(lookalikes.statusCode, 404);
    assert.equal(lookalikes.json().error.code, "ZI9998");
    const ask = await app.inject({
      method: "POST",
      url: "/copilot/v1/companies/12/account-summary/actions/ask",
      headers: { origin: ADDIN, authorization: "Bearer user-token-2", "content-type": "application/vnd.api+json" },
      payload: JSON.stringify({ data: { type: "AccountSummaryQuestionRequest", attributes: { question: "Revenue?" } } }),
    });
    assert.equal(ask.statusCode, 404);
    assert.deepEqual(
      upstream.received.map((r) => [r.method, r.url, r.headers.authorization]),
      [
        ["GET", "/gtm/copilot/v1/companies/lookalikes?filter[companyId]=12&page[size]=5", "Bearer user-token-2"],
        ["POST", "/gtm/copilot/v1/companies/12/account-summary/actions/ask", "Bearer user-token-2"],
      ],
    );
    assert.equal(upstream.received[1]!.body, JSON.stringify({ data: { type: "AccountSummaryQuestionRequest", attributes: { question: "Revenue?" } } }));
    await app.close();
  });

  it("refuses a path that leaves /copilot/v1/ once decoded, before any upstream call", async () => {
    const app = await brokerFor(upstream);
    const escape = await app.inject({ method: "GET", url: "/copilot/v1/%2e%2e/%2e%2e/oauth/v1/token", headers: { origin: ADDIN, authorization: "Bearer t" } });
    assert.equal(escape.statusCode, 404);
    assert.equal(escape.json().error, "not_found");
    assert.equal(upstream.received.length, 0);
    await app.close();
  });
});
