// The client over the production edge, against a fake that speaks only production's dialect.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createFieldEntitlements, createServiceClient, ServiceError, type FieldEntitlementCache } from "../../../../src/core/api/index.js";
import { productionTransport } from "../../../../src/core/api/production/index.js";
import { fakeService } from "./fakeService.js";

const BASE = "https://api.test/gtm";
const AUDIENCE = "3f2b1c9e-1234-4abc-9def-0123456789ab";

function clientOver(transport: ReturnType<typeof productionTransport>, entitlements?: FieldEntitlementCache) {
  return createServiceClient({
    baseUrl: BASE,
    audiencesBaseUrl: `${BASE}/studio`,
    getAccessToken: async () => "token-1",
    fetch: transport,
    retry: { baseDelayMs: 1 },
    ...(entitlements ? { entitlements } : {}),
  });
}

const company = (n: number) => ({ id: String(n), type: "Company", attributes: { name: `Company ${n}` } });

/** A search service paging as production does: page.total is the page count. */
function pagedSearch(total: number, pastTheEnd: "empty" | "400") {
  return fakeService(({ method, url, body }) => {
    if (method !== "POST" || !url.pathname.endsWith("/gtm/data/v1/companies/search")) return undefined;
    const attributes = (body as { data: { attributes: Record<string, unknown> } }).data.attributes;
    if ("serviceContactsMin" in attributes) return { status: 400, body: { errors: [{ code: "PFAPI0005", detail: "unknown filter" }] } };
    const number = Number(url.searchParams.get("page[number]"));
    const size = Number(url.searchParams.get("page[size]"));
    const items = Array.from({ length: total }, (_, i) => company(i + 1)).slice((number - 1) * size, number * size);
    if (items.length === 0 && number > 1 && pastTheEnd === "400")
      return { status: 400, body: { errors: [{ code: "PFAPI0002", detail: "Page number requested is greater than the available results" }] } };
    return { status: 200, body: { data: items, meta: { totalResults: total, page: { number, total: Math.ceil(total / size) } } } };
  });
}

test("a search reads every page from totalResults, with production's names on the wire", async () => {
  const service = pagedSearch(23, "empty");
  const client = clientOver(productionTransport(service.transport));
  const ids: string[] = [];
  for await (const page of client.iterateCompanies({ serviceContactsMin: "10" }, { pageSize: 4 })) ids.push(...page.items.map((c) => c.id));
  assert.equal(ids.length, 23);
  const sentAttributes = (service.sent[0]!.body as { data: { attributes: Record<string, unknown> } }).data.attributes;
  assert.deepEqual(sentAttributes, { zoominfoContactsMin: "10" });
});

test("a 400 for a page after the first is the end of the results; on page 1 it is an error, never 0 results", async () => {
  const service = pagedSearch(23, "400");
  const client = clientOver(productionTransport(service.transport));
  const past = await client.searchCompanies({ serviceContactsMin: "10" }, { page: 9, size: 5 });
  assert.deepEqual(past.items, []);

  const notEnough = fakeService(({ method }) =>
    method === "POST"
      ? { status: 400, body: { errors: [{ id: "e-77", code: "PFAPI0004", status: "400", detail: "Please provide at least one of [companyName, companyId]" }] } }
      : undefined,
  );
  const error = await clientOver(productionTransport(notEnough.transport))
    .searchCompanies({}, { page: 1, size: 5 })
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  assert.ok(error instanceof ServiceError, "page 1's PFAPI0004 is an error, not an empty search");
  assert.equal(error.kind, "validation");
  assert.match(error.userMessage, /needs more to go on/);
  assert.equal(error.requestId, "e-77");
});

test("an enrichment refused for an unentitled field drops it, sends the same inputs once more, and reports it on every record", async () => {
  const entitled = ["name", "numberOfContactsInZoomInfo", "alexaRank"];
  const service = fakeService(({ method, url, body }) => {
    if (method !== "POST" || !url.pathname.endsWith("/data/v1/companies/enrich")) return undefined;
    const attributes = (body as { data: { attributes: { outputFields: string[]; matchCompanyInput: Array<{ companyId: number }> } } }).data.attributes;
    const refused = attributes.outputFields.filter((f) => !entitled.includes(f));
    if (refused.length > 0)
      return { status: 400, body: { errors: refused.map((f) => ({ code: "PFAPI0001", detail: `Disallowed field '${f}' requested in query` })) } };
    const data = attributes.matchCompanyInput.map((input) => ({
      id: String(input.companyId),
      type: "Company",
      attributes: { name: "Acme", numberOfContactsInZoomInfo: 12, alexaRank: 3 },
      meta: { matchStatus: "FULL_MATCH", input },
    }));
    return { status: 200, body: { data } };
  });
  const entitlements = createFieldEntitlements();
  const client = clientOver(productionTransport(service.transport), entitlements);
  const inputs = Array.from({ length: 25 }, (_, i) => ({ companyId: i + 1 }));
  const records = await client.enrichCompanies(inputs, ["name", "numberOfContactsInService", "siteRank", "revenue"]);
  assert.equal(records.length, 25, "no record of the batch is lost");
  assert.ok(records.every((r) => r.outcome === "matched" && r.unentitledFields?.join() === "revenue"));
  assert.deepEqual(records[0]!.attributes, { name: "Acme", numberOfContactsInService: 12, siteRank: 3 });
  assert.deepEqual([...entitlements.refused("company")], ["revenue"], "remembered for the account");
  const bodies = service.sent.map((s) => (s.body as { data: { attributes: { outputFields: string[]; matchCompanyInput: unknown[] } } }).data.attributes);
  assert.equal(bodies.length, 2, "one refusal, one resend");
  assert.deepEqual(bodies[1]!.matchCompanyInput, bodies[0]!.matchCompanyInput, "the same inputs");
  assert.deepEqual(bodies[1]!.outputFields, ["name", "numberOfContactsInZoomInfo", "alexaRank"]);

  // Once known, revenue is left out before sending: one request, and the records still say why.
  const again = await client.enrichCompanies([{ companyId: 40 }], ["name", "revenue"]);
  assert.equal(service.sent.length, 3);
  assert.deepEqual((service.sent[2]!.body as { data: { attributes: { outputFields: string[] } } }).data.attributes.outputFields, ["name"]);
  assert.deepEqual(again[0]!.unentitledFields, ["revenue"]);

  // A batch by id (the engine's) recovers the same way: phone is refused and resent without.
  const batch = await client.enrichBatch("company", {
    seal: () => ({ inputs: [{ companyId: 7 }, { companyId: 8 }], outputFields: ["name", "revenue", "phone"] }),
  });
  assert.deepEqual(
    batch.map((r) => [r.id, r.unentitledFields]),
    [
      ["7", ["revenue", "phone"]],
      ["8", ["revenue", "phone"]],
    ],
  );
  assert.equal(service.sent.length, 5, "revenue left out, phone refused once and resent");
  assert.deepEqual([...entitlements.refused("company")].sort(), ["phone", "revenue"]);
});

test("an enrichment whose every field is refused fails with a sentence naming them (after remembering them)", async () => {
  const service = fakeService(({ method }) =>
    method === "POST" ? { status: 400, body: { errors: [{ code: "PFAPI0001", detail: "Disallowed field 'revenue' requested in query" }] } } : undefined,
  );
  const entitlements = createFieldEntitlements();
  const client = clientOver(productionTransport(service.transport), entitlements);
  const error = await client.enrichCompanies([{ companyId: 1 }], ["revenue"]).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(error instanceof ServiceError);
  assert.match(error.userMessage, /Your plan does not include the field revenue/);
  assert.deepEqual([...entitlements.refused("company")], ["revenue"]);
  assert.equal(service.sent.length, 1, "nothing left to send again");
});

test("audiences: every page of the list, rows by a RowSearch document, columns without a dataType", async () => {
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
      return { status: 200, body: { data: rows, meta: { page: { size: 500, number: 1 }, total: 1 } } };
    }
    return undefined;
  });
  const client = clientOver(productionTransport(service.transport));
  const list = await client.listAudiences();
  assert.equal(list.length, 130);
  assert.equal(list[0]!.attributes.columns[1]!.attributes.dataType, "TEXT");
  const filter = { operator: "OR" as const, filters: [{ type: "Filter" as const, columnId: "col-name", values: ["Acme"], filterOperator: "EQUALS" as const }] };
  const rows = await client.getAudienceRows(AUDIENCE, { page: 1, size: 500, search: { filter, ids: ["r1"] } });
  assert.equal(rows.rows.length, 1);
  assert.equal(rows.totalResults, 1);
  const sent = service.sent.find((s) => s.url.pathname.endsWith("/rows/actions/search"))!;
  assert.deepEqual(sent.body, { data: { type: "RowSearch", attributes: { filter, ids: ["r1"] } } });
  assert.equal(sent.headers["content-type"], "application/vnd.api+json");
  assert.equal(sent.url.searchParams.get("page[size]"), "500");
  await client.getAudienceRows(AUDIENCE);
  assert.equal(service.sent.at(-1)!.body, undefined, "nothing to narrow: no body");
  assert.ok(!service.sent.some((s) => s.method === "GET" && s.url.pathname.endsWith("/rows")));
});
