// The client's audience writes with a scripted service: what is refused before anything is sent
// (over the limits, a bad id, repeated names or rows, a number that cannot be sent, an unknown
// type or criterion), which requests are repeated after a lost answer (an update is, a create is
// not), and how answers are read (rows in the order sent, cells' refusals, columns' sources).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ServiceError, type AudienceColumnInput, type MatchCriterion } from "../../../src/core/api/index.js";
import { harness, rejection } from "./harness.js";
import { answer, type RecordedRequest } from "./scripted.js";

const AUDIENCE = "3f2b1c9e-1234-4abc-9def-0123456789ab";
const COL = "c-email";

/** Upsert answers: each row sent, with the id it had or a new one, its cells RESULT unless `refuse` names the column. */
function upsertService(refuse?: string) {
  let made = 0;
  return (r: RecordedRequest) => {
    const body = r.body as { data: { id?: string; attributes: { values: { columnId: string; value: unknown }[] } }[] };
    const data = body.data.map((row) => ({
      id: row.id ?? `new-${++made}`,
      type: "Row",
      attributes: {
        values: row.attributes.values.map((v) =>
          v.columnId === refuse
            ? {
                columnId: v.columnId,
                value: "",
                state: "ERROR",
                errorDetails: { summary: "Invalid value", description: "This column (EMAIL) takes one email address.", retryable: false },
              }
            : { ...v, state: "RESULT" },
        ),
      },
    }));
    return answer(200, { data });
  };
}

async function refusedBeforeSending(promise: Promise<unknown>, requests: RecordedRequest[]): Promise<ServiceError> {
  const error = await rejection(promise);
  assert.ok(error instanceof ServiceError, String(error));
  assert.equal(error.kind, "validation");
  assert.equal(requests.length, 0, "nothing was sent");
  return error;
}

describe("audience writes: refused before sending", () => {
  it("refuses more than 500 rows to upsert and more than 1,000 to delete, saying the limit", async () => {
    const { client, requests } = harness(() => answer(500));
    const rows = Array.from({ length: 501 }, () => ({ cells: { [COL]: "a@example.com" } }));
    const upsert = await refusedBeforeSending(client.upsertAudienceRows(AUDIENCE, rows), requests);
    assert.match(upsert.message, /At most 500 rows.*501/);
    const deletion = await refusedBeforeSending(
      client.deleteAudienceRows(
        AUDIENCE,
        Array.from({ length: 1001 }, (_, i) => `row-${i}`),
      ),
      requests,
    );
    assert.match(deletion.message, /At most 1,000 rows/);
  });

  it("refuses an audience id that is no id, twice the same row or column, and a number that cannot be sent", async () => {
    const { client, requests } = harness(() => answer(500));
    await refusedBeforeSending(client.upsertAudienceRows("not-an-id", [{ cells: { [COL]: "x" } }]), requests);
    const twice = await refusedBeforeSending(
      client.upsertAudienceRows(AUDIENCE, [
        { rowId: "r1", cells: { [COL]: "x" } },
        { rowId: "r1", cells: { [COL]: "y" } },
      ]),
      requests,
    );
    assert.match(twice.message, /Row r1 is sent twice/);
    const notFinite = await refusedBeforeSending(client.upsertAudienceRows(AUDIENCE, [{ cells: { seats: Number.NaN } }]), requests);
    assert.match(notFinite.message, /Row 1 has a value for column seats/);
    const sameName = await refusedBeforeSending(
      client.createAudience({
        name: "Leads",
        kind: "COMPANY",
        columns: [
          { name: "Email", dataType: "EMAIL" },
          { name: "email ", dataType: "TEXT" },
        ],
      }),
      requests,
    );
    assert.match(sameName.message, /Two columns are named "email"/);
  });

  it("refuses a data type or a criterion the service does not list, an empty name, and keys the row search cannot carry", async () => {
    const { client, requests } = harness(() => answer(500));
    await refusedBeforeSending(client.addAudienceColumns(AUDIENCE, [{ name: "Money", dataType: "MONEY" } as unknown as AudienceColumnInput]), requests);
    await refusedBeforeSending(client.setMatchCriteria(AUDIENCE, [{ columnId: COL, criterion: "EMAIL" as MatchCriterion }]), requests);
    await refusedBeforeSending(client.createAudience({ name: "  ", kind: "COMPANY" }), requests);
    await refusedBeforeSending(client.renameAudience(AUDIENCE, ""), requests);
    await refusedBeforeSending(client.findAudienceRowsByKey(AUDIENCE, "key", ["k".repeat(501)]), requests);
    await refusedBeforeSending(
      client.findAudienceRowsByKey(
        AUDIENCE,
        "key",
        Array.from({ length: 501 }, (_, i) => `k${i}`),
      ),
      requests,
    );
  });
});

describe("audience writes: sending and reading", () => {
  it("sends rows by the bulk upsert and reads them in the order sent, with each refused cell's reason", async () => {
    const { client, requests } = harness(upsertService(COL));
    const rows = await client.upsertAudienceRows(AUDIENCE, [{ cells: { [COL]: "nobody", name: "Ana" } }, { rowId: "r-9", cells: { name: null } }]);
    assert.equal(requests.length, 1);
    assert.equal(requests[0]!.path, `/v1/audiences/${AUDIENCE}/rows/actions/bulk/upsert`);
    assert.deepEqual((requests[0]!.body as { data: unknown[] }).data[1], { type: "Row", id: "r-9", attributes: { values: [{ columnId: "name", value: "" }] } });
    assert.deepEqual(rows, [
      {
        rowId: "new-1",
        created: true,
        cells: [
          { columnId: COL, state: "ERROR", error: "This column (EMAIL) takes one email address." },
          { columnId: "name", state: "RESULT" },
        ],
      },
      { rowId: "r-9", created: false, cells: [{ columnId: "name", state: "RESULT" }] },
    ]);
  });

  it("sends nothing for no rows", async () => {
    const { client, requests } = harness(() => answer(500));
    assert.deepEqual(await client.upsertAudienceRows(AUDIENCE, []), []);
    await client.deleteAudienceRows(AUDIENCE, []);
    assert.equal(requests.length, 0);
  });

  it("repeats an update whose answer was lost, but not a request that creates rows", async () => {
    const updates = harness((_r, i) => (i === 0 ? answer(503) : upsertService()(_r)));
    const run = updates.client.upsertAudienceRows(AUDIENCE, [{ rowId: "r-1", cells: { name: "Ana" } }]);
    const updated = await updates.clock.run(run);
    assert.equal(updates.requests.length, 2, "the update was sent again");
    assert.equal(updated[0]!.rowId, "r-1");

    const creates = harness(() => answer(503));
    const error = await creates.clock.run(rejection(creates.client.upsertAudienceRows(AUDIENCE, [{ cells: { name: "Ana" } }])));
    assert.ok(error instanceof ServiceError);
    assert.equal(creates.requests.length, 1, "a create is not repeated blindly: it could make the rows twice");
  });

  it("finds rows again by the add-in's key column, page by page", async () => {
    const { client, requests, clock } = harness((r) => {
      const page = Number(r.query.get("page[number]"));
      const count = page === 1 ? 500 : 2;
      const data = Array.from({ length: count }, (_, i) => ({
        id: `row-${page}-${i}`,
        type: "Row",
        attributes: { values: [{ columnId: "key", value: page === 2 && i === 1 ? "k-1" : `k-${page}-${i}`, state: "RESULT" }] },
      }));
      return answer(200, { data, meta: { totalResults: 502, page: { number: page, total: 2 } } });
    });
    const found = await clock.run(client.findAudienceRowsByKey(AUDIENCE, "key", ["k-1", "k-1-0", "k-1"]));
    assert.equal(requests.length, 2);
    assert.deepEqual(requests[0]!.body, {
      data: {
        type: "RowSearch",
        attributes: { filter: { operator: "AND", filters: [{ type: "Filter", columnId: "key", values: ["k-1", "k-1-0"], filterOperator: "EQUALS" }] } },
      },
    });
    assert.deepEqual(found.get("k-1"), ["row-2-1"]);
    assert.deepEqual(found.get("k-1-0"), ["row-1-0"]);
  });

  it("reads an audience's columns with where their values come from, in either profile's names", async () => {
    const { client, clock } = harness(() =>
      answer(200, {
        data: {
          id: AUDIENCE,
          type: "Audience",
          attributes: {
            name: "Leads",
            type: "COMPANY",
            recordCount: 0,
            columns: [
              { id: "a", type: "Column", attributes: { name: "Website", dataType: "URL", columnType: "CUSTOM" } },
              {
                id: "b",
                type: "Column",
                attributes: {
                  name: "Match",
                  dataType: "STRING",
                  columnType: "MATCH",
                  serviceDataType: "ZI_COMPANY_ID",
                  matchCriteria: [{ columnId: "a", mappedTo: "COMPANY_WEBSITE" }],
                },
              },
              { id: "c", type: "Column", attributes: { name: "Revenue", dataType: "NUMBER", columnType: "ENRICHMENT" } },
              { id: "d", type: "Column", attributes: { name: "AI summary", columnType: "AI" } },
            ],
          },
        },
      }),
    );
    assert.deepEqual(await clock.run(client.listAudienceColumns(AUDIENCE)), [
      { columnId: "a", name: "Website", dataType: "URL", source: "custom" },
      { columnId: "b", name: "Match", dataType: "ZI_COMPANY_ID", source: "match", matchCriteria: [{ columnId: "a", criterion: "COMPANY_WEBSITE" }] },
      { columnId: "c", name: "Revenue", dataType: "DECIMAL", source: "enrichment" },
      { columnId: "d", name: "AI summary", dataType: "", source: "ai" },
    ]);
  });
});
