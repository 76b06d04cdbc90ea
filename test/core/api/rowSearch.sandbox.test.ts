// Reading an audience's rows with RowSearch documents, against the sandbox's default profile
// over HTTP: a filter group (AND/OR), row ids, pages of up to 500, and checks before sending.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServiceClient, ServiceError } from "../../../src/core/api/index.js";
import { readAllRows } from "../../../src/core/jobs/index.js";
import { useSandbox } from "../../helpers/sandbox.js";

describe("rows by RowSearch against the sandbox", () => {
  const sb = useSandbox({ companies: 700, contacts: 50 });

  async function setUp() {
    const token = await sb.token();
    const client = createServiceClient({ baseUrl: sb.url, getAccessToken: async () => token, retry: { baseDelayMs: 1 } });
    const res = await fetch(`${sb.url}/__sandbox/audiences`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Six hundred", type: "COMPANY", recordIds: Array.from({ length: 600 }, (_, i) => i + 1) }),
    });
    const created = (await res.json()) as {
      data: { id: string; attributes: { columns: { id: string; attributes: { columnType: string } }[] } };
      meta: { rowIds: string[] };
    };
    const input = created.data.attributes.columns.find((c) => c.attributes.columnType === "INPUT")!.id;
    return { client, audienceId: created.data.id, rowIds: created.meta.rowIds, input };
  }

  it("reads pages of 500, the rows named by id, and the rows a filter group selects", async () => {
    const { client, audienceId, rowIds, input } = await setUp();
    const first = await client.getAudienceRows(audienceId, { page: 1, size: 500 });
    assert.equal(first.rows.length, 500);
    assert.equal(first.totalResults, 600);
    assert.equal(first.totalPages, 2);

    const named = [rowIds[599]!, rowIds[3]!, rowIds[42]!];
    const byId = await client.getAudienceRows(audienceId, { search: { ids: named }, size: 500 });
    assert.deepEqual(new Set(byId.rows.map((r) => r.id)), new Set(named));
    assert.equal(byId.totalResults, 3);

    const refOf = (rowId: string) => String(first.rows.find((r) => r.id === rowId)!.attributes.values.find((v) => v.columnId === input)!.value);
    const [a, b] = [refOf(rowIds[3]!), refOf(rowIds[42]!)];
    const filter = (operator: "AND" | "OR") => ({
      operator,
      filters: [a, b].map((ref) => ({ type: "Filter" as const, columnId: input, values: [ref], filterOperator: "EQUALS" as const })),
    });
    const either = await client.getAudienceRows(audienceId, { search: { filter: filter("OR") } });
    assert.deepEqual(either.rows.map((r) => r.id).sort(), [rowIds[3]!, rowIds[42]!].sort());
    const both = await client.getAudienceRows(audienceId, { search: { filter: filter("AND") } });
    assert.equal(both.totalResults, 0);
    const narrowed = await client.getAudienceRows(audienceId, { search: { filter: filter("OR"), ids: [rowIds[3]!, rowIds[7]!] } });
    assert.deepEqual(
      narrowed.rows.map((r) => r.id),
      [rowIds[3]!],
      "ids and filter together",
    );
  });

  it("reads a job's rows only, page by page", async () => {
    const { client, audienceId, rowIds } = await setUp();
    sb.resetStats();
    const rows = await readAllRows(client, audienceId, { rowIds: rowIds.slice(100, 110) });
    assert.deepEqual(
      rows.map((r) => r.id),
      rowIds.slice(100, 110),
    );
    assert.equal(sb.requests("POST /v1/audiences/:audienceId/rows/actions/search"), 1);
    assert.equal((await readAllRows(client, audienceId)).length, 600);
  });

  it("refuses a page above 500 rows and a malformed filter before sending", async () => {
    const { client, audienceId } = await setUp();
    sb.resetStats();
    const tooBig = await client.getAudienceRows(audienceId, { size: 501 }).catch((e: unknown) => e);
    assert.ok(tooBig instanceof ServiceError && tooBig.kind === "validation" && tooBig.issues[0]?.parameter === "page[size]");
    const bad = await client.getAudienceRows(audienceId, { search: { filter: { operator: "AND", filters: [] } } }).catch((e: unknown) => e);
    assert.ok(bad instanceof ServiceError && bad.kind === "validation", String(bad));
    assert.equal(sb.requests(), 0, "nothing sent");
  });
});
