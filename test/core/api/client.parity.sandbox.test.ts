// Validation parity: the client refuses before sending exactly what the sandbox answers 400 to,
// with the same issues (searches, page queries, enrichment, audience enrichment), against the
// real sandbox over HTTP (in-process, port 0).
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { errorFromResponse, ServiceError, type ServiceClientOptions } from "../../../src/core/api/index.js";
import { useSandbox } from "../../helpers/sandbox.js";
import { rejection } from "./harness.js";
import { sandboxClient } from "./sandboxClient.js";

const ENRICH = "POST /data/v1/companies/enrich";

const sb = useSandbox();
let token: string;

const client = (options: Partial<ServiceClientOptions> = {}) => sandboxClient(sb.url, () => token, options);

before(async () => {
  token = await sb.token();
  await sb.setAccount("default", 1_000_000);
});

describe("validation parity with the sandbox", () => {
  type Query = { page?: number; size?: number; sort?: string };
  /**
   * The verdict each case must get, fixed here (not read from either side, which share their
   * validators): valid, or 400 with issues at exactly these pointers ("?name" for a query
   * parameter). Client and sandbox must both give it, with the same messages.
   */
  type Expected = "valid" | readonly string[];
  const pointers = (issues: Array<{ pointer?: string; parameter?: string }>) => issues.map((i) => i.pointer ?? `?${i.parameter}`).sort();
  const searchCases: Array<[string, "company" | "contact", Record<string, unknown>, Query, Expected]> = [
    ["valid", "company", { companyName: "Acme", revenueMin: 1, revenueMax: 100 }, {}, "valid"],
    ["maxLength at the limit", "company", { companyName: "x".repeat(500) }, {}, "valid"],
    ["maxItems at the limit", "company", { companyTicker: Array.from({ length: 50 }, () => "T") }, {}, "valid"],
    ["page 100 of 100", "company", {}, { page: 100, size: 100 }, "valid"],
    ["valid contact", "contact", { jobTitle: "CFO", contactAccuracyScoreMin: 80 }, {}, "valid"],
    ["unknown field", "company", { nickname: "x" }, {}, ["/data/attributes/nickname"]],
    ["maxLength", "company", { companyName: "x".repeat(501) }, {}, ["/data/attributes/companyName"]],
    ["maxItems", "company", { companyTicker: Array.from({ length: 51 }, () => "T") }, {}, ["/data/attributes/companyTicker"]],
    ["type text", "company", { companyName: 5 }, {}, ["/data/attributes/companyName"]],
    ["type boolean", "company", { excludeDefunctCompanies: "yes" }, {}, ["/data/attributes/excludeDefunctCompanies"]],
    ["type integer", "company", { revenueMin: 1.5 }, {}, ["/data/attributes/revenueMin"]],
    ["minimum", "company", { fundingAmountMin: -1 }, {}, ["/data/attributes/fundingAmountMin"]],
    ["maximum", "company", { revenueMax: 2147483648 }, {}, ["/data/attributes/revenueMax"]],
    ["budget max minimum", "company", { itDepartmentBudgetMax: 0 }, {}, ["/data/attributes/itDepartmentBudgetMax"]],
    ["date", "company", { fundingStartDate: "2024-02-30" }, {}, ["/data/attributes/fundingStartDate"]],
    ["date form", "company", { engagementStartDate: "01/02/2024" }, {}, ["/data/attributes/engagementStartDate"]],
    ["zipCode", "company", { zipCode: "12$45" }, {}, ["/data/attributes/zipCode"]],
    ["fourDigitCodes", "company", { sicCodes: "12,345" }, {}, ["/data/attributes/sicCodes"]],
    ["number text", "company", { employeeRangeMin: "many" }, {}, ["/data/attributes/employeeRangeMin"]],
    ["choice", "company", { zipCode: "10001", zipCodeRadiusMiles: 30 }, {}, ["/data/attributes/zipCodeRadiusMiles"]],
    ["choiceList", "company", { companyType: "public,alien" }, {}, ["/data/attributes/companyType"]],
    ["choice text", "company", { locationSearchType: "Moon" }, {}, ["/data/attributes/locationSearchType"]],
    ["array values", "company", { engagementType: ["fax"] }, {}, ["/data/attributes/engagementType/0"]],
    ["minAboveMax", "company", { revenueMin: 10, revenueMax: 5 }, {}, ["/data/attributes/revenueMin"]],
    ["minAboveMax text", "company", { employeeRangeMin: "100", employeeRangeMax: "10" }, {}, ["/data/attributes/employeeRangeMin"]],
    ["dateOrder", "company", { fundingStartDate: "2024-05-01", fundingEndDate: "2024-01-01" }, {}, ["/data/attributes/fundingStartDate"]],
    ["requires start", "company", { engagementEndDate: "2024-01-01" }, {}, ["/data/attributes/engagementEndDate"]],
    ["requires zip", "company", { zipCodeRadiusMiles: 25 }, {}, ["/data/attributes/zipCodeRadiusMiles"]],
    ["requires parent", "company", { subUnitTypes: "DIVISION" }, {}, ["/data/attributes/subUnitTypes"]],
    ["exclusive", "company", { recentFundingRoundTypes: ["Seed"], allFundingRoundTypes: ["Seed"] }, {}, ["/data/attributes/allFundingRoundTypes"]],
    [
      "several",
      "company",
      { companyName: "x".repeat(501), revenueMin: -1, nickname: 1 },
      {},
      ["/data/attributes/nickname", "/data/attributes/companyName", "/data/attributes/revenueMin"],
    ],
    ["contact range", "contact", { contactAccuracyScoreMin: 50 }, {}, ["/data/attributes/contactAccuracyScoreMin"]],
    ["contact minAboveMax", "contact", { contactAccuracyScoreMin: 90, contactAccuracyScoreMax: 80 }, {}, ["/data/attributes/contactAccuracyScoreMin"]],
    ["page 0", "company", {}, { page: 0 }, ["?page[number]"]],
    ["page 101", "company", {}, { page: 101 }, ["?page[number]"]],
    ["size 0", "company", {}, { size: 0 }, ["?page[size]"]],
    ["size 101", "company", {}, { size: 101 }, ["?page[size]"]],
    ["sort", "company", {}, { sort: "-shoeSize" }, ["?sort"]],
    ["contact sort", "contact", {}, { sort: "revenue" }, ["?sort"]],
    ["query and body", "company", { revenueMin: 5, revenueMax: 1 }, { page: 0 }, ["?page[number]", "/data/attributes/revenueMin"]],
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

  for (const [name, kind, filters, query, expected] of searchCases) {
    it(`search: ${name} (${expected === "valid" ? "valid" : `400 at ${expected.join(", ")}`})`, async () => {
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
      const server = await sandboxSays(
        path,
        { data: { type: kind === "company" ? "CompanySearch" : "ContactSearch", attributes: filters } },
        qs ? `?${qs}` : "",
      );
      if (expected === "valid") {
        assert.equal(server.status, 200, `the sandbox refused a valid search: ${String(server.error)}`);
        assert.equal(clientError, undefined, `the client refused a valid search: ${String(clientError)}`);
        assert.equal(sentByClient, 1);
        return;
      }
      assert.equal(server.status, 400, "the sandbox accepted an invalid search");
      assert.deepEqual(pointers(server.error!.issues), [...expected].sort(), "the sandbox's issues");
      assert.ok(clientError instanceof ServiceError && clientError.kind === "validation", "the client accepted an invalid search");
      assert.equal(sentByClient, 0, "an invalid request reached the network");
      assert.deepEqual(pointers(clientError.issues), [...expected].sort(), "the client's issues");
      assert.deepEqual(verdict(clientError.issues), verdict(server.error!.issues));
      // The sandbox's answer, read by the client's factory, names the same fields with the same labels.
      assert.deepEqual(clientError.issues.map((i) => i.label).sort(), server.error!.issues.map((i) => i.label).sort());
    });
  }

  const enrichCases: Array<[string, unknown[], unknown[], Expected]> = [
    ["valid", [{ companyId: 1 }, { companyName: "Acme", companyCountry: "US" }], ["name"], "valid"],
    ["name at the limit", [{ companyName: "x".repeat(500) }], ["name"], "valid"],
    ["unknown output field", [{ companyId: 1 }], ["name", "shoeSize"], ["/data/attributes/outputFields/1"]],
    ["no output fields", [{ companyId: 1 }], [], ["/data/attributes/outputFields"]],
    ["id below 0", [{ companyId: -1 }], ["name"], ["/data/attributes/matchCompanyInput/0/companyId"]],
    ["id 0 (matches nothing)", [{ companyId: 0 }], ["name"], "valid"],
    ["id not a number", [{ companyId: "12" }], ["name"], ["/data/attributes/matchCompanyInput/0/companyId"]],
    ["unknown input field", [{ companyId: 1, color: "red" }], ["name"], ["/data/attributes/matchCompanyInput/0/color"]],
    ["empty input", [{}], ["name"], ["/data/attributes/matchCompanyInput/0"]],
    ["long name", [{ companyName: "x".repeat(501) }], ["name"], ["/data/attributes/matchCompanyInput/0/companyName"]],
  ];
  for (const [name, inputs, outputFields, expected] of enrichCases) {
    it(`company enrichment: ${name} (${expected === "valid" ? "valid" : `400 at ${expected.join(", ")}`})`, async () => {
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
      if (expected === "valid") {
        assert.equal(server.status, 200, `the sandbox refused a valid request: ${String(server.error)}`);
        assert.ok("records" in outcome && outcome.records.every((r) => r.outcome !== "invalidInput"), JSON.stringify(outcome));
        return;
      }
      assert.equal(server.status, 400, "the sandbox accepted an invalid request");
      assert.deepEqual(pointers(server.error!.issues), [...expected].sort(), "the sandbox's issues");
      const serverVerdict = verdict(server.error!.issues);
      if ("error" in outcome) {
        // A request-wide problem: nothing sent, the same issues.
        assert.ok(outcome.error instanceof ServiceError && outcome.error.kind === "validation");
        assert.equal(sentByClient, 0);
        assert.deepEqual(pointers(outcome.error.issues), [...expected].sort(), "the client's issues");
        assert.deepEqual(verdict(outcome.error.issues), serverVerdict);
      } else {
        // A problem with one input: that record's outcome, the others still enriched.
        const refused = outcome.records.filter((r) => r.outcome === "invalidInput");
        assert.ok(refused.length > 0, "the client accepted an input the sandbox refuses");
        assert.deepEqual(pointers(refused.flatMap((r) => r.issues ?? [])), [...expected].sort(), "the client's issues");
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
