// The production profile's audience (studio) operations against the service's published
// description: audiences listed (every page, filters) and read, their filter metadata, rows
// searched (no body, an empty body, filters on every column with the operators the metadata
// gives, ids, sorts, columns, every page) and read one by one, an enrichment job started and
// followed: every answer validates against the published schemas. And the add-in's client over
// its production edge: the bodies it sends validate against the published request schemas.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServiceClient } from "../../src/core/api/index.js";
import { productionTransport } from "../../src/core/api/production/index.js";
import { manualClock, useSandbox } from "../helpers/sandbox.js";
import { requestErrors, responseErrors, vendorOperation } from "./oracle.js";
import { ALL_SCOPES, callProfile, type VendorAnswer, type VendorCall } from "./productionProfile.js";

type Column = { id: string; attributes: { columnType: string; dataType?: string } };
type Audience = { id: string; attributes: { type: string; recordCount: number; columns: Column[] } };
type ListDoc = { data: Audience[]; meta: { page: { size: number; number: number }; total: number } };
type RowsDoc = { data: { id: string; attributes: { values: { columnId: string; value: unknown }[] } }[]; meta: { total: number } };
type FilterMetadataDoc = { data: { attributes: { filterMetadata: { columnId: string; isFilterable: boolean; filterOperators: { operator: string }[] }[] } } };

describe("production profile: studio operations against the service's published description", () => {
  // Jobs move only as the test moves this clock.
  const clock = manualClock();
  const sandbox = useSandbox({ profile: "production", clock });
  let token = "";
  let validated = 0;
  before(async () => {
    token = await sandbox.token({ scopes: ALL_SCOPES });
  });

  const call = (operationId: string, request: VendorCall = {}) => callProfile(sandbox, token, "studio", operationId, request);
  const conforms = (operationId: string, answer: VendorAnswer, what = operationId) => {
    assert.ok(
      vendorOperation("studio", operationId).success.includes(answer.status),
      `${what}: ${answer.url} answered ${answer.status}: ${JSON.stringify(answer.doc).slice(0, 400)}`,
    );
    assert.deepEqual(responseErrors("studio", operationId, answer.doc, answer.status), [], `${what}: ${answer.url}`);
    validated += 1;
    return answer.doc;
  };
  const audiences = async () => (conforms("Audiences_listAudiences", await call("Audiences_listAudiences", { query: { "page[size]": 100 } })) as ListDoc).data;
  const rows = async (audienceId: string, body?: unknown, query: VendorCall["query"] = {}, contentType?: string) => {
    if (body !== undefined && typeof body !== "string") assert.deepEqual(requestErrors("studio", "Rows_listRows", body), [], JSON.stringify(body));
    const answer = await call("Rows_listRows", { params: { audienceId }, body, query, ...(contentType ? { contentType } : {}) });
    return conforms("Rows_listRows", answer, `rows ${JSON.stringify(body)} ${JSON.stringify(query)}`) as RowsDoc;
  };

  it("lists audiences page by page and by filter, and reads each, in the published shape", async () => {
    const all = await audiences();
    assert.ok(all.length >= 2);
    for (let number = 1; number <= all.length; number++) {
      const page = conforms(
        "Audiences_listAudiences",
        await call("Audiences_listAudiences", { query: { "page[number]": number, "page[size]": 1 } }),
      ) as ListDoc;
      assert.equal(page.data[0]!.id, all[number - 1]!.id);
    }
    const filters: Record<string, string>[] = [{ "filter[type]": "COMPANY" }, { "filter[type]": "CONTACT" }, { "filter[searchText]": "a" }];
    for (const query of filters) {
      conforms("Audiences_listAudiences", await call("Audiences_listAudiences", { query }), JSON.stringify(query));
    }
    for (const audience of all) conforms("Audiences_getAudience", await call("Audiences_getAudience", { params: { audienceId: audience.id } }));
  });

  it("reads rows with no body, an empty body of either JSON type, ids, sorts and columns, every page, in the published shape", async () => {
    const audience = (await audiences())[0]!;
    const audienceId = audience.id;
    const first = await rows(audienceId);
    assert.equal(first.meta.total, audience.attributes.recordCount);
    for (const contentType of ["application/json", "application/vnd.api+json"]) {
      assert.equal((await rows(audienceId, "", {}, contentType)).meta.total, audience.attributes.recordCount, `an empty ${contentType} body`);
    }
    assert.equal((await rows(audienceId, { data: { type: "RowSearch", attributes: {} } })).meta.total, audience.attributes.recordCount);
    const ids = first.data.slice(0, 3).map((r) => r.id);
    assert.deepEqual(new Set((await rows(audienceId, { data: { type: "RowSearch", attributes: { ids } } })).data.map((r) => r.id)), new Set(ids));
    for (const column of audience.attributes.columns.slice(0, 3)) {
      await rows(audienceId, undefined, { sort: `-${column.id}`, "page[size]": 5 });
      await rows(audienceId, undefined, { columns: column.id, "page[size]": 5 });
    }
    const seen = new Set<string>();
    for (let number = 1; seen.size < audience.attributes.recordCount; number++) {
      const page = await rows(audienceId, undefined, { "page[number]": number, "page[size]": 100 });
      assert.ok(page.data.length > 0, `page ${number} is not empty before the end`);
      for (const row of page.data) seen.add(row.id);
    }
    for (const rowId of [...seen].slice(0, 5)) {
      conforms("Rows_getRowById", await call("Rows_getRowById", { params: { audienceId, rowId } }));
      conforms("Rows_getRowById", await call("Rows_getRowById", { params: { audienceId, rowId }, query: { columns: audience.attributes.columns[0]!.id } }));
    }
    const missing = await call("Rows_getRowById", { params: { audienceId, rowId: "no-such-row" } });
    assert.equal(missing.status, 404);
  });

  it("gives each column's filter operators, and a row search takes each of them, in the published shape", async () => {
    for (const audience of await audiences()) {
      const metadata = conforms(
        "Audiences_getAudienceFilterMetadata",
        await call("Audiences_getAudienceFilterMetadata", { params: { audienceId: audience.id } }),
      ) as FilterMetadataDoc;
      const sample = (await rows(audience.id, undefined, { "page[size]": 1 })).data[0]!;
      for (const column of metadata.data.attributes.filterMetadata.filter((m) => m.isFilterable)) {
        const value = sample.attributes.values.find((v) => v.columnId === column.columnId)?.value;
        for (const { operator } of column.filterOperators) {
          const values = operator === "IN_RANGE" ? [0, 1e9] : [typeof value === "number" ? value : String(value ?? "x")];
          const filter = { operator: "AND", filters: [{ type: "Filter", columnId: column.columnId, values, filterOperator: operator }] };
          await rows(audience.id, { data: { type: "RowSearch", attributes: { filter } } });
        }
      }
    }
  });

  it("starts an enrichment job and reports it to its end in the published shape; a wrong data.type is the service's 400", async () => {
    const audience = (await audiences())[0]!;
    const columns = audience.attributes.columns.filter((c) => c.attributes.columnType.startsWith("ZOOMINFO_")).map((c) => c.id);
    const body = { data: { type: "AudienceEnrichment", attributes: { scope: "AUDIENCE", columns } } };
    assert.deepEqual(requestErrors("studio", "Audiences_enrichAudience", body), []);
    const started = conforms("Audiences_enrichAudience", await call("Audiences_enrichAudience", { params: { audienceId: audience.id }, body })) as {
      data: { id: string };
    };
    const statuses: string[] = [];
    for (let step = 0; step < 1000 && !["SUCCEEDED", "PARTIALLY_SUCCEEDED", "FAILED", "CANCELLED"].includes(statuses.at(-1) ?? ""); step++) {
      const status = conforms("Audiences_getJobStatus", await call("Audiences_getJobStatus", { params: { audienceId: audience.id, jobId: started.data.id } }));
      statuses.push((status as { data: { attributes: { status: string } } }).data.attributes.status);
      await clock.advance(1000);
    }
    assert.match(statuses.at(-1)!, /SUCCEEDED$/, `the job ended: ${[...new Set(statuses)].join(" > ")}`);
    assert.ok(statuses.length > 1, "the job was followed while it ran");
    for (const [operationId, data] of [
      ["Audiences_enrichAudience", body.data],
      ["Rows_listRows", { type: "RowSearch", attributes: {} }],
    ] as const) {
      const wrong = await call(operationId, { params: { audienceId: audience.id }, body: { data: { ...data, type: "Nope" } } });
      assert.equal(wrong.status, 400, operationId);
      assert.deepEqual(responseErrors("studio", operationId, wrong.doc, 400), []);
    }
  });

  it("the client over its production edge reads the studio answers and sends bodies the published schemas take", async () => {
    const sent: { path: string; body: unknown }[] = [];
    const client = createServiceClient({
      baseUrl: `${sandbox.url}/gtm`,
      audiencesBaseUrl: `${sandbox.url}/gtm/studio`,
      getAccessToken: async () => token,
      retry: { baseDelayMs: 1 },
      fetch: productionTransport(async (url, init) => {
        sent.push({ path: new URL(url).pathname, body: init.body === undefined ? undefined : (JSON.parse(init.body) as unknown) });
        const response = await fetch(url, { method: init.method, headers: init.headers, ...(init.body !== undefined ? { body: init.body } : {}) });
        return { status: response.status, headers: response.headers, text: () => response.text() };
      }),
    });
    const [audience] = await client.listAudiences();
    const input = audience!.attributes.columns.find((c) => c.attributes.columnType === "INPUT");
    assert.ok(input, "the id column reads as the add-in's input column");
    const page = await client.getAudienceRows(audience!.id, { size: 5 });
    assert.equal(page.rows.length, 5);
    const value = page.rows[0]!.attributes.values.find((v) => v.columnId === input.id)!.value;
    await client.getAudienceRows(audience!.id, {
      search: { filter: { operator: "AND", filters: [{ type: "Filter", columnId: input.id, values: [String(value)], filterOperator: "EQUALS" }] } },
    });
    await client.getAudienceRows(audience!.id, { search: { ids: page.rows.map((r) => r.id) } });
    const enrichable = audience!.attributes.columns.filter((c) => c.attributes.columnType === "ENRICHMENT").map((c) => c.id);
    assert.ok(enrichable.length > 0, "ZoomInfo's columns read as enrichment columns");
    const jobId = await client.startAudienceEnrichment(audience!.id, { scope: "AUDIENCE", columns: enrichable });
    assert.ok(jobId);
    await client.getJob(audience!.id, jobId);
    const bodies = sent.filter((s) => s.body !== undefined);
    assert.ok(bodies.length >= 3);
    for (const { path, body } of bodies) {
      const operationId = path.endsWith("/rows/actions/search") ? "Rows_listRows" : "Audiences_enrichAudience";
      assert.deepEqual(requestErrors("studio", operationId, body), [], `${path}: ${JSON.stringify(body)}`);
    }
  });

  it("checked a broad set of answers", () => {
    assert.ok(validated >= 60, `only ${validated} answers validated`);
  });
});
