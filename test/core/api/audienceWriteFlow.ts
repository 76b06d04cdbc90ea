// The whole loop of an audience written through the client, as the add-in runs it, for either
// profile: a folder, an audience with columns, rows sent (a bad cell among them) and sent again
// by their ids, rows found again by the add-in's key column, match criteria, an enrichment job
// followed to its end, the enriched rows read back by their ids, rows deleted, the audience
// renamed and deleted. Returns what the tests check.
import assert from "node:assert/strict";
import type { ServiceClient } from "../../../src/core/api/index.js";
import type { ManualClock } from "../../helpers/sandbox.js";

export async function writeEnrichReadBack(client: ServiceClient, clock: ManualClock): Promise<void> {
  const folder = await client.createFolder("Trade shows");
  assert.ok((await client.listFolders()).some((f) => f.folderId === folder.folderId));
  const created = await client.createAudience({
    name: "Booth leads",
    kind: "COMPANY",
    folderId: folder.folderId,
    columns: [
      { name: "Website", dataType: "URL" },
      { name: "Company", dataType: "TEXT" },
      { name: "Employees", dataType: "INTEGER" },
      { name: "Sheet row", dataType: "TEXT" },
    ],
  });
  assert.equal(created.kind, "COMPANY");
  const [notes] = await client.addAudienceColumns(created.audienceId, [{ name: "Notes", dataType: "LARGE_TEXT" }]);
  assert.deepEqual({ name: notes!.name, dataType: notes!.dataType, source: notes!.source }, { name: "Notes", dataType: "LARGE_TEXT", source: "custom" });
  const id = Object.fromEntries(created.columns.map((c) => [c.name, c.columnId])) as Record<string, string>;
  assert.deepEqual(
    created.columns.filter((c) => c.source === "custom").map((c) => [c.name, c.dataType]),
    [
      ["Website", "URL"],
      ["Company", "TEXT"],
      ["Employees", "INTEGER"],
      ["Sheet row", "TEXT"],
    ],
  );

  const sent = await client.upsertAudienceRows(created.audienceId, [
    { cells: { [id.Website!]: "northwindtraders.com", [id.Employees!]: 10, [id["Sheet row"]!]: "s1" } },
    { cells: { [id.Company!]: "Contoso, LLC", [id.Employees!]: "many", [id["Sheet row"]!]: "s2" } },
    { cells: { [id.Company!]: "Nobody Anywhere Corp", [id["Sheet row"]!]: "s3" } },
  ]);
  assert.deepEqual(
    sent.map((r) => r.created),
    [true, true, true],
  );
  const refused = sent[1]!.cells.find((c) => c.columnId === id.Employees)!;
  assert.equal(refused.state, "ERROR");
  assert.match(refused.error ?? "", /whole number/);
  const rowIds = sent.map((r) => r.rowId);

  const again = await client.upsertAudienceRows(
    created.audienceId,
    rowIds.map((rowId, i) => ({ rowId, cells: { [id.Employees!]: 10 + i } })),
  );
  assert.deepEqual(
    again.map((r) => [r.rowId, r.created]),
    rowIds.map((rowId) => [rowId, false]),
  );
  assert.equal((await client.getAudience(created.audienceId)).attributes.recordCount, 3, "sending again updated, it added no row");
  const found = await client.findAudienceRowsByKey(created.audienceId, id["Sheet row"]!, ["s1", "s2", "s3", "s4"]);
  assert.deepEqual([found.get("s1"), found.get("s2"), found.get("s3"), found.get("s4")], [[rowIds[0]], [rowIds[1]], [rowIds[2]], undefined]);

  const match = await client.setMatchCriteria(created.audienceId, [
    { columnId: id.Website!, criterion: "COMPANY_WEBSITE" },
    { columnId: id.Company!, criterion: "COMPANY_NAME" },
  ]);
  assert.equal(match.source, "match");
  const columns = await client.listAudienceColumns(created.audienceId);
  const companyName = columns.find((c) => c.source === "enrichment" && c.name === "Company name");
  assert.ok(companyName, JSON.stringify(columns));

  const jobId = await client.startAudienceEnrichment(created.audienceId, { scope: "AUDIENCE" });
  assert.ok(jobId);
  let status = await client.getJob(created.audienceId, jobId);
  for (let i = 0; i < 500 && !status.terminal; i++) {
    await clock.advance(100);
    status = await client.getJob(created.audienceId, jobId);
  }
  assert.equal(status.status, "PARTIALLY_SUCCEEDED");

  const page = await client.getAudienceRows(created.audienceId, { search: { ids: [...rowIds].reverse() }, size: 500 });
  const byRow = new Map(page.rows.map((r) => [r.id, new Map(r.attributes.values.map((v) => [v.columnId, v]))]));
  const value = (rowId: string, columnId: string) => byRow.get(rowId)?.get(columnId)?.value;
  assert.equal(String(value(rowIds[0]!, match.columnId)), "21");
  assert.equal(value(rowIds[0]!, companyName.columnId), "Northwind Traders, Inc.");
  assert.equal(String(value(rowIds[1]!, match.columnId)), "26");
  assert.equal(value(rowIds[1]!, companyName.columnId), "Contoso, LLC");
  assert.equal(value(rowIds[1]!, id["Sheet row"]!), "s2", "the row's own cells come back beside the enriched ones");
  assert.equal(byRow.get(rowIds[2]!)?.get(match.columnId)?.state, "NO_RESULT");

  await client.deleteAudienceRows(created.audienceId, [rowIds[2]!]);
  await client.deleteAudienceRows(created.audienceId, [rowIds[2]!]);
  assert.equal((await client.getAudience(created.audienceId)).attributes.recordCount, 2);
  await client.renameAudience(created.audienceId, "Booth leads (done)");
  assert.equal((await client.getAudience(created.audienceId)).attributes.name, "Booth leads (done)");
  await client.deleteAudience(created.audienceId);
  await assert.rejects(client.getAudience(created.audienceId), (e: unknown) => (e as { kind?: string }).kind === "notFound");
}
