// The client's insights (core/api/insightOperations.ts) against the copilot API's published
// description (test/fixtures/vendor/copilot.json, InsightsInterface_getCompanyInsightsByType):
// on both profiles every request it sends validates against CompanyInsightsByTypeRequest, at the
// operation table's path; an answer in the published shape is read; a request the contract
// refuses (more than 50 companies, an unknown type) is never sent.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isServiceError } from "../../src/core/api/index.js";
import { INSIGHT_TYPES, type InsightType } from "../../src/core/contract/index.js";
import { harness, rejection } from "../core/api/harness.js";
import { answer, type RecordedRequest } from "../core/api/scripted.js";
import { requestErrors, responseErrors } from "./oracle.js";

const OPERATION = "InsightsInterface_getCompanyInsightsByType";

const insight = (company: number, signalId: string) => ({
  ziCompanyId: company,
  signalId,
  signalType: "zi.cxochange",
  insightDate: "2026-11-28T00:00:00Z",
  expiresAt: "2026-12-28T00:00:00Z",
  signalPayload: {
    displayText: "New CFO",
    date: "2026-11-28T00:00:00Z",
    ziCompanyId: company,
    ziContactId: 9,
    name: "Ada Lovelace",
    title: "Chief Financial Officer",
    changeType: "Joined",
  },
});
const PUBLISHED = {
  data: [
    { id: "1", type: "CompanyInsights", attributes: { insights: [insight(1, "c-1")] } },
    { id: "2", type: "CompanyInsights", attributes: { insights: [insight(2, "c-2"), insight(2, "c-3")] } },
  ],
};

const profiles = [
  { name: "specification", options: {}, path: "/copilot/v1/companies/insights" },
  { name: "production", options: { baseUrl: "https://api.test/gtm", profile: "production" as const }, path: "/gtm/copilot/v1/companies/insights" },
];

describe("insights: the client on the copilot API's published description", () => {
  it("the test's answer is one the published schema takes", () => {
    assert.deepEqual(responseErrors("copilot", OPERATION, PUBLISHED), []);
  });

  for (const profile of profiles) {
    it(`${profile.name}: every request validates against the published request schema, and the answer is read`, async () => {
      // One client a request: the fake clock never moves here, so the rate limiter is never waited on.
      const requests: RecordedRequest[] = [];
      const send = async (ids: number[], types?: InsightType[]) => {
        const h = harness(() => answer(200, PUBLISHED), profile.options);
        const read = await h.client.companyInsights(ids, types);
        requests.push(...h.requests);
        return read;
      };
      const all = await send([1, 2]);
      await send([1, 2, 3], ["zi.funding", "zi.cxochange", "zi.account-level-intent.spike", "zi.m&a"]);
      await send(
        Array.from({ length: 50 }, (_, i) => i + 1),
        [...INSIGHT_TYPES],
      );
      assert.equal(requests.length, 3);
      for (const request of requests) {
        assert.equal(request.method, "POST");
        assert.equal(request.path, profile.path);
        assert.deepEqual(requestErrors("copilot", OPERATION, request.body), [], JSON.stringify(request.body));
      }
      assert.deepEqual(requests[0]!.body, { data: { type: "CompanyInsightsSearch", attributes: { ziCompanyIds: [1, 2] } } });
      assert.deepEqual(
        all.map((i) => [i.ziCompanyId, i.signalId, (i.signalPayload as Record<string, unknown>).name]),
        [
          [1, "c-1", "Ada Lovelace"],
          [2, "c-2", "Ada Lovelace"],
          [2, "c-3", "Ada Lovelace"],
        ],
      );
    });
  }

  it("refuses before sending what the service would not take: 51 companies, no company, an unknown type", async () => {
    const { client, requests } = harness(() => answer(200, PUBLISHED));
    for (const call of [
      () => client.companyInsights(Array.from({ length: 51 }, (_, i) => i + 1)),
      () => client.companyInsights([]),
      () => client.companyInsights([1], ["zi.weather" as InsightType]),
    ]) {
      const error = await rejection(call());
      assert.ok(isServiceError(error) && error.kind === "validation", String(error));
    }
    assert.equal(requests.length, 0);
    // The oracle itself refuses 51 companies: the contract's cap is the service's.
    assert.notDeepEqual(
      requestErrors("copilot", OPERATION, {
        data: { type: "CompanyInsightsSearch", attributes: { ziCompanyIds: Array.from({ length: 51 }, (_, i) => i + 1) } },
      }),
      [],
    );
  });

  it("an answer not in the published shape is a clear error, not data", async () => {
    const { client } = harness(() => answer(200, { data: [{ id: "1", type: "CompanyInsights", attributes: { insights: [{ signalId: "x" }] } }] }));
    const error = await rejection(client.companyInsights([1]));
    assert.ok(isServiceError(error), String(error));
  });
});
