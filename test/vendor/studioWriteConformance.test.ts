// The production profile's audience writes against the service's published description: an
// audience created, its columns added, match criteria given and left to the service, rows
// upserted (50 and 500 a call, a refused cell among them), searched, enriched and followed,
// deleted, the audience renamed and deleted, folders made, listed and read. Every answer, and
// every refusal, validates against the published schemas; every request body sent validates
// against the published request schema. (The studio description publishes no example request
// or answer for these operations: any it publishes later are replayed below.)
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { manualClock, useSandbox } from "../helpers/sandbox.js";
import { requestErrors, responseErrors, vendorOperation } from "./oracle.js";
import { ALL_SCOPES, callProfile, type VendorAnswer, type VendorCall } from "./productionProfile.js";

type Column = { id: string; attributes: { name: string; columnType: string; dataType?: string } };
type RowDoc = { id: string; attributes: { values: { columnId: string; value: unknown; state: string; errorDetails?: { description: string } }[] } };

const WRITE_OPERATIONS = [
  "Audiences_createAudience",
  "Columns_addColumns",
  "Audiences_upsertMatchCriteria",
  "Rows_upsertRows",
  "Rows_bulkUpsertRows",
  "Rows_deleteRows",
  "Audiences_patchAudience",
  "Audiences_deleteAudience",
  "Folders_createFolder",
  "Folders_listFolders",
  "Folders_getFolderById",
  "Folders_updateFolder",
  "Folders_deleteFolder",
  "Columns_patchColumn",
  "Columns_deleteColumn",
];

const column = (name: string, dataType: string) => ({ type: "Column", attributes: { name, dataType, columnType: "CUSTOM" } });
const row = (values: Record<string, unknown>, id?: string) => ({
  type: "Row",
  ...(id ? { id } : {}),
  attributes: { values: Object.entries(values).map(([columnId, value]) => ({ columnId, value })) },
});

describe("production profile: audience writes against the service's published description", () => {
  const clock = manualClock();
  const sandbox = useSandbox({ profile: "production", clock, jobRowsPerSecond: 5000 });
  let token = "";
  let validated = 0;
  before(async () => {
    token = await sandbox.token({ scopes: ALL_SCOPES });
  });

  /** Sends the operation (its body checked against the published request schema first) and checks the answer's status and shape. */
  const conforming = async (operationId: string, request: VendorCall, status?: number) => {
    if (request.body !== undefined) assert.deepEqual(requestErrors("studio", operationId, request.body), [], `${operationId} request`);
    const answer: VendorAnswer = await callProfile(sandbox, token, "studio", operationId, request);
    const expected = status ?? vendorOperation("studio", operationId).success[0];
    assert.equal(answer.status, expected, `${operationId}: ${answer.url} answered ${answer.status}: ${JSON.stringify(answer.doc).slice(0, 400)}`);
    assert.deepEqual(responseErrors("studio", operationId, answer.doc, answer.status), [], `${operationId}: ${answer.url}`);
    validated += 1;
    return answer.doc as { data: any };
  };

  it("publishes no example for these operations (any published later is checked here)", () => {
    for (const operationId of WRITE_OPERATIONS) {
      const op = vendorOperation("studio", operationId);
      for (const example of op.requestExamples) assert.deepEqual(requestErrors("studio", operationId, example.value), [], `${operationId} ${example.name}`);
      for (const example of op.responseExamples)
        assert.deepEqual(responseErrors("studio", operationId, example.value, example.status), [], `${operationId} ${example.name}`);
    }
  });

  it("creates, fills, matches, enriches and empties an audience in the published shapes", async () => {
    const folder = await conforming("Folders_createFolder", { body: { data: { type: "Folder", attributes: { name: "Events" } } } });
    const folderId = folder.data.id as string;
    const created = await conforming("Audiences_createAudience", {
      body: {
        data: { type: "Audience", attributes: { name: "Booth leads", type: "COMPANY", origin: "CUSTOM", folderId, columns: [column("Website", "URL")] } },
      },
    });
    const audienceId = created.data.id as string;
    assert.equal(created.data.attributes.origin, "CUSTOM");
    const added = await conforming("Columns_addColumns", {
      params: { audienceId },
      body: { data: [column("Company", "TEXT"), column("Employees", "INTEGER"), column("Key", "TEXT")] },
    });
    const ids: Record<string, string> = Object.fromEntries(
      [...(created.data.attributes.columns as Column[]), ...(added.data as Column[])].map((c) => [c.attributes.name, c.id]),
    );
    assert.deepEqual(
      (added.data as Column[]).map((c) => [c.attributes.columnType, c.attributes.dataType]),
      [
        ["CUSTOM", "TEXT"],
        ["CUSTOM", "INTEGER"],
        ["CUSTOM", "TEXT"],
      ],
    );

    const first = await conforming("Rows_upsertRows", {
      params: { audienceId },
      body: {
        data: [
          row({ [ids.Website!]: "northwindtraders.com", [ids.Employees!]: 120, [ids.Key!]: "k1" }),
          row({ [ids.Company!]: "Contoso, LLC", [ids.Employees!]: "many", [ids.Key!]: "k2" }),
        ],
      },
    });
    const rows = first.data as RowDoc[];
    const refused = rows[1]!.attributes.values.find((v) => v.columnId === ids.Employees)!;
    assert.equal(refused.state, "ERROR");
    assert.match(refused.errorDetails!.description, /whole number/);
    const bulk = await conforming("Rows_bulkUpsertRows", {
      params: { audienceId },
      body: {
        data: [
          row({ [ids.Employees!]: 130 }, rows[0]!.id),
          ...Array.from({ length: 499 }, (_, i) => row({ [ids.Company!]: `Filler ${i}`, [ids.Key!]: `f${i}` })),
        ],
      },
    });
    assert.equal(bulk.data[0].id, rows[0]!.id, "an upsert with the row's id updates it");
    for (const [operationId, count] of [
      ["Rows_upsertRows", 51],
      ["Rows_bulkUpsertRows", 501],
    ] as const) {
      const tooMany = await callProfile(sandbox, token, "studio", operationId, {
        params: { audienceId },
        body: { data: Array.from({ length: count }, () => row({})) },
      });
      assert.equal(tooMany.status, 400, `${operationId} with ${count} rows`);
      assert.deepEqual(responseErrors("studio", operationId, tooMany.doc, 400), []);
    }

    const criteria = await conforming("Audiences_upsertMatchCriteria", {
      params: { audienceId },
      body: {
        data: {
          type: "UpsertMatchCriteria",
          attributes: {
            matchCriteria: [
              { columnId: ids.Website, mappedTo: "COMPANY_WEBSITE" },
              { columnId: ids.Company, mappedTo: "COMPANY_NAME" },
            ],
          },
        },
      },
    });
    assert.equal(criteria.data.attributes.columnType, "ZOOMINFO_MATCH");
    assert.equal(criteria.data.attributes.dataType, "ZI_COMPANY_ID");
    const audience = await conforming("Audiences_getAudience", { params: { audienceId } });
    const service = (audience.data.attributes.columns as Column[]).filter((c) => c.attributes.columnType === "ZOOMINFO_COMPANY");
    assert.ok(service.length > 0, "the audience gained the service's columns");

    const started = await conforming("Audiences_enrichAudience", {
      params: { audienceId },
      body: { data: { type: "AudienceEnrichment", attributes: { scope: "ROW", rows: rows.map((r) => r.id) } } },
    });
    let status = "";
    for (let i = 0; i < 500 && !/SUCCEEDED$|FAILED/.test(status); i++) {
      status = (await conforming("Audiences_getJobStatus", { params: { audienceId, jobId: started.data.id } })).data.attributes.status;
      await clock.advance(100);
    }
    assert.equal(status, "SUCCEEDED");
    const read = await conforming("Rows_listRows", {
      params: { audienceId },
      body: { data: { type: "RowSearch", attributes: { ids: rows.map((r) => r.id) } } },
    });
    const matched = (read.data as RowDoc[]).map((r) => r.attributes.values.find((v) => v.columnId === criteria.data.id)!.value);
    assert.deepEqual(matched.map(String).sort(), ["21", "26"]);

    const deleted = await conforming("Rows_deleteRows", {
      params: { audienceId },
      body: { data: bulk.data.slice(1, 101).map((r: RowDoc) => ({ type: "Row", id: r.id })) },
    });
    await conforming("Audiences_getJobStatus", { params: { audienceId, jobId: deleted.data.id } });
    const tooMany = await callProfile(sandbox, token, "studio", "Rows_deleteRows", {
      params: { audienceId },
      body: { data: Array.from({ length: 1001 }, () => ({ type: "Row", id: rows[0]!.id })) },
    });
    assert.equal(tooMany.status, 400);
    assert.deepEqual(responseErrors("studio", "Rows_deleteRows", tooMany.doc, 400), []);
    const after = await conforming("Audiences_getAudience", { params: { audienceId } });
    assert.equal(after.data.attributes.recordCount, 401);

    await conforming("Audiences_upsertMatchCriteria", { params: { audienceId } });
    await conforming("Audiences_patchAudience", { params: { audienceId }, body: { data: { type: "Audience", attributes: { name: "Booth leads (2026)" } } } });
    const listed = await conforming("Folders_listFolders", { query: { "page[size]": 100 } });
    assert.ok((listed.data as { id: string }[]).some((f) => f.id === folderId));
    const read1 = await conforming("Folders_getFolderById", { params: { folderId } });
    assert.deepEqual(read1.data.attributes.audiences, [audienceId]);
    await conforming("Audiences_deleteAudience", { params: { audienceId } });
    assert.equal((await callProfile(sandbox, token, "studio", "Audiences_getAudience", { params: { audienceId } })).status, 404);
  });

  it("takes a column of every data type the service lists for loaded values, and answers good and refused cells of each in the published shape", async () => {
    const good: Record<string, unknown> = {
      TEXT: "Ana",
      LARGE_TEXT: "x".repeat(3000),
      EMAIL: "ana@example.com",
      PHONE: "+1 617 555 0100",
      URL: "https://example.com/a",
      INTEGER: 12,
      DECIMAL: 1.5,
      PERCENT: 12.5,
      CURRENCY: 99.99,
      BOOLEAN: true,
      CHECKBOX: false,
      DATE: "2026-11-27",
      STRING_LIST: ["a", "b"],
      NUMBER_LIST: [1, 2],
      EMAIL_LIST: ["a@example.com"],
      PHONE_LIST: ["+44 20 7946 0000"],
      URL_LIST: ["example.org"],
      OBJECT: '{"a":1}',
    };
    const bad: Record<string, unknown> = {
      TEXT: "y".repeat(2000),
      EMAIL: "nobody",
      PHONE: "n/a",
      URL: "not a site",
      INTEGER: 1.5,
      DECIMAL: "1.5",
      DATE: "27/11/2026",
      BOOLEAN: "yes",
    };
    const types = Object.keys(good);
    const created = await conforming("Audiences_createAudience", {
      body: { data: { type: "Audience", attributes: { name: "Every type", type: "CONTACT", origin: "CUSTOM", columns: types.map((t) => column(t, t)) } } },
    });
    const audienceId = created.data.id as string;
    const byType = new Map((created.data.attributes.columns as Column[]).map((c) => [c.attributes.dataType!, c.id]));
    const rowOf = (values: Record<string, unknown>) => row(Object.fromEntries(Object.entries(values).map(([t, v]) => [byType.get(t)!, v])));
    const answer = await conforming("Rows_bulkUpsertRows", { params: { audienceId }, body: { data: [rowOf(good), rowOf(bad), rowOf({ TEXT: "" })] } });
    const states = (r: RowDoc) => Object.fromEntries(r.attributes.values.map((v) => [types.find((t) => byType.get(t) === v.columnId), v.state]));
    assert.ok(
      Object.values(states(answer.data[0])).every((state) => state === "RESULT"),
      JSON.stringify(states(answer.data[0])),
    );
    const refused = states(answer.data[1]);
    for (const type of Object.keys(bad)) assert.equal(refused[type], "ERROR", type);
    assert.equal(states(answer.data[2]).TEXT, "BLANK");
    for (const r of answer.data as RowDoc[]) await conforming("Rows_getRowById", { params: { audienceId, rowId: r.id } });
    const folders = await conforming("Folders_listFolders", { query: { "page[size]": 1 } });
    assert.equal(folders.data.length, 1);
    await conforming("Folders_listFolders", { query: { "page[number]": 2, "page[size]": 1 } });
  });

  it("takes the plain JSON content type too, and answers refusals (unknown audience, a criterion for the other kind, a column filled by the service) in the published error shape", async () => {
    const created = await conforming("Audiences_createAudience", {
      body: { data: { type: "Audience", attributes: { name: "Plain JSON", type: "CONTACT", origin: "CUSTOM", columns: [column("Email", "EMAIL")] } } },
      contentType: "application/json",
    });
    const audienceId = created.data.id as string;
    const email = created.data.attributes.columns[0].id as string;
    await conforming("Rows_upsertRows", { params: { audienceId }, body: { data: [row({ [email]: "ana@example.com" })] }, contentType: "application/json" });
    const refusals: [string, VendorCall, number][] = [
      ["Columns_addColumns", { params: { audienceId: "3f2b1c9e-1234-4abc-9def-0123456789ab" }, body: { data: [column("X", "TEXT")] } }, 404],
      [
        "Audiences_upsertMatchCriteria",
        {
          params: { audienceId },
          body: { data: { type: "UpsertMatchCriteria", attributes: { matchCriteria: [{ columnId: email, mappedTo: "COMPANY_TICKER" }] } } },
        },
        400,
      ],
      ["Columns_addColumns", { params: { audienceId }, body: { data: [column("Email", "TEXT")] } }, 400],
    ];
    for (const [operationId, request, status] of refusals) {
      const answer = await callProfile(sandbox, token, "studio", operationId, request);
      assert.equal(answer.status, status, `${operationId}: ${JSON.stringify(answer.doc)}`);
      assert.deepEqual(responseErrors("studio", operationId, answer.doc, status), []);
      validated += 1;
    }
    const match = await conforming("Audiences_upsertMatchCriteria", { params: { audienceId } });
    const filled = await callProfile(sandbox, token, "studio", "Rows_upsertRows", {
      params: { audienceId },
      body: { data: [row({ [match.data.id]: "123" })] },
    });
    assert.equal(filled.status, 400, "the match column is the service's to fill");
    assert.deepEqual(responseErrors("studio", "Rows_upsertRows", filled.doc, 400), []);
  });

  it("renames and deletes columns and folders in the published shapes", async () => {
    const folder = await conforming("Folders_createFolder", { body: { data: { type: "Folder", attributes: { name: "Spring" } } } });
    const folderId = folder.data.id as string;
    const renamed = await conforming("Folders_updateFolder", { params: { folderId }, body: { data: { type: "Folder", attributes: { name: "Spring 2027" } } } });
    assert.equal(renamed.data.attributes.name, "Spring 2027");
    const created = await conforming("Audiences_createAudience", {
      body: {
        data: {
          type: "Audience",
          attributes: { name: "Columns", type: "COMPANY", origin: "CUSTOM", folderId, columns: [column("Site", "URL"), column("Spare", "TEXT")] },
        },
      },
    });
    const audienceId = created.data.id as string;
    const [site, spare] = (created.data.attributes.columns as Column[]).map((c) => c.id) as [string, string];
    const column1 = await conforming("Columns_patchColumn", {
      params: { audienceId, columnId: site },
      body: { data: { type: "Column", attributes: { name: "Website" } } },
    });
    assert.equal(column1.data.attributes.name, "Website");
    assert.equal(column1.data.attributes.dataType, "URL", "a column's data type stays as created");
    await conforming("Columns_deleteColumn", { params: { audienceId, columnId: spare } });
    const left = await conforming("Audiences_getAudience", { params: { audienceId } });
    assert.ok(!(left.data.attributes.columns as Column[]).some((c) => c.id === spare));
    await conforming("Audiences_deleteAudience", { params: { audienceId } });
    await conforming("Folders_deleteFolder", { params: { folderId } });
    assert.equal((await callProfile(sandbox, token, "studio", "Folders_getFolderById", { params: { folderId } })).status, 404);
  });

  it("refuses writes to a token without the manage scope, in the gateway's shape", async () => {
    const reader = await sandbox.token({ scopes: ["api:audience:read"] });
    const answer = await callProfile(sandbox, reader, "studio", "Audiences_createAudience", {
      body: { data: { type: "Audience", attributes: { name: "No", type: "COMPANY", origin: "CUSTOM" } } },
    });
    assert.equal(answer.status, 403);
  });

  it("checked a broad set of answers", () => {
    assert.ok(validated >= 35, `only ${validated} answers validated`);
  });
});
