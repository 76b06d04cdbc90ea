// The client over the production edge, against a fake that speaks only production's dialect.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createServiceClient } from "../../../../src/core/api/index.js";
import { productionTransport } from "../../../../src/core/api/production/index.js";
import { fakeService } from "./fakeService.js";

const BASE = "https://api.test/gtm";
const AUDIENCE = "3f2b1c9e-1234-4abc-9def-0123456789ab";

function clientOver(transport: ReturnType<typeof productionTransport>) {
  return createServiceClient({
    baseUrl: BASE,
    audiencesBaseUrl: `${BASE}/studio`,
    getAccessToken: async () => "token-1",
    fetch: transport,
    retry: { baseDelayMs: 1 },
  });
}

const company = (n: number) => ({ id: String(n), type: "Company", attributes: { name: `Company ${n}` } });

test("a search reads every page from totalResults, not page.total, and PFAPI0004 ends it", async () => {
  const total = 23;
  const service = fakeService(({ method, url, body }) => {
    if (method !== "POST" || !url.pathname.endsWith("/gtm/data/v1/companies/search")) return undefined;
    const attributes = (body as { data: { attributes: Record<string, unknown> } }).data.attributes;
    if ("serviceContactsMin" in attributes) return { status: 400, body: { errors: [{ code: "PFAPI0001", detail: "unknown filter" }] } };
    const number = Number(url.searchParams.get("page[number]"));
    const size = Number(url.searchParams.get("page[size]"));
    const items = Array.from({ length: total }, (_, i) => company(i + 1)).slice((number - 1) * size, number * size);
    if (items.length === 0) return { status: 400, body: { errors: [{ code: "PFAPI0004", detail: "greater than the available results" }] } };
    // Production's reading of page.total: the records on this page.
    return { status: 200, body: { data: items, meta: { totalResults: total, page: { number, total: items.length } } } };
  });
  const client = clientOver(productionTransport(service.transport));
  const ids: string[] = [];
  for await (const page of client.iterateCompanies({ serviceContactsMin: "10" }, { pageSize: 4 })) ids.push(...page.items.map((c) => c.id));
  assert.equal(ids.length, total);
  const sentAttributes = (service.sent[0]!.body as { data: { attributes: Record<string, unknown> } }).data.attributes;
  assert.deepEqual(sentAttributes, { zoominfoContactsMin: "10" });

  const past = await client.searchCompanies({ serviceContactsMin: "10" }, { page: 9, size: 5 });
  assert.deepEqual(past.items, []);
});

test("an enrichment asks renamed fields by production's names and drops an unentitled field instead of failing the batch", async () => {
  const entitled = ["name", "numberOfContactsInZoomInfo", "alexaRank"];
  const service = fakeService(({ method, url, body, headers }) => {
    if (method === "GET" && url.pathname.endsWith("/data/v1/lookup/enrich")) {
      assert.equal(url.searchParams.get("filter[entity]"), "company");
      assert.equal(headers.authorization ?? headers.Authorization, "Bearer token-1");
      return { status: 200, body: { data: entitled.map((f) => ({ id: f, type: "EnrichField", attributes: { fieldName: f } })) } };
    }
    if (method === "POST" && url.pathname.endsWith("/data/v1/companies/enrich")) {
      const attributes = (body as { data: { attributes: { outputFields: string[]; matchCompanyInput: Array<{ companyId: number }> } } }).data.attributes;
      if (attributes.outputFields.some((f) => !entitled.includes(f))) return { status: 400, body: { errors: [{ code: "PFAPI0009" }] } };
      return {
        status: 200,
        body: {
          data: attributes.matchCompanyInput.map((input) => ({
            id: String(input.companyId),
            type: "Company",
            attributes: { name: "Acme", numberOfContactsInZoomInfo: 12, alexaRank: 3 },
            meta: { matchStatus: "FULL_MATCH", input },
          })),
        },
      };
    }
    return undefined;
  });
  const refused: string[][] = [];
  const client = clientOver(productionTransport(service.transport, { onRefusedFields: (_entity, fields) => refused.push(fields) }));
  const inputs = Array.from({ length: 25 }, (_, i) => ({ companyId: i + 1 }));
  const records = await client.enrichCompanies(inputs, ["name", "numberOfContactsInService", "siteRank", "revenue"]);
  assert.equal(records.length, 25);
  assert.ok(records.every((r) => r.outcome === "matched"));
  assert.deepEqual(records[0]!.attributes, { name: "Acme", numberOfContactsInService: 12, siteRank: 3 });
  assert.deepEqual(refused, [["revenue"]]);
  // One lookup for the account, cached for the next batch.
  await client.enrichCompanies([{ companyId: 99 }], ["name", "revenue"]);
  assert.equal(service.sent.filter((s) => s.url.pathname.endsWith("/lookup/enrich")).length, 1);
});

test("audiences: every page of the list, rows through the studio search, columns without a dataType", async () => {
  const audiences = Array.from({ length: 130 }, (_, i) => ({
    id: i === 0 ? AUDIENCE : `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    type: "Audience",
    attributes: {
      name: `Audience ${i}`,
      recordCount: 2,
      type: "COMPANY",
      columns: [
        { id: "col-name", type: "Column", attributes: { name: "Name", dataType: "STRING", columnType: "ATTRIBUTE" } },
        { id: "col-ai", type: "Column", attributes: { name: "Summary", columnType: "AI_RESEARCH" } },
      ],
    },
  }));
  const service = fakeService(({ method, url }) => {
    if (method === "GET" && url.pathname === "/gtm/studio/v1/audiences") {
      const number = Number(url.searchParams.get("page[number]") ?? "1");
      const size = Number(url.searchParams.get("page[size]") ?? "25");
      return { status: 200, body: { data: audiences.slice((number - 1) * size, number * size), meta: { page: { size, number }, total: audiences.length } } };
    }
    if (method === "POST" && url.pathname === `/gtm/studio/v1/audiences/${AUDIENCE}/rows/actions/search`) {
      const rows = [{ id: "r1", type: "Row", attributes: { values: [{ columnId: "col-name", value: "Acme", state: "RESULT" }] } }];
      return { status: 200, body: { data: rows, meta: { page: { size: 25, number: 1 }, total: 1 } } };
    }
    if (method === "GET" && url.pathname.endsWith("/rows")) return { status: 404, body: { error: { code: "ZI9998" } } };
    return undefined;
  });
  const client = clientOver(productionTransport(service.transport));
  const list = await client.listAudiences();
  assert.equal(list.length, 130);
  assert.equal(list[0]!.attributes.columns[1]!.attributes.dataType, "TEXT");
  const rows = await client.getAudienceRows(AUDIENCE, { page: 1, size: 25 });
  assert.equal(rows.rows.length, 1);
  assert.equal(rows.totalResults, 1);
  assert.ok(!service.sent.some((s) => s.method === "GET" && s.url.pathname.endsWith("/rows")));
});
