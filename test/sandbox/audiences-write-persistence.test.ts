// A written audience persists in dataDir between runs: its folder, columns, match criteria and
// rows, cell states included; a data folder from before audiences were written opens and takes writes.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import Database from "better-sqlite3";
import { startSandbox } from "../../src/sandbox/server.js";

const dataDir = mkdtempSync(join(tmpdir(), "sandbox-audience-write-"));
after(() => rmSync(dataDir, { recursive: true, force: true }));
const options = { dataDir, companies: 300, contacts: 600, http: true, port: 0, host: "127.0.0.1" } as const;

async function send(url: string, method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { "content-type": "application/vnd.api+json", authorization: `Bearer ${token}` },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as any };
}
const tokenOf = async (url: string) =>
  ((await (await fetch(`${url}/__sandbox/token`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).json()) as any)
    .access_token as string;

test("a written audience, its match criteria and its rows survive a restart", async () => {
  const first = await startSandbox(options);
  let audienceId = "";
  try {
    const token = await tokenOf(first.url);
    const created = await send(first.url, "POST", "/v1/audiences", token, {
      data: {
        type: "Audience",
        attributes: {
          name: "Kept",
          type: "COMPANY",
          origin: "CUSTOM",
          columns: [{ type: "Column", attributes: { name: "Website", dataType: "URL", columnType: "CUSTOM" } }],
        },
      },
    });
    audienceId = created.body.data.id;
    const website = created.body.data.attributes.columns[0].id;
    await send(first.url, "POST", `/v1/audiences/${audienceId}/rows/actions/bulk/upsert`, token, {
      data: [
        { type: "Row", attributes: { values: [{ columnId: website, value: "example.com" }] } },
        { type: "Row", attributes: { values: [{ columnId: website, value: "not a site" }] } },
      ],
    });
    const criteria = await send(first.url, "POST", `/v1/audiences/${audienceId}/actions/match-criteria`, token);
    assert.equal(criteria.status, 200);
  } finally {
    await first.close();
  }

  const second = await startSandbox(options);
  try {
    const token = await tokenOf(second.url);
    const audience = await send(second.url, "GET", `/v1/audiences/${audienceId}`, token);
    assert.equal(audience.body.data.attributes.recordCount, 2);
    const match = audience.body.data.attributes.columns.find((c: any) => c.attributes.columnType === "MATCH");
    assert.deepEqual(match.attributes.matchCriteria, [{ columnId: audience.body.data.attributes.columns[0].id, mappedTo: "COMPANY_WEBSITE" }]);
    const rows = await send(second.url, "POST", `/v1/audiences/${audienceId}/rows/actions/search`, token);
    assert.deepEqual(
      rows.body.data.map((r: any) => r.attributes.values[0].state),
      ["RESULT", "ERROR"],
    );
    const folders = await send(second.url, "GET", "/v1/folders", token);
    assert.ok(folders.body.data.some((f: any) => f.attributes.audiences.includes(audienceId)));
  } finally {
    await second.close();
  }
});

test("a data folder from before audiences were written opens, keeps its audiences and takes writes", async () => {
  const oldDir = mkdtempSync(join(tmpdir(), "sandbox-audience-old-"));
  const old = { ...options, dataDir: oldDir };
  try {
    await (await startSandbox(old)).close();
    // The tables as they were before: no folders, no folder or notes of an audience, no match criteria.
    const db = new Database(join(oldDir, "sandbox.db"));
    db.exec(
      "DROP TABLE audience_folder; ALTER TABLE audience DROP COLUMN folder_id; ALTER TABLE audience DROP COLUMN notes; ALTER TABLE audience_column DROP COLUMN match_criteria;",
    );
    const seeded = (db.prepare("SELECT count(*) AS n FROM audience").get() as { n: number }).n;
    db.close();
    const reopened = await startSandbox(old);
    try {
      const token = await tokenOf(reopened.url);
      const list = await send(reopened.url, "GET", "/v1/audiences", token);
      assert.equal(list.body.data.length, seeded);
      const created = await send(reopened.url, "POST", "/v1/audiences", token, {
        data: { type: "Audience", attributes: { name: "New", type: "CONTACT", origin: "CUSTOM" } },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
    } finally {
      await reopened.close();
    }
  } finally {
    rmSync(oldDir, { recursive: true, force: true });
  }
});
