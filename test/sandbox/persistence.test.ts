// Data, accounts and signing keys persist in dataDir between runs; reset starts over. Every
// sandbox a test starts is closed when the test ends, even when a check fails (closedAfter).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import Database from "better-sqlite3";
import { seedAudiences } from "../../src/sandbox/audiences/seed.js";
import { AudienceStore } from "../../src/sandbox/audiences/store.js";
import type { RecordStore } from "../../src/sandbox/context.js";
import { startSandbox } from "../../src/sandbox/server.js";
import { closedAfter } from "../helpers/sandbox.js";

const dataDir = mkdtempSync(join(tmpdir(), "sandbox-persist-"));
after(() => rmSync(dataDir, { recursive: true, force: true }));

const options = { dataDir, companies: 300, contacts: 600, http: true, port: 0, host: "127.0.0.1" } as const;

async function post(url: string, path: string, body: unknown, token?: string) {
  const res = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

test("a restart reuses the data, the accounts and the keys; reset starts over", async (t) => {
  const first = closedAfter(t, await startSandbox(options));
  try {
    assert.ok(first.seededInMs > 0, "the first start seeds");
    await post(first.url, "/__sandbox/accounts", { id: "kept", credits: 10 });
    const token = (await post(first.url, "/__sandbox/token", { account: "kept" })).body.access_token;
    const enriched = await post(
      first.url,
      "/data/v1/companies/enrich",
      { data: { type: "CompanyEnrich", attributes: { matchCompanyInput: [{ companyId: 5 }], outputFields: ["name"] } } },
      token,
    );
    assert.equal(enriched.body.data[0].meta.matchStatus, "FULL_MATCH");
  } finally {
    await first.close();
  }

  const second = closedAfter(t, await startSandbox(options));
  try {
    assert.equal(second.seededInMs, 0, "the second start reuses the seeded data");
    const account = (await (await fetch(`${second.url}/__sandbox/accounts/kept`)).json()) as any;
    assert.equal(account.credits, 9);
    assert.equal(account.underManagement.company, 1);
    // The port differs between runs (and with it the issuer), so take a new token; the signing
    // key itself is the one kept in dataDir.
    const again = (await post(second.url, "/__sandbox/token", { account: "kept" })).body.access_token;
    const search = await post(second.url, "/data/v1/companies/search", { data: { type: "CompanySearch", attributes: { companyId: "5" } } }, again);
    assert.equal(search.body.data[0].attributes.managementStatus.underManagement, true);
    assert.equal(second.ctx.keys.privateJwk.kid, first.ctx.keys.privateJwk.kid);
  } finally {
    await second.close();
  }

  const third = closedAfter(t, await startSandbox({ ...options, reset: true }));
  try {
    assert.ok(third.seededInMs > 0, "reset seeds again");
    const account = (await (await fetch(`${third.url}/__sandbox/accounts/kept`)).json()) as any;
    assert.equal(account.credits, 100000, "accounts start over too");
  } finally {
    await third.close();
  }

  // Different sizes are a different data set: seeded again.
  const fourth = closedAfter(t, await startSandbox({ ...options, companies: 301 }));
  try {
    assert.ok(fourth.seededInMs > 0);
    assert.equal(fourth.ctx.records.companyCount(), 301);
  } finally {
    await fourth.close();
  }
});

interface Db {
  prepare(sql: string): { all(): unknown[] };
}

/** The tables of a database whose names start with `prefix`: each table's rows as JSON, sorted (some tables have no rowid). */
function tables(db: Db, prefix = ""): string {
  const names = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as { name: string }[];
  const rows = (table: string) =>
    db
      .prepare(`SELECT * FROM "${table}"`)
      .all()
      .map((row) => JSON.stringify(row));
  return names
    .filter(({ name }) => name.startsWith(prefix))
    .map(({ name }) => `${name}:\n${rows(name).sort().join("\n")}`)
    .join("\n");
}

/** Every table of a sandbox's database. */
const dump = (s: { ctx: { db: Db } }) => tables(s.ctx.db);

/** The audiences the audiences feature seeds for `seed` on a database of `records`' sizes. */
function audiencesSeededFor(records: RecordStore, seed: number): string {
  const db = new Database(":memory:");
  try {
    seedAudiences(new AudienceStore(db), records, seed);
    return tables(db, "audience");
  } finally {
    db.close();
  }
}

test("the same seed gives the same data", async (t) => {
  const inMemory = { companies: 200, contacts: 300, http: true, port: 0, host: "127.0.0.1" } as const;
  const a = closedAfter(t, await startSandbox(inMemory));
  // Seeded from scratch in a file: an in-memory start may copy an earlier one of this process.
  const fileDir = mkdtempSync(join(tmpdir(), "sandbox-same-seed-"));
  const b = closedAfter(t, await startSandbox({ ...inMemory, dataDir: fileDir }));
  const c = closedAfter(t, await startSandbox({ ...inMemory, seed: 2 }));
  try {
    assert.ok(b.seededInMs > 0, "the file database was seeded");
    assert.equal(dump(a), dump(b));
    assert.notEqual(dump(a), dump(c));
    // The seeded audiences are in the seeded state: those the feature draws from the seed and sizes.
    assert.equal(tables(a.ctx.db, "audience"), audiencesSeededFor(a.ctx.records, 1));
    assert.equal(tables(c.ctx.db, "audience"), audiencesSeededFor(c.ctx.records, 2));
  } finally {
    await Promise.all([a.close(), b.close(), c.close()]);
    rmSync(fileDir, { recursive: true, force: true });
  }
});

test("a second in-memory sandbox with the same seed starts from the first one's seeded state, without its writes", async (t) => {
  const options = { companies: 203, contacts: 307, http: true, port: 0, host: "127.0.0.1" } as const;
  const first = closedAfter(t, await startSandbox(options));
  try {
    assert.ok(first.seededInMs > 0, "seeded");
    const seeded = dump(first);
    first.ctx.db.prepare("UPDATE companies SET name = 'Written by the first' WHERE id = (SELECT MIN(id) FROM companies)").run();
    const second = closedAfter(t, await startSandbox(options));
    try {
      assert.equal(second.seededInMs, 0, "copied, not seeded again");
      assert.equal(dump(second), seeded);
      const other = closedAfter(t, await startSandbox({ ...options, contacts: 308 }));
      assert.ok(other.seededInMs > 0, "other sizes are seeded");
      await other.close();
    } finally {
      await second.close();
    }
  } finally {
    await first.close();
  }
});

test("a sandbox a test started is closed once when the test ends, also when a check failed first", async () => {
  const hooks: (() => unknown)[] = [];
  let closes = 0;
  const failing = { after: (fn: () => unknown) => void hooks.push(fn) };
  const started = closedAfter(failing, { close: async () => void (closes += 1) });
  // The test's body failed before its own close: the context runs the cleanup it was given.
  for (const hook of hooks) await hook();
  assert.equal(closes, 1);
  await started.close();
  assert.equal(closes, 1, "closing again, as a finally block does, closes nothing more");
});
