// Validation parity: the client refuses before sending exactly what the sandbox answers 400 to,
// with the same issues (searches, page queries, enrichment, audience enrichment), against the
// real sandbox over HTTP (in-process, port 0).
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { createServiceClient, errorFromResponse, ServiceError, type ServiceClientOptions } from "../../../src/core/api/index.js";
import { useSandbox } from "../../helpers/sandbox.js";
import { rejection } from "./harness.js";

const ENRICH = "POST /data/v1/companies/enrich";

const sb = useSandbox();
let token: string;

function client(options: Partial<ServiceClientOptions> = {}) {
  return createServiceClient({
    baseUrl: sb.url,
    getAccessToken: async () => token,
    rateLimit: { perSecond: 2000 },
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    ...options,
  });
}

before(async () => {
  token = await sb.token();
  await sb.setAccount("default", 1_000_000);
});

describe("validation parity with the sandbox", () => {
  type Query = { page?: number; size?: number; sort?: string };
  const searchCases: Array<[string, "company" | "contact", Record<string, unknown>, Query?]> = [
    ["valid", "company", { companyName: "Acme", revenueMin: 1, revenueMax: 100 }],
    ["valid contact", "contact", { jobTitle: "CFO", contactAccuracyScoreMin: 80 }],
    ["unknown field", "company", { nickname: "x" }],
    ["maxLength", "company", { companyName: "x".repeat(501) }],
    ["maxItems", "company", { companyTicker: Array.from({ length: 51 }, () => "T") }],
    ["type text", "company", { companyName: 5 }],
    ["type boolean", "company", { excludeDefunctCompanies: "yes" }],
    ["type integer", "company", { revenueMin: 1.5 }],
    ["minimum", "company", { fundingAmountMin: -1 }],
    ["maximum", "company", { revenueMax: 2147483648 }],
    ["budget max minimum", "company", { itDepartmentBudgetMax: 0 }],
    ["date", "company", { fundingStartDate: "2024-02-30" }],
    ["date form", "company", { engagementStartDate: "01/02/2024" }],
    ["zipCode", "company", { zipCode: "12$45" }],
    ["fourDigitCodes", "company", { sicCodes: "12,345" }],
    ["number text", "company", { employeeRangeMin: "many" }],
    ["choice", "company", { zipCode: "10001", zipCodeRadiusMiles: 30 }],
    ["choiceList", "company", { companyType: "public,alien" }],
    ["choice text", "company", { locationSearchType: "Moon" }],
    ["array values", "company", { engagementType: ["fax"] }],
    ["minAboveMax", "company", { revenueMin: 10, revenueMax: 5 }],
    ["minAboveMax text", "company", { employeeRangeMin: "100", employeeRangeMax: "10" }],
    ["dateOrder", "company", { fundingStartDate: "2024-05-01", fundingEndDate: "2024-01-01" }],
    ["requires start", "company", { engagementEndDate: "2024-01-01" }],
    ["requires zip", "company", { zipCodeRadiusMiles: 25 }],
    ["requires parent", "company", { subUnitTypes: "DIVISION" }],
    ["exclusive", "company", { recentFundingRoundTypes: ["Seed"], allFundingRoundTypes: ["Seed"] }],
    ["several", "company", { companyName: "x".repeat(501), revenueMin: -1, nickname: 1 }],
    ["contact range", "contact", { contactAccuracyScoreMin: 50 }],
    ["contact minAboveMax", "contact", { contactAccuracyScoreMin: 90, contactAccuracyScoreMax: 80 }],
    ["page 0", "company", {}, { page: 0 }],
    ["page 101", "company", {}, { page: 101 }],
    ["size 0", "company", {}, { size: 0 }],
    ["size 101", "company", {}, { size: 101 }],
    ["sort", "company", {}, { sort: "-shoeSize" }],
    ["contact sort", "contact", {}, { sort: "revenue" }],
    ["query and body", "company", { revenueMin: 5, revenueMax: 1 }, { page: 0 }],
  ];

  const verdict = (issues: Array<{ pointer?: string; parameter?: string; code: string; message: string }>) =>
    issues.map((i) => `${i.pointer ?? `?${i.parameter}`} ${i.code} ${i.message}`).sort();

  async function sandboxSays(path: string, body: unknown, query = "") {
    const res = await fetch(`${sb.url}${path}${query}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/vnd.api+json" },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, error: res.status === 200 ? undefined : errorFromResponse({ status: res.status, headers: res.headers, body: text }) };
  }

  for (const [name, kind, filters, query = {}] of searchCases) {
    it(`search: ${name}`, async () => {
      sb.resetStats();
      const c = client();
      const run = kind === "company" ? c.searchCompanies(filters as never, query) : c.searchContacts(filters as never, query);
      const clientError = await run.then(
        () => undefined,
        (e: unknown) => e,
      );
      const sentByClient = sb.requests();
      const qs = Object.entries({ "page[number]": query.page, "page[size]": query.size, sort: query.sort })
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
        .join("&");
      const path = kind === "company" ? "/data/v1/companies/search" : "/data/v1/contacts/search";
      const server = await sandboxSays(path, { data: { type: kind === "company" ? "CompanySearch" : "ContactSearch", attributes: filters } }, qs ? `?${qs}` : "");
      if (server.status === 200) {
        assert.equal(clientError, undefined, `the client refused what the sandbox accepts: ${String(clientError)}`);
        assert.equal(sentByClient, 1);
        return;
      }
      assert.equal(server.status, 400);
      assert.ok(clientError instanceof ServiceError && clientError.kind === "validation", `client accepted what the sandbox refuses`);
      assert.equal(sentByClient, 0, "an invalid request reached the network");
      assert.deepEqual(verdict(clientError.issues), verdict(server.error!.issues));
      // The sandbox's answer, read by the client's factory, names the same fields with the same labels.
      assert.deepEqual(
        clientError.issues.map((i) => i.label).sort(),
        server.error!.issues.map((i) => i.label).sort(),
      );
    });
  }

  const enrichCases: Array<[string, unknown[], unknown[]]> = [
    ["valid", [{ companyId: 1 }, { companyName: "Acme", companyCountry: "US" }], ["name"]],
    ["unknown output field", [{ companyId: 1 }], ["name", "shoeSize"]],
    ["no output fields", [{ companyId: 1 }], []],
    ["id below 1", [{ companyId: 0 }], ["name"]],
    ["id not a number", [{ companyId: "12" }], ["name"]],
    ["unknown input field", [{ companyId: 1, color: "red" }], ["name"]],
    ["empty input", [{}], ["name"]],
    ["long name", [{ companyName: "x".repeat(501) }], ["name"]],
  ];
  for (const [name, inputs, outputFields] of enrichCases) {
    it(`company enrichment: ${name}`, async () => {
      sb.resetStats();
      const c = client();
      const outcome = await c.enrichCompanies(inputs as never, outputFields as never).then(
        (records) => ({ records }),
        (error: unknown) => ({ error }),
      );
      const sentByClient = sb.requests(ENRICH);
      const server = await sandboxSays("/data/v1/companies/enrich", {
        data: { type: "CompanyEnrich", attributes: { matchCompanyInput: inputs, outputFields } },
      });
      if (server.status === 200) {
        assert.ok("records" in outcome && outcome.records.every((r) => r.outcome !== "invalidInput"), JSON.stringify(outcome));
        return;
      }
      assert.equal(server.status, 400);
      const serverVerdict = verdict(server.error!.issues);
      if ("error" in outcome) {
        // A request-wide problem: nothing sent, the same issues.
        assert.ok(outcome.error instanceof ServiceError && outcome.error.kind === "validation");
        assert.equal(sentByClient, 0);
        assert.deepEqual(verdict(outcome.error.issues), serverVerdict);
      } else {
        // A problem with one input: that record's outcome, the others still enriched.
        const refused = outcome.records.filter((r) => r.outcome === "invalidInput");
        assert.ok(refused.length > 0, "the client accepted an input the sandbox refuses");
        assert.deepEqual(verdict(refused.flatMap((r) => r.issues ?? [])), serverVerdict);
        assert.equal(sentByClient, 0, "only invalid inputs here, so nothing to send");
      }
    });
  }

  it("audience enrichment: ROW without rows, and an unknown scope", async () => {
    const c = client();
    const [audience] = await c.listAudiences();
    assert.ok(audience);
    for (const attributes of [{ scope: "ROW" }, { scope: "ROW", rows: [] }, { scope: "EVERYTHING" }]) {
      sb.resetStats();
      const clientError = await rejection(c.startAudienceEnrichment(audience.id, attributes as never));
      assert.equal(sb.requests(), 0);
      const server = await sandboxSays(`/v1/audiences/${audience.id}/actions/enrich`, { data: { type: "AudienceEnrichment", attributes } });
      assert.equal(server.status, 400);
      assert.ok(clientError instanceof ServiceError);
      assert.deepEqual(verdict(clientError.issues), verdict(server.error!.issues));
    }
  });
});
