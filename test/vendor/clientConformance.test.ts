// The add-in's client over its production edge, against the service's published description:
// it reads every published example answer of company and contact search and enrich (a fake
// transport answers with it), it does not refuse the published example inputs, and every
// request body it builds validates against the published request schema.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServiceClient, type ServiceClient } from "../../src/core/api/index.js";
import { productionTransport } from "../../src/core/api/production/index.js";
import {
  COMPANY_OUTPUT_FIELD_NAMES,
  CONTACT_OUTPUT_FIELD_NAMES,
  type CompanySearchFilters,
  type ContactSearchFilters,
  type MatchCompanyInput,
  type MatchPersonInput,
  fromProductionName,
} from "../../src/core/contract/index.js";
import { requestErrors, vendorOperation } from "./oracle.js";

const BASE = "https://api.test/gtm";
const OPERATIONS: Record<string, RegExp> = {
  SearchInterface_searchCompany: /\/data\/v1\/companies\/search$/,
  SearchInterface_searchContact: /\/data\/v1\/contacts\/search$/,
  EnrichInterface_enrichCompany: /\/data\/v1\/companies\/enrich$/,
  EnrichInterface_enrichContact: /\/data\/v1\/contacts\/enrich$/,
};
/** Company output fields the published enum lacks, though the service's own example asks them. */
const OUTSIDE_THE_PUBLISHED_ENUM = new Set(["siteRank", "hashtags"]);

interface Sent {
  operationId: string;
  body: unknown;
}

/** A client over the production edge whose service answers every request with `answer`, recording what it sent. */
function clientAnswering(answer: unknown): { client: ServiceClient; sent: Sent[] } {
  const sent: Sent[] = [];
  const client = createServiceClient({
    baseUrl: BASE,
    audiencesBaseUrl: `${BASE}/studio`,
    getAccessToken: async () => "token-1",
    retry: { baseDelayMs: 1 },
    fetch: productionTransport(async (url, init) => {
      const path = new URL(url).pathname;
      const operationId = Object.keys(OPERATIONS).find((id) => OPERATIONS[id]!.test(path)) ?? `unknown ${path}`;
      sent.push({ operationId, body: init.body === undefined ? undefined : (JSON.parse(init.body) as unknown) });
      const text = JSON.stringify(answer);
      return {
        status: 200,
        headers: { get: (name: string) => (name.toLowerCase() === "content-type" ? "application/vnd.api+json" : null) },
        text: async () => text,
      };
    }),
  });
  return { client, sent };
}

const examples = (operationId: string) => {
  const op = vendorOperation("data", operationId);
  return op.requestExamples.map((request, i) => ({
    name: request.name,
    request: request.value as { data: { attributes: Record<string, unknown> } },
    answer: op.responseExamples[i]!.value,
  }));
};

/** Every body sent validates against the operation's published request schema. */
function assertBodiesConform(sent: Sent[]) {
  assert.ok(sent.length > 0, "a request was sent");
  for (const { operationId, body } of sent) assert.deepEqual(requestErrors("data", operationId, body), [], `${operationId}: ${JSON.stringify(body)}`);
}

describe("the client against the service's published description", () => {
  it("sends the published search examples as they are and reads their published answers", async () => {
    for (const [kind, operationId] of [
      ["company", "SearchInterface_searchCompany"],
      ["contact", "SearchInterface_searchContact"],
    ] as const) {
      for (const example of examples(operationId)) {
        const { client, sent } = clientAnswering(example.answer);
        const filters = example.request.data.attributes;
        const page =
          kind === "company" ? await client.searchCompanies(filters as CompanySearchFilters) : await client.searchContacts(filters as ContactSearchFilters);
        const published = example.answer as { data: { id: string }[]; meta: { totalResults: number } };
        assert.deepEqual(
          page.items.map((item) => item.id),
          published.data.map((item) => item.id),
          example.name,
        );
        assert.equal(page.totalResults, published.meta.totalResults);
        assertBodiesConform(sent);
        assert.deepEqual((sent[0]!.body as { data: { attributes: unknown } }).data.attributes, filters, `${example.name}: the filters as published`);
      }
    }
  });

  it("sends the published enrich examples and reads each published answer, record by record", async () => {
    for (const [kind, operationId] of [
      ["company", "EnrichInterface_enrichCompany"],
      ["contact", "EnrichInterface_enrichContact"],
    ] as const) {
      for (const example of examples(operationId)) {
        const { client, sent } = clientAnswering(example.answer);
        const attributes = example.request.data.attributes;
        // The example's fields the add-in offers, by the add-in's names (the edge sends production's).
        const known: readonly string[] = kind === "company" ? COMPANY_OUTPUT_FIELD_NAMES : CONTACT_OUTPUT_FIELD_NAMES;
        const fields = [...new Set((attributes.outputFields as string[]).map(fromProductionName))].filter(
          (f) => known.includes(f) && !OUTSIDE_THE_PUBLISHED_ENUM.has(f),
        );
        const records =
          kind === "company"
            ? await client.enrichCompanies(attributes.matchCompanyInput as MatchCompanyInput[], fields)
            : await client.enrichContacts(attributes.matchPersonInput as MatchPersonInput[], fields);
        const published = (example.answer as { data: { id: string; attributes?: Record<string, unknown>; meta: { matchStatus: string } }[] }).data;
        assert.equal(records.length, published.length, example.name);
        records.forEach((record, i) => {
          const item = published[i]!;
          assert.equal(record.outcome, item.meta.matchStatus === "NO_MATCH" ? "noMatch" : "matched", `${example.name} #${i}`);
          for (const key of ["name", "email", "website", "revenue", "jobTitle"])
            assert.equal(record.attributes[key], item.attributes?.[key], `${example.name} #${i} ${key}`);
        });
        assertBodiesConform(sent.filter((s) => s.operationId !== "unknown"));
      }
    }
  });

  it("reads production's record shapes into the add-in's: codes as ids, competitors as names, numbers sent as text as numbers", async () => {
    const answer = {
      data: [
        {
          id: "1",
          type: "Company",
          meta: { matchStatus: "FULL_MATCH", input: { companyId: 1 } },
          attributes: {
            industryCodes: [{ id: "software", name: "Software" }],
            sicCodes: [{ id: "7372", name: "Software" }],
            competitors: [{ id: 2, name: "Rival" }],
            employeeGrowth: { oneYearGrowthRate: "12.5", twoYearGrowthRate: "20" },
          },
        },
      ],
    };
    const { client } = clientAnswering(answer);
    const [company] = await client.enrichCompanies([{ companyId: 1 }], ["industryCodes", "sicCodes", "competitors", "employeeGrowth"]);
    assert.deepEqual(company!.attributes.industryCodes, ["software"]);
    assert.deepEqual(company!.attributes.sicCodes, ["7372"]);
    assert.deepEqual(company!.attributes.competitors, ["Rival"]);
    assert.deepEqual(company!.attributes.employeeGrowth, { oneYearGrowthRate: 12.5, twoYearGrowthRate: 20 });
    const contactAnswer = {
      data: [
        {
          id: "5",
          type: "Contact",
          meta: { matchStatus: "FULL_MATCH", input: { personId: 5 } },
          attributes: { contactAccuracyScore: "95", jobFunction: { name: "Engineering", department: "IT" } },
        },
      ],
    };
    const [contact] = await clientAnswering(contactAnswer).client.enrichContacts([{ personId: 5 }], ["contactAccuracyScore", "jobFunction"]);
    assert.equal(contact!.attributes.contactAccuracyScore, 95);
    assert.deepEqual(contact!.attributes.jobFunction, ["Engineering"]);
  });

  it("reads the published lookup answers of the lookups it uses (not the signals')", async () => {
    const byType: Record<string, string> = {
      FundingRoundType: "funding-round-types",
      Industry: "industries",
      EmployeeCount: "employee-count",
      RevenueRange: "revenue-ranges",
      MetroRegion: "metro-regions",
      CompanyType: "company-types",
      Country: "countries",
      State: "states",
      Continent: "continents",
      SubUnitType: "sub-unit-types",
      TechProduct: "tech-products",
      Hashtag: "hashtags",
      ManagementLevel: "management-levels",
      Department: "departments",
      JobFunction: "job-functions",
    };
    let read = 0;
    for (const example of vendorOperation("data", "LookupInterface_lookup").responseExamples) {
      const published = (example.value as { data: { id: string; type: string }[] }).data;
      const fieldName = byType[published[0]!.type];
      if (!fieldName) continue;
      const items = await clientAnswering(example.value).client.lookup(fieldName);
      assert.deepEqual(
        items.map((item) => item.id),
        published.map((item) => item.id),
        example.name,
      );
      read += 1;
    }
    assert.equal(read, Object.keys(byType).length - 1, "every lookup the add-in uses but funding round types has a published example");
  });

  it("builds search bodies the published schema takes, over every filter the pane offers", async () => {
    const { client, sent } = clientAnswering({ data: [], meta: { totalResults: 0, page: { number: 1, total: 0 } } });
    await client.searchCompanies({
      companyName: "Acme",
      country: "France",
      revenueMin: 1000,
      revenueMax: 5000,
      employeeRangeMin: "10",
      serviceContactsMin: "5",
      industryCodes: "software",
    });
    await client.searchContacts({
      firstName: "Ada",
      managementLevel: "C-Level",
      contactAccuracyScoreMin: 80,
      contactAccuracyScoreMax: 95,
      personId: "1260398587",
    });
    assertBodiesConform(sent);
  });

  it("builds enrich bodies the published schema takes, with every output field the published enum lists", async () => {
    const { client, sent } = clientAnswering({ data: [] });
    const companyFields = COMPANY_OUTPUT_FIELD_NAMES.filter((f) => !OUTSIDE_THE_PUBLISHED_ENUM.has(f));
    await client.enrichCompanies([{ companyId: 344589814 }, { companyWebsite: "www.zoominfo.com" }], companyFields).catch(() => undefined);
    await client.enrichContacts([{ personId: 4191419698 }, { personId: 0 }], [...CONTACT_OUTPUT_FIELD_NAMES]).catch(() => undefined);
    assertBodiesConform(sent);
  });
});
