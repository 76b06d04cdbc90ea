// Writing audiences in the specification profile over real HTTP (docs/audiences.md): create
// with columns (201, in a folder of its name), add columns, upsert rows within the limits (50,
// 500) with a state per cell, update by id without duplicates, delete rows (1,000) and
// audiences, rename, folders; and an enrichment job on a written audience that matches its rows
// by website, name and email through the match criteria and fills the service's columns.
import { strict as assert } from "node:assert";
import { before, describe, it } from "node:test";
import { manualClock, useSandbox } from "../helpers/sandbox.js";
import { call } from "./http.js";

const J = "/v1/audiences";
const column = (name: string, dataType: string) => ({ type: "Column", attributes: { name, dataType, columnType: "CUSTOM" } });
const audienceBody = (name: string, type: string, columns: unknown[] = [], folderId?: string) => ({
  data: { type: "Audience", attributes: { name, type, origin: "CUSTOM", columns, ...(folderId ? { folderId } : {}) } },
});
const row = (values: Record<string, unknown>, id?: string) => ({
  type: "Row",
  ...(id ? { id } : {}),
  attributes: { values: Object.entries(values).map(([columnId, value]) => ({ columnId, value })) },
});
const TERMINAL = ["SUCCEEDED", "PARTIALLY_SUCCEEDED", "FAILED"];

describe("audience writes (specification profile)", () => {
  const clock = manualClock();
  const sandbox = useSandbox({ clock, jobRowsPerSecond: 5000 });
  let token = "";
  before(async () => {
    token = await sandbox.token();
  });
  const send = (method: string, path: string, body?: unknown) => call(sandbox, method, path, { token, ...(body !== undefined ? { body } : {}) });

  async function created(name: string, type: string, columns: unknown[]) {
    const r = await send("POST", J, audienceBody(name, type, columns));
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const byName = Object.fromEntries((r.body.data.attributes.columns as { id: string; attributes: { name: string } }[]).map((c) => [c.attributes.name, c.id]));
    return { id: r.body.data.id as string, columns: byName as Record<string, string>, doc: r.body.data };
  }

  async function followJob(audienceId: string, jobId: string): Promise<string> {
    for (let i = 0; i < 1000; i++) {
      const r = await send("GET", `${J}/${audienceId}/jobs/${jobId}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      if (TERMINAL.includes(r.body.data.attributes.status)) return r.body.data.attributes.status;
      await clock.advance(100);
    }
    throw new Error("the job never ended");
  }

  it("creates an audience with its columns (201) in a folder of its name, or in the folder given", async () => {
    const a = await created("Trade show leads", "COMPANY", [column("Website", "URL"), column("Employees", "INTEGER")]);
    assert.deepEqual(
      a.doc.attributes.columns.map((c: { attributes: object }) => c.attributes),
      [
        { name: "Website", dataType: "URL", columnType: "CUSTOM" },
        { name: "Employees", dataType: "INTEGER", columnType: "CUSTOM" },
      ],
    );
    assert.equal(a.doc.attributes.recordCount, 0);
    const folders = await send("GET", "/v1/folders");
    const folder = folders.body.data.find((f: { id: string }) => f.id === a.doc.attributes.folderId);
    assert.equal(folder?.attributes.name, "Trade show leads");
    assert.deepEqual(folder.attributes.audiences, [a.id]);

    const made = await send("POST", "/v1/folders", { data: { type: "Folder", attributes: { name: "Events" } } });
    assert.equal(made.status, 201);
    const inFolder = await send("POST", J, audienceBody("Booth scans", "CONTACT", [], made.body.data.id));
    assert.equal(inFolder.body.data.attributes.folderId, made.body.data.id);
    const unknown = await send("POST", J, audienceBody("Lost", "COMPANY", [], "no-such-folder"));
    assert.equal(unknown.status, 400);
    const auto = await send(
      "POST",
      `${J}?autoMatchCriteria=true`,
      audienceBody("Auto", "COMPANY", [column("Web site", "URL"), column("Account name", "TEXT")]),
    );
    assert.equal(auto.status, 201);
    const [web, account] = auto.body.data.attributes.columns.map((c: { id: string }) => c.id);
    const matchColumn = auto.body.data.attributes.columns.find((c: { attributes: { columnType: string } }) => c.attributes.columnType === "MATCH");
    assert.deepEqual(matchColumn?.attributes.matchCriteria, [
      { columnId: web, mappedTo: "COMPANY_WEBSITE" },
      { columnId: account, mappedTo: "COMPANY_NAME" },
    ]);
    const badType = await send("POST", J, audienceBody("Bad", "COMPANY", [column("X", "MONEY")]));
    assert.equal(badType.status, 400);
    assert.equal(badType.body.errors[0].source.pointer, "/data/attributes/columns/0/attributes/dataType");
  });

  it("takes 50 rows on upsert and 500 on bulk upsert, refusing one more whole; deletes 1,000 at most", async () => {
    const a = await created("Limits", "COMPANY", [column("Name", "TEXT")]);
    const rows = (n: number) => ({ data: Array.from({ length: n }, (_, i) => row({ [a.columns.Name!]: `Company ${i}` })) });
    assert.equal((await send("POST", `${J}/${a.id}/rows/actions/upsert`, rows(51))).status, 400);
    assert.equal((await send("POST", `${J}/${a.id}/rows/actions/bulk/upsert`, rows(501))).status, 400);
    assert.equal((await send("GET", `${J}/${a.id}`)).body.data.attributes.recordCount, 0, "a refused request writes nothing");
    const fifty = await send("POST", `${J}/${a.id}/rows/actions/upsert`, rows(50));
    assert.equal(fifty.status, 200);
    assert.equal(fifty.body.data.length, 50);
    const five00 = await send("POST", `${J}/${a.id}/rows/actions/bulk/upsert`, rows(500));
    assert.equal(five00.status, 200);
    assert.equal((await send("GET", `${J}/${a.id}`)).body.data.attributes.recordCount, 550);
    const ids = [...fifty.body.data, ...five00.body.data].map((r: { id: string }) => r.id);
    const tooMany = { data: Array.from({ length: 1001 }, (_, i) => ({ type: "Row", id: ids[i % ids.length] })) };
    const refused = await send("DELETE", `${J}/${a.id}/rows/actions/bulk/delete`, tooMany);
    assert.equal(refused.status, 400);
    assert.match(refused.body.errors[0].detail, /At most 1,000 rows/);
    const deleted = await send("DELETE", `${J}/${a.id}/rows/actions/bulk/delete`, { data: ids.slice(0, 100).map((id) => ({ type: "Row", id })) });
    assert.equal(deleted.status, 202);
    const job = await send("GET", `${J}/${a.id}/jobs/${deleted.body.data.id}`);
    assert.equal(job.body.data.attributes.status, "SUCCEEDED");
    assert.equal((await send("GET", `${J}/${a.id}`)).body.data.attributes.recordCount, 450);
    const again = await send("DELETE", `${J}/${a.id}/rows/actions/bulk/delete`, { data: ids.slice(0, 100).map((id) => ({ type: "Row", id })) });
    assert.equal(again.status, 202, "deleting rows already gone is harmless");
    assert.equal((await send("GET", `${J}/${a.id}`)).body.data.attributes.recordCount, 450);
  });

  it("takes 500 rows of many columns (over 1 MiB) in one request, and a text too long for any cell is that cell's refusal", async () => {
    const names = Array.from({ length: 20 }, (_, i) => `Field ${i}`);
    const a = await created("Wide", "COMPANY", [...names.map((n) => column(n, "TEXT")), column("Essay", "LARGE_TEXT")]);
    const wide = { data: Array.from({ length: 500 }, (_, r) => row(Object.fromEntries(names.map((n) => [a.columns[n]!, `Row ${r} ${n} ${"x".repeat(60)}`])))) };
    assert.ok(JSON.stringify(wide).length > 1024 * 1024, "the request is over 1 MiB");
    const answer = await send("POST", `${J}/${a.id}/rows/actions/bulk/upsert`, wide);
    assert.equal(answer.status, 200, JSON.stringify(answer.body).slice(0, 300));
    const essay = await send("POST", `${J}/${a.id}/rows/actions/upsert`, {
      data: [row({ [a.columns.Essay!]: "y".repeat(100_001), [a.columns["Field 0"]!]: "kept" })],
    });
    const states = Object.fromEntries(essay.body.data[0].attributes.values.map((v: { columnId: string; state: string }) => [v.columnId, v.state]));
    assert.equal(states[a.columns.Essay!], "ERROR");
    assert.equal(states[a.columns["Field 0"]!], "RESULT");
  });

  it("refuses a value the column's type refuses in that cell only, and updates a row by its id without duplicating it", async () => {
    const a = await created("Cells", "CONTACT", [column("Email", "EMAIL"), column("Seats", "INTEGER"), column("Joined", "DATE"), column("Note", "TEXT")]);
    const c = a.columns;
    const first = await send("POST", `${J}/${a.id}/rows/actions/bulk/upsert`, {
      data: [row({ [c.Email!]: "ana@example.com", [c.Seats!]: "twelve", [c.Joined!]: "2026-02-30", [c.Note!]: "ok" }), row({ [c.Email!]: "not an email" })],
    });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const [one, two] = first.body.data as {
      id: string;
      attributes: { values: { columnId: string; state: string; value?: unknown; errorDetails?: { description: string } }[] };
    }[];
    const cell = (r: typeof one, id: string) => r!.attributes.values.find((v) => v.columnId === id)!;
    assert.deepEqual(
      [cell(one, c.Email!).state, cell(one, c.Seats!).state, cell(one, c.Joined!).state, cell(one, c.Note!).state],
      ["RESULT", "ERROR", "ERROR", "RESULT"],
    );
    assert.match(cell(one, c.Seats!).errorDetails!.description, /whole number/);
    assert.match(cell(one, c.Joined!).errorDetails!.description, /YYYY-MM-DD/);
    assert.equal(cell(two, c.Email!).state, "ERROR");

    const update = await send("POST", `${J}/${a.id}/rows/actions/upsert`, {
      data: [row({ [c.Seats!]: 12 }, one!.id), row({ [c.Email!]: "bo@example.com" }, two!.id)],
    });
    assert.equal(update.status, 200);
    assert.deepEqual(
      update.body.data.map((r: { id: string }) => r.id),
      [one!.id, two!.id],
    );
    assert.equal(cell(update.body.data[0], c.Seats!).value, 12);
    assert.equal(cell(update.body.data[0], c.Email!).value, "ana@example.com", "cells not sent stay as they were");
    assert.equal((await send("GET", `${J}/${a.id}`)).body.data.attributes.recordCount, 2, "an update adds no row");

    const unknownRow = await send("POST", `${J}/${a.id}/rows/actions/upsert`, { data: [row({ [c.Note!]: "x" }, "no-such-row"), row({ [c.Note!]: "y" })] });
    assert.equal(unknownRow.status, 400);
    const unknownColumn = await send("POST", `${J}/${a.id}/rows/actions/upsert`, { data: [row({ "no-such-column": "x" })] });
    assert.equal(unknownColumn.status, 400);
    assert.equal((await send("GET", `${J}/${a.id}`)).body.data.attributes.recordCount, 2, "refused requests write nothing");
  });

  it("enriches a written company audience: rows matched by website, by name and by id gain the match and the service's columns", async () => {
    const a = await created("Accounts", "COMPANY", [
      column("Website", "URL"),
      column("Company", "TEXT"),
      column("Key", "TEXT"),
      column("City", "TEXT"),
      column("ZI", "INTEGER"),
    ]);
    const c = a.columns;
    const upsert = await send("POST", `${J}/${a.id}/rows/actions/bulk/upsert`, {
      data: [
        row({ [c.Website!]: "https://www.northwindtraders.com/contact", [c.Key!]: "r1" }),
        row({ [c.Company!]: "Contoso LLC", [c.Key!]: "r2" }),
        row({ [c.Company!]: "No Such Company Anywhere", [c.Key!]: "r3" }),
        row({ [c.Key!]: "r4" }),
        row({ [c.ZI!]: 24, [c.Key!]: "r5" }),
      ],
    });
    const rowIds = upsert.body.data.map((r: { id: string }) => r.id);
    const noMatch = await send("POST", `${J}/${a.id}/actions/enrich`, { data: { type: "AudienceEnrichment", attributes: { scope: "AUDIENCE" } } });
    assert.equal(noMatch.status, 400, "nothing to fill before the match criteria");
    const criteria = await send("POST", `${J}/${a.id}/actions/match-criteria`, {
      data: {
        type: "UpsertMatchCriteria",
        attributes: {
          matchCriteria: [
            { columnId: c.Website, mappedTo: "COMPANY_WEBSITE" },
            { columnId: c.Company, mappedTo: "COMPANY_NAME" },
            { columnId: c.ZI, mappedTo: "ZOOMINFO_COMPANY_ID" },
          ],
        },
      },
    });
    assert.equal(criteria.status, 200, JSON.stringify(criteria.body));
    const matchId = criteria.body.data.id as string;
    assert.equal(criteria.body.data.attributes.columnType, "MATCH");
    const audience = (await send("GET", `${J}/${a.id}`)).body.data;
    const service = audience.attributes.columns.filter((col: { attributes: { columnType: string } }) => col.attributes.columnType === "ENRICHMENT");
    const nameColumn = service.find((col: { attributes: { name: string } }) => col.attributes.name === "Company name").id;
    assert.ok(
      service.some((col: { attributes: { name: string } }) => col.attributes.name === "City (enriched)"),
      "the service's column does not take the name of the user's own",
    );
    const started = await send("POST", `${J}/${a.id}/actions/enrich`, { data: { type: "AudienceEnrichment", attributes: { scope: "AUDIENCE" } } });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    assert.equal(await followJob(a.id, started.body.data.id), "PARTIALLY_SUCCEEDED");
    const rows = await send("POST", `${J}/${a.id}/rows/actions/search`, { data: { type: "RowSearch", attributes: { ids: rowIds } } });
    const byKey = new Map<string, Map<string, { value?: unknown; state: string }>>();
    for (const r of rows.body.data) {
      const values = new Map<string, { value?: unknown; state: string }>(r.attributes.values.map((v: { columnId: string }) => [v.columnId, v]));
      byKey.set(String(values.get(c.Key!)!.value), values);
    }
    assert.equal(String(byKey.get("r1")!.get(matchId)!.value), "21");
    assert.equal(byKey.get("r1")!.get(nameColumn)!.value, "Northwind Traders, Inc.");
    assert.equal(String(byKey.get("r2")!.get(matchId)!.value), "26");
    assert.equal(byKey.get("r2")!.get(nameColumn)!.value, "Contoso, LLC");
    assert.equal(byKey.get("r3")!.get(matchId)!.state, "NO_RESULT");
    assert.equal(byKey.get("r4")!.get(matchId)!.state, "ERROR", "a row with nothing to match says so");
    assert.equal(String(byKey.get("r5")!.get(matchId)!.value), "24", "a row matched by the record's id");
    assert.equal(byKey.get("r5")!.get(nameColumn)!.value, "Fabrikam S.A.");
  });

  it("enriches a written contact audience matched by email, with the criteria the service maps itself", async () => {
    const people = sandbox.ctx.db
      .prepare("SELECT id, email, first_name AS firstName FROM contacts WHERE email IS NOT NULL AND email != '' ORDER BY id LIMIT 3")
      .all() as {
      id: number;
      email: string;
      firstName: string;
    }[];
    const a = await created("Webinar", "CONTACT", [column("E-mail", "EMAIL"), column("Notes", "LARGE_TEXT")]);
    const upsert = await send("POST", `${J}/${a.id}/rows/actions/bulk/upsert`, {
      data: people.map((p) => row({ [a.columns["E-mail"]!]: p.email.toUpperCase() })),
    });
    assert.equal(upsert.status, 200);
    const criteria = await send("POST", `${J}/${a.id}/actions/match-criteria`);
    assert.equal(criteria.status, 200, JSON.stringify(criteria.body));
    assert.deepEqual(criteria.body.data.attributes.matchCriteria, [{ columnId: a.columns["E-mail"], mappedTo: "CONTACT_EMAIL" }]);
    const started = await send("POST", `${J}/${a.id}/actions/enrich`, { data: { type: "AudienceEnrichment", attributes: { scope: "AUDIENCE" } } });
    assert.equal(await followJob(a.id, started.body.data.id), "SUCCEEDED");
    const rows = await send("POST", `${J}/${a.id}/rows/actions/search`);
    const first = rows.body.data.map((r: { attributes: { values: { columnId: string; value?: unknown }[] } }) =>
      String(r.attributes.values.find((v) => v.columnId === criteria.body.data.id)!.value),
    );
    assert.deepEqual(
      first,
      people.map((p) => String(p.id)),
    );
  });

  it("renames and deletes a column (a mapped one leaves the criteria; the match column stays), and a folder once it is empty", async () => {
    const a = await created("Columns", "COMPANY", [column("Site", "URL"), column("Name", "TEXT")]);
    const criteria = await send("POST", `${J}/${a.id}/actions/match-criteria`);
    assert.equal(criteria.status, 200, JSON.stringify(criteria.body));
    assert.equal(criteria.body.data.attributes.matchCriteria.length, 2);
    const renamed = await send("PATCH", `${J}/${a.id}/columns/${a.columns.Site}`, { data: { type: "Column", attributes: { name: "Web address" } } });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.body.data.attributes.name, "Web address");
    const clash = await send("PATCH", `${J}/${a.id}/columns/${a.columns.Site}`, { data: { type: "Column", attributes: { name: "website" } } });
    assert.match(clash.body.errors[0].detail, /already has a column named "website"/, "the service's own column keeps its name");
    assert.equal(clash.status, 400);
    assert.equal((await send("DELETE", `${J}/${a.id}/columns/${a.columns.Name}`)).status, 204);
    const audience = (await send("GET", `${J}/${a.id}`)).body.data;
    const match = audience.attributes.columns.find((c: { attributes: { columnType: string } }) => c.attributes.columnType === "MATCH");
    assert.deepEqual(match.attributes.matchCriteria, [{ columnId: a.columns.Site, mappedTo: "COMPANY_WEBSITE" }]);
    assert.equal((await send("DELETE", `${J}/${a.id}/columns/${match.id}`)).status, 400);
    const folderId = audience.attributes.folderId as string;
    const full = await send("DELETE", `/v1/folders/${folderId}`);
    assert.equal(full.status, 400);
    assert.match(full.body.errors[0].detail, /holds 1 audience/);
    await send("DELETE", `${J}/${a.id}`);
    assert.equal((await send("DELETE", `/v1/folders/${folderId}`)).status, 204);
    assert.equal((await send("GET", `/v1/folders/${folderId}`)).status, 404);
  });

  it("renames and deletes an audience", async () => {
    const a = await created("Old name", "COMPANY", []);
    const renamed = await send("PATCH", `${J}/${a.id}`, { data: { type: "Audience", attributes: { name: "New name" } } });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.data.attributes.name, "New name");
    assert.equal((await send("DELETE", `${J}/${a.id}`)).status, 204);
    assert.equal((await send("GET", `${J}/${a.id}`)).status, 404);
  });
});
