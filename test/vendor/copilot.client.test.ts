// The client's research and lookalike operations against the copilot API's published description
// (test/fixtures/vendor/copilot.json): each request the production client sends is the published
// method and path, its query parameters are the operation's own with values its parameter schemas
// take (required ones present), and its body validates against the request schema. The
// description publishes no example for these six operations, so the answers read here are
// documents written for the test and first checked against the published answer schemas.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import type { ServiceClient } from "../../src/core/api/index.js";
import { harness } from "../core/api/harness.js";
import { answer, type RecordedRequest } from "../core/api/scripted.js";
import { requestErrors, responseErrors, schemaErrors, vendorOperation, vendorOperationIds, type VendorParameter } from "./oracle.js";

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);

/** A query or path value as the parameter's schema types it (text on the wire). */
function typed(value: string, schema: Record<string, unknown>): unknown {
  if (schema.type === "integer" && /^-?\d+$/.test(value)) return Number(value);
  if (schema.type === "boolean" && (value === "true" || value === "false")) return value === "true";
  return value;
}

/** Why a parameter's value is not one the published schema takes (int32 and int64 as ranges). */
function parameterErrors(parameter: VendorParameter, value: string): string[] {
  const schema = parameter.schema ?? {};
  const ref = schema.$ref;
  const v = typed(value, schema);
  if (typeof ref === "string") return schemaErrors("copilot", ref.split("/").pop()!, v, "request");
  const errors: string[] = [];
  const check = ajv.compile({ ...schema, format: undefined });
  if (!check(v)) errors.push(...(check.errors ?? []).map((e) => `${parameter.name} ${e.message ?? ""}`));
  const limit = schema.format === "int32" ? 2 ** 31 - 1 : schema.format === "int64" ? Number.MAX_SAFE_INTEGER : undefined;
  if (limit !== undefined && typeof v === "number" && Math.abs(v) > limit) errors.push(`${parameter.name} is out of ${String(schema.format)} range`);
  return errors;
}

/** Everything about one sent request that the published operation does not take. */
function conformance(operationId: string, request: RecordedRequest): string[] {
  const op = vendorOperation("copilot", operationId);
  const errors: string[] = [];
  if (request.method !== op.method) errors.push(`method ${request.method}, published ${op.method}`);
  const names: string[] = [];
  const template = new RegExp(`^/copilot${op.path.replace("/copilot", "").replace(/\{([^}]+)\}/g, (_, name: string) => (names.push(name), "([^/]+)"))}$`);
  const match = template.exec(request.path.replace(/^\/gtm/, ""));
  if (!match) return [...errors, `path ${request.path} is not ${op.path}`];
  names.forEach((name, i) =>
    errors.push(
      ...parameterErrors(
        op.parameters.find((p) => p.in === "path" && p.name === name)!,
        decodeURIComponent(match[i + 1]!),
      ),
    ),
  );
  for (const [name, value] of request.query) {
    const parameter = op.parameters.find((p) => p.in === "query" && p.name === name);
    if (!parameter) errors.push(`${name} is not a parameter of ${operationId}`);
    else errors.push(...parameterErrors(parameter, value));
  }
  for (const p of op.parameters) if (p.required && p.in === "query" && !request.query.has(p.name)) errors.push(`${p.name} is required`);
  errors.push(...requestErrors("copilot", operationId, request.body));
  return errors;
}

const ANSWERS = {
  AccountSummaryInterface_getAccountSummary: { data: { id: "344589814", type: "AccountSummary", attributes: { markdown: "# ZoomInfo\n\n- Revenue: $1B" } } },
  AccountSummaryInterface_askAccountSummaryQuestion: {
    data: { id: "344589814", type: "AccountSummaryQuestion", attributes: { answer: "About 3,500 employees." } },
  },
  CompanyLookalikesInterface_companyLookalikes: {
    data: [
      {
        id: "10",
        type: "CompanyLookalike",
        attributes: {
          companyName: "Apollo",
          score: 0.93,
          rank: 1,
          industry: "Software",
          revenueRange: "$100M - $250M",
          employeeRange: "500 - 1,000",
          country: "United States",
        },
      },
    ],
  },
  ContactLookalikesInterface_getContactLookalikes: {
    data: [
      {
        id: "77",
        type: "ContactLookalike",
        attributes: { rank: 1, score: 0.88, lookalikePersonBrief: "Head of Sales Operations, Software" },
        meta: { referencePersonId: 1234567890, referencePersonBrief: "VP Sales Operations, Software" },
      },
    ],
  },
  ContactRecommendationsInterface_getContactRecommendations: {
    data: [
      {
        id: "78",
        type: "ContactRecommendation",
        attributes: { rank: 1, score: 1.02, reRankingScore: -1.0, recommendedPersonBrief: "Chief Revenue Officer" },
        meta: { sourceType: "COLD_START_CONTACTS", referencePersonId: 555, referencePersonBrief: "VP Sales" },
      },
    ],
  },
  InsightsInterface_getCompanyInsightsByType: {
    data: [
      {
        id: "344589814",
        type: "CompanyInsights",
        attributes: {
          insights: [
            {
              ziCompanyId: 344589814,
              signalId: "f-1",
              signalType: "zi.funding",
              insightDate: "2026-11-27T00:00:00Z",
              expiresAt: "2026-12-27T00:00:00Z",
              signalPayload: { displayText: "Raised $20M", date: "2026-11-27T00:00:00Z", type: "Series B", amount: "$20M", investors: ["Acme Ventures"] },
            },
          ],
        },
      },
    ],
  },
} as const;
type OperationId = keyof typeof ANSWERS;

/** Each operation's calls: the filters and sizes the add-in sends, and what the client reads. */
const CALLS: Record<OperationId, [string, (c: ServiceClient) => Promise<unknown>, unknown][]> = {
  AccountSummaryInterface_getAccountSummary: [
    ["a briefing", (c) => c.accountBriefing("344589814"), { companyId: "344589814", markdown: "# ZoomInfo\n\n- Revenue: $1B" }],
  ],
  AccountSummaryInterface_askAccountSummaryQuestion: [
    [
      "a question",
      (c) => c.askAccount("344589814", "How many employees?"),
      { companyId: "344589814", question: "How many employees?", answer: "About 3,500 employees." },
    ],
  ],
  CompanyLookalikesInterface_companyLookalikes: [
    ["by id", (c) => c.companyLookalikes({ companyId: "344589814" }), undefined],
    [
      "by name, every filter, 100",
      (c) =>
        c.companyLookalikes({
          companyName: "ZoomInfo Technologies LLC",
          sameCountry: true,
          sameIndustry: false,
          sameRevenueRange: true,
          sameEmployeeRange: true,
          size: 100,
        }),
      undefined,
    ],
    ["one", (c) => c.companyLookalikes({ companyId: "1", size: 1 }), undefined],
  ],
  ContactLookalikesInterface_getContactLookalikes: [
    [
      "anywhere",
      (c) => c.contactLookalikes({ referencePersonId: "1234567890" }),
      [{ contactId: "77", rank: 1, score: 0.88, brief: "Head of Sales Operations, Software", referencePersonId: "1234567890" }],
    ],
    ["at one company, 10", (c) => c.contactLookalikes({ referencePersonId: "1234567890", targetCompanyId: "344589814", size: 10 }), undefined],
  ],
  ContactRecommendationsInterface_getContactRecommendations: [
    ["prospecting", (c) => c.contactRecommendations({ companyId: "344589814", useCase: "PROSPECTING" }), undefined],
    ["deal acceleration, 5", (c) => c.contactRecommendations({ companyId: "344589814", useCase: "DEAL_ACCELERATION", size: 5 }), undefined],
    [
      "renewal and growth",
      (c) => c.contactRecommendations({ companyId: "344589814", useCase: "RENEWAL_AND_GROWTH" }),
      [{ contactId: "78", companyId: "344589814", rank: 1, score: 1.02, reRankingScore: -1, brief: "Chief Revenue Officer" }],
    ],
  ],
  InsightsInterface_getCompanyInsightsByType: [
    ["every type", (c) => c.companyInsights([344589814]), undefined],
    ["funding and leadership changes", (c) => c.companyInsights([344589814, 1], ["zi.funding", "zi.cxochange"]), undefined],
  ],
};

describe("the production client on the copilot API's published description", () => {
  it("covers every operation of the fixture", () => {
    assert.deepEqual(Object.keys(CALLS).sort(), vendorOperationIds("copilot").sort());
  });

  it("the test's answers are valid answers of the published schemas", () => {
    for (const [operationId, doc] of Object.entries(ANSWERS)) assert.deepEqual(responseErrors("copilot", operationId, doc), [], operationId);
  });

  for (const [operationId, calls] of Object.entries(CALLS) as [OperationId, (typeof CALLS)[OperationId]][]) {
    for (const [what, call, expected] of calls) {
      it(`${operationId}, ${what}: sent as published, its answer read`, async () => {
        const { client, requests } = harness(() => answer(200, ANSWERS[operationId], { "content-type": "application/vnd.api+json" }), {
          baseUrl: "https://api.test/gtm",
          profile: "production",
        });
        const read = await call(client);
        assert.equal(requests.length, 1);
        assert.deepEqual(conformance(operationId, requests[0]!), [], `${requests[0]!.method} ${requests[0]!.url}`);
        if (expected !== undefined) assert.deepEqual(read, expected);
        else assert.ok(Array.isArray(read) && read.length === 1);
      });
    }
  }

  it("the checks catch what the service would not take (a name beside the wrong parameter, a size above 100, no use case)", () => {
    const request = (url: string, body?: unknown): RecordedRequest => {
      const u = new URL(url);
      return { url, path: u.pathname, query: u.searchParams, method: body === undefined ? "GET" : "POST", headers: {}, body, at: 0 };
    };
    assert.notDeepEqual(
      conformance("CompanyLookalikesInterface_companyLookalikes", request("https://x/gtm/copilot/v1/companies/lookalikes?filter[name]=Acme")),
      [],
    );
    assert.notDeepEqual(
      conformance("CompanyLookalikesInterface_companyLookalikes", request("https://x/gtm/copilot/v1/companies/lookalikes?filter[companyId]=1&page[size]=101")),
      [],
    );
    assert.notDeepEqual(
      conformance(
        "ContactRecommendationsInterface_getContactRecommendations",
        request("https://x/gtm/copilot/v1/contacts/recommendations?filter[ziCompanyId]=1"),
      ),
      [],
    );
    assert.notDeepEqual(
      conformance(
        "ContactRecommendationsInterface_getContactRecommendations",
        request("https://x/gtm/copilot/v1/contacts/recommendations?filter[ziCompanyId]=1&filter[useCaseType]=UPSELL"),
      ),
      [],
    );
    assert.notDeepEqual(conformance("AccountSummaryInterface_getAccountSummary", request("https://x/gtm/copilot/v1/companies/acme/account-summary")), []);
    assert.notDeepEqual(
      conformance(
        "AccountSummaryInterface_askAccountSummaryQuestion",
        request("https://x/gtm/copilot/v1/companies/1/account-summary/actions/ask", { data: { type: "Question", attributes: { question: "?" } } }),
      ),
      [],
    );
  });
});
