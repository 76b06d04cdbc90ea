// The audience operations of the sandbox over real HTTP: listing, rows, every answer of
// starting an enrichment, job status (docs/service.md, "Audiences and jobs") and the job
// lifecycle, including a restart during a job. The sandboxes run on manual clocks: a job moves
// exactly as far as a test moves time.
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { manualClock, startTestSandbox, type ManualClock, type TestSandbox } from "../helpers/sandbox.js";

type Running = TestSandbox;

/** The real sandbox (small data); jobs fast unless a test slows them. */
function start(options: Parameters<typeof startTestSandbox>[0] = {}): Promise<Running> {
  return startTestSandbox({ companies: 2000, contacts: 2000, jobRowsPerSecond: 5000, ...options });
}

interface Answer {
  status: number;
  body: any;
}

async function call(s: Running, method: string, path: string, token: string | undefined, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": "application/vnd.api+json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(`${s.url}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}

const enrichBody = (attributes: Record<string, unknown>) => ({ data: { type: "AudienceEnrichment", attributes } });
const TERMINAL = ["SUCCEEDED", "PARTIALLY_SUCCEEDED", "FAILED"];

async function createAudience(s: Running, body: Record<string, unknown>): Promise<{ id: string; rowIds: string[]; columns: any[] }> {
  const r = await call(s, "POST", "/__sandbox/audiences", undefined, body);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return { id: r.body.data.id, rowIds: r.body.meta.rowIds, columns: r.body.data.attributes.columns };
}

/** Reads the job, then moves the clock 100 ms, until the job ends; returns every status seen. */
async function followJob(
  s: Running,
  clock: ManualClock,
  token: string,
  audienceId: string,
  jobId: string,
): Promise<{ status: string; percentProgress?: number }[]> {
  const seen: { status: string; percentProgress?: number }[] = [];
  for (;;) {
    const r = await call(s, "GET", `/v1/audiences/${audienceId}/jobs/${jobId}`, token);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    seen.push(r.body.data.attributes);
    if (TERMINAL.includes(r.body.data.attributes.status)) return seen;
    assert.ok(seen.length < 10_000, "the job never ended");
    await clock.advance(100);
  }
}

async function allRows(s: Running, token: string, audienceId: string): Promise<any[]> {
  const rows: any[] = [];
  for (let page = 1; ; page++) {
    const r = await call(s, "GET", `/v1/audiences/${audienceId}/rows?page[number]=${page}&page[size]=100`, token);
    assert.equal(r.status, 200);
    rows.push(...r.body.data);
    if (page >= r.body.meta.page.total) return rows;
  }
}

async function resetAccount(s: Running, id: string, credits: number): Promise<string> {
  const r = await call(s, "POST", "/__sandbox/accounts", undefined, { id, credits });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return s.token({ account: id });
}

async function balance(s: Running, id: string): Promise<number> {
  return (await call(s, "GET", `/__sandbox/accounts/${id}`, undefined)).body.credits;
}

describe("sandbox audiences", () => {
  let s: Running;
  let token: string;
  const clock = manualClock();
  before(async () => {
    s = await start({ clock });
    token = await s.token();
  });
  after(async () => s.close());

  it("lists seeded audiences, with a 500-row one and one holding bad references", async () => {
    const r = await call(s, "GET", "/v1/audiences", token);
    assert.equal(r.status, 200);
    const audiences = r.body.data as any[];
    assert.ok(audiences.length >= 3);
    for (const a of audiences) {
      assert.equal(a.type, "Audience");
      assert.match(a.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.ok(["COMPANY", "CONTACT"].includes(a.attributes.type));
      assert.ok(a.attributes.recordCount >= 50 && a.attributes.recordCount <= 20_000);
      assert.ok(a.attributes.columns.every((c: any) => c.type === "Column" && c.attributes.name && c.attributes.dataType && c.attributes.columnType));
    }
    assert.ok(audiences.some((a) => a.attributes.recordCount === 500));
    const again = await call(s, "GET", `/v1/audiences/${audiences[0].id}`, token);
    assert.deepEqual(again.body.data, audiences[0]);
  });

  it("pages an audience's rows with the search envelope", async () => {
    const a = await createAudience(s, { name: "Paging", type: "COMPANY", recordIds: Array.from({ length: 45 }, (_, i) => i + 1) });
    const r = await call(s, "GET", `/v1/audiences/${a.id}/rows?page[number]=2&page[size]=20`, token);
    assert.equal(r.status, 200);
    assert.equal(r.body.data.length, 20);
    assert.deepEqual(r.body.meta, { totalResults: 45, page: { number: 2, total: 3 } });
    assert.ok(r.body.links.prev && r.body.links.next && r.body.links.first && r.body.links.last);
    assert.deepEqual(
      r.body.data.map((row: any) => row.id),
      a.rowIds.slice(20, 40),
    );
    const row = r.body.data[0];
    assert.equal(row.type, "Row");
    assert.equal(row.attributes.values.length, a.columns.length);
    assert.equal(row.attributes.values[0].value, "21", "the input column holds the record id");
    assert.ok(row.attributes.values.slice(1).every((v: any) => v.state === "BLANK"));
    const last = await call(s, "GET", `/v1/audiences/${a.id}/rows?page[number]=3&page[size]=20`, token);
    assert.equal(last.body.data.length, 5);
    assert.equal(last.body.links.next, undefined);
    const tooBig = await call(s, "GET", `/v1/audiences/${a.id}/rows?page[size]=101`, token);
    assert.equal(tooBig.status, 400);
    assert.equal(tooBig.body.errors[0].source.parameter, "page[size]");
  });

  it("answers 401 without a token and 403 without a data role", async () => {
    assert.equal((await call(s, "GET", "/v1/audiences", undefined)).status, 401);
    const noRole = await s.token({ roles: ["fea:other"] });
    const r = await call(s, "GET", "/v1/audiences", noRole);
    assert.equal(r.status, 403);
    assert.equal(r.body.errors[0].status, "403");
  });

  it("404 for an unknown audience, for its rows, its enrichment and its jobs", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    for (const [method, path, body] of [
      ["GET", `/v1/audiences/${unknown}`, undefined],
      ["GET", `/v1/audiences/${unknown}/rows`, undefined],
      ["POST", `/v1/audiences/${unknown}/actions/enrich`, enrichBody({ scope: "AUDIENCE" })],
      ["GET", `/v1/audiences/${unknown}/jobs/${unknown}`, undefined],
    ] as const) {
      const r = await call(s, method, path, token, body);
      assert.equal(r.status, 404, `${method} ${path}`);
      assert.equal(r.body.errors[0].code, "NOT_FOUND");
      assert.equal(r.body.errors[0].status, "404");
    }
  });

  it("202 with an EnrichJob, then SCHEDULED -> RUNNING with rising progress -> SUCCEEDED; credits per new record", async () => {
    // Slow enough to watch the progress rise; the engine reads the speed at every step.
    s.ctx.options.jobRowsPerSecond = 250;
    const slow = s;
    try {
      const t = await resetAccount(slow, "lifecycle", 1000);
      const ids = Array.from({ length: 100 }, (_, i) => i + 1);
      const a = await createAudience(slow, { name: "Lifecycle", type: "COMPANY", recordIds: ids, account: "lifecycle" });
      const r = await call(slow, "POST", `/v1/audiences/${a.id}/actions/enrich`, t, enrichBody({ scope: "AUDIENCE" }));
      assert.equal(r.status, 202);
      assert.equal(r.body.data.type, "EnrichJob");
      assert.match(r.body.data.id, /^[0-9a-f-]{36}$/);
      const seen = await followJob(slow, clock, t, a.id, r.body.data.id);
      s.ctx.options.jobRowsPerSecond = 5000;
      assert.equal(seen[0]?.status, "SCHEDULED");
      assert.equal(seen.at(-1)?.status, "SUCCEEDED");
      assert.equal(seen.at(-1)?.percentProgress, 100);
      const running = seen.filter((x) => x.status === "RUNNING").map((x) => x.percentProgress ?? 0);
      assert.ok(new Set(running.filter((p) => p > 0 && p < 100)).size >= 2, `progress rose: ${running.join(",")}`);
      for (let i = 1; i < seen.length; i++) assert.ok((seen[i]!.percentProgress ?? 0) >= (seen[i - 1]!.percentProgress ?? 0));
      const rows = await allRows(slow, t, a.id);
      assert.ok(rows.every((row) => row.attributes.values.slice(1).every((v: any) => v.state === "RESULT" || v.state === "BLANK")));
      assert.ok(rows.every((row) => row.attributes.values[1].state === "RESULT" && typeof row.attributes.values[1].value === "string"));
      assert.equal(await balance(slow, "lifecycle"), 900, "one credit per new record");
      // Enriching again costs nothing: every record is under management now.
      const again = await call(slow, "POST", `/v1/audiences/${a.id}/actions/enrich`, t, enrichBody({ scope: "AUDIENCE" }));
      assert.equal((await followJob(slow, clock, t, a.id, again.body.data.id)).at(-1)?.status, "SUCCEEDED");
      assert.equal(await balance(slow, "lifecycle"), 900);
    } finally {
      s.ctx.options.jobRowsPerSecond = 5000;
    }
  });

  it("enriches only the chosen rows and columns with the ROW scope", async () => {
    const a = await createAudience(s, { name: "Rows", type: "COMPANY", recordIds: [11, 12, 13, 14, 15] });
    const nameColumn = a.columns.find((c) => c.attributes.name === "Company name");
    const cityColumn = a.columns.find((c) => c.attributes.name === "City");
    const r = await call(
      s,
      "POST",
      `/v1/audiences/${a.id}/actions/enrich`,
      token,
      enrichBody({ scope: "ROW", rows: [a.rowIds[1], a.rowIds[3]], columns: [nameColumn.id] }),
    );
    assert.equal(r.status, 202);
    assert.equal((await followJob(s, clock, token, a.id, r.body.data.id)).at(-1)?.status, "SUCCEEDED");
    const rows = await allRows(s, token, a.id);
    const state = (row: any, columnId: string) => row.attributes.values.find((v: any) => v.columnId === columnId).state;
    assert.deepEqual(
      rows.map((row) => state(row, nameColumn.id)),
      ["BLANK", "RESULT", "BLANK", "RESULT", "BLANK"],
    );
    assert.ok(
      rows.every((row) => state(row, cityColumn.id) === "BLANK"),
      "columns not asked for stay as they were",
    );
  });

  it("ends PARTIALLY_SUCCEEDED when some rows hold bad references, with ERROR / NO_RESULT and errorDetails", async () => {
    const a = await createAudience(s, { name: "Bad refs", type: "COMPANY", recordIds: [21, 22, 23, 24, 25, 26], badRows: 4 });
    const r = await call(s, "POST", `/v1/audiences/${a.id}/actions/enrich`, token, enrichBody({ scope: "AUDIENCE" }));
    assert.equal((await followJob(s, clock, token, a.id, r.body.data.id)).at(-1)?.status, "PARTIALLY_SUCCEEDED");
    const rows = await allRows(s, token, a.id);
    const failed = rows.filter((row) => row.attributes.values.some((v: any) => v.state === "ERROR" || v.state === "NO_RESULT"));
    assert.equal(failed.length, 4);
    const states = new Set(failed.flatMap((row) => row.attributes.values.slice(1).map((v: any) => v.state)));
    assert.deepEqual([...states].sort(), ["ERROR", "NO_RESULT"]);
    for (const row of failed) {
      for (const v of row.attributes.values.slice(1)) {
        assert.equal(typeof v.errorDetails.summary, "string");
        assert.equal(v.errorDetails.retryable, false);
      }
    }
  });

  it("ends FAILED when no row can be enriched", async () => {
    const a = await createAudience(s, { name: "All bad", type: "CONTACT", recordIds: [], badRows: 3 });
    const r = await call(s, "POST", `/v1/audiences/${a.id}/actions/enrich`, token, enrichBody({ scope: "AUDIENCE" }));
    assert.equal(r.status, 202);
    assert.equal((await followJob(s, clock, token, a.id, r.body.data.id)).at(-1)?.status, "FAILED");
  });

  it("enriches contact audiences, company name included", async () => {
    const a = await createAudience(s, { name: "People", type: "CONTACT", recordIds: [1, 2, 3] });
    const r = await call(s, "POST", `/v1/audiences/${a.id}/actions/enrich`, token, enrichBody({ scope: "AUDIENCE" }));
    assert.equal((await followJob(s, clock, token, a.id, r.body.data.id)).at(-1)?.status, "SUCCEEDED");
    const companyColumn = a.columns.find((c) => c.attributes.name === "Company name");
    const rows = await allRows(s, token, a.id);
    for (const row of rows) {
      const v = row.attributes.values.find((x: any) => x.columnId === companyColumn.id);
      assert.equal(v.state, "RESULT");
      assert.equal(typeof v.value, "string");
    }
  });

  it("204 when no rows match the scope", async () => {
    const a = await createAudience(s, { name: "Empty", type: "COMPANY", recordIds: [] });
    const r = await call(s, "POST", `/v1/audiences/${a.id}/actions/enrich`, token, enrichBody({ scope: "AUDIENCE" }));
    assert.equal(r.status, 204);
    assert.equal(r.body, undefined);
  });

  describe("400 for a malformed request", () => {
    let a: { id: string; rowIds: string[]; columns: any[] };
    before(async () => {
      a = await createAudience(s, { name: "Validation", type: "COMPANY", recordIds: [1, 2, 3] });
    });
    const cases: [string, unknown, string][] = [
      ["a body that is not JSON", "{not json", ""],
      ["no scope", enrichBody({}), "/data/attributes/scope"],
      ["an unknown scope", enrichBody({ scope: "EVERYTHING" }), "/data/attributes/scope"],
      ["ROW without rows", enrichBody({ scope: "ROW" }), "/data/attributes/rows"],
      ["ROW with an empty list", enrichBody({ scope: "ROW", rows: [] }), "/data/attributes/rows"],
      ["a row id that is no UUID", enrichBody({ scope: "ROW", rows: ["row-1"] }), "/data/attributes/rows/0"],
      ["an unknown attribute", enrichBody({ scope: "AUDIENCE", everything: true }), "/data/attributes/everything"],
      ["the wrong type", { data: { type: "Enrichment", attributes: { scope: "AUDIENCE" } } }, "/data/type"],
    ];
    for (const [name, body, pointer] of cases) {
      it(name, async () => {
        const r = await call(s, "POST", `/v1/audiences/${a.id}/actions/enrich`, token, body);
        assert.equal(r.status, 400, JSON.stringify(r.body));
        assert.equal(r.body.errors[0].status, "400");
        assert.equal(r.body.errors[0].source.pointer, pointer);
      });
    }
    it("an unknown row id, pointing at it", async () => {
      const stranger = "11111111-1111-4111-8111-111111111111";
      const r = await call(s, "POST", `/v1/audiences/${a.id}/actions/enrich`, token, enrichBody({ scope: "ROW", rows: [a.rowIds[0], stranger] }));
      assert.equal(r.status, 400);
      assert.equal(r.body.errors.length, 1);
      assert.equal(r.body.errors[0].source.pointer, "/data/attributes/rows/1");
      assert.match(r.body.errors[0].detail, /not in this audience/);
    });
    it("an unknown column id, pointing at it", async () => {
      const r = await call(
        s,
        "POST",
        `/v1/audiences/${a.id}/actions/enrich`,
        token,
        enrichBody({ scope: "AUDIENCE", columns: [a.columns[1].id, "no-such-column"] }),
      );
      assert.equal(r.status, 400);
      assert.equal(r.body.errors[0].source.pointer, "/data/attributes/columns/1");
    });
  });

  it("402 when the account cannot pay for new records", async () => {
    const t = await resetAccount(s, "broke", 0);
    const a = await createAudience(s, { name: "Unaffordable", type: "COMPANY", recordIds: [31, 32], account: "broke" });
    const r = await call(s, "POST", `/v1/audiences/${a.id}/actions/enrich`, t, enrichBody({ scope: "AUDIENCE" }));
    assert.equal(r.status, 402);
    assert.equal(r.body.errors[0].status, "402");
  });

  it("marks rows beyond the last credit as ERROR when credits run out during a job", async () => {
    const t = await resetAccount(s, "few-credits", 3);
    const a = await createAudience(s, { name: "Five", type: "COMPANY", recordIds: [41, 42, 43, 44, 45], account: "few-credits" });
    const r = await call(s, "POST", `/v1/audiences/${a.id}/actions/enrich`, t, enrichBody({ scope: "AUDIENCE" }));
    assert.equal(r.status, 202);
    assert.equal((await followJob(s, clock, t, a.id, r.body.data.id)).at(-1)?.status, "PARTIALLY_SUCCEEDED");
    const rows = await allRows(s, t, a.id);
    const refused = rows.filter((row) => row.attributes.values[1].state === "ERROR");
    assert.equal(refused.length, 2);
    assert.equal(refused[0].attributes.values[1].errorDetails.retryable, true);
    assert.equal(await balance(s, "few-credits"), 0);
  });

  it("404 for an unknown job and for a job of another audience", async () => {
    const a = await createAudience(s, { name: "Jobs A", type: "COMPANY", recordIds: [1] });
    const b = await createAudience(s, { name: "Jobs B", type: "COMPANY", recordIds: [2] });
    const r = await call(s, "POST", `/v1/audiences/${a.id}/actions/enrich`, token, enrichBody({ scope: "AUDIENCE" }));
    const jobId = r.body.data.id;
    assert.equal((await call(s, "GET", `/v1/audiences/${a.id}/jobs/${jobId}`, token)).status, 200);
    const other = await call(s, "GET", `/v1/audiences/${b.id}/jobs/${jobId}`, token);
    assert.equal(other.status, 404);
    assert.equal(other.body.errors[0].source.parameter, "jobId");
    assert.equal((await call(s, "GET", `/v1/audiences/${a.id}/jobs/22222222-2222-4222-8222-222222222222`, token)).status, 404);
  });
});

describe("sandbox audience jobs across a restart", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "audiences-restart-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("resumes a job interrupted by a restart, persists row values and charges each record once", async () => {
    const firstClock = manualClock();
    const first = await start({ dataDir: dir, jobRowsPerSecond: 200, clock: firstClock });
    let audienceId: string;
    let jobId: string;
    try {
      const t = await resetAccount(first, "restart", 10_000);
      const a = await createAudience(first, { name: "Restart", type: "COMPANY", recordIds: Array.from({ length: 300 }, (_, i) => i + 1), account: "restart" });
      audienceId = a.id;
      const r = await call(first, "POST", `/v1/audiences/${a.id}/actions/enrich`, t, enrichBody({ scope: "AUDIENCE" }));
      jobId = r.body.data.id;
      await firstClock.advance(50); // the engine's first step: RUNNING
      await firstClock.advance(750); // 150 of the 300 rows
      const st = (await call(first, "GET", `/v1/audiences/${a.id}/jobs/${jobId}`, t)).body.data.attributes;
      assert.deepEqual([st.status, st.percentProgress], ["RUNNING", 50], "stopped half-way through");
    } finally {
      await first.close();
    }

    const secondClock = manualClock();
    const second = await start({ dataDir: dir, jobRowsPerSecond: 5000, clock: secondClock });
    try {
      const t = await second.token({ account: "restart" });
      const before = (await call(second, "GET", `/v1/audiences/${audienceId}/jobs/${jobId}`, t)).body.data.attributes;
      assert.equal(before.status, "RUNNING", "the job survived the restart");
      assert.equal(before.percentProgress, 50, "progress kept");
      const seen = await followJob(second, secondClock, t, audienceId, jobId);
      assert.equal(seen.at(-1)?.status, "SUCCEEDED");
      const rows = await allRows(second, t, audienceId);
      assert.equal(rows.length, 300);
      assert.ok(rows.every((row) => row.attributes.values[1].state === "RESULT"));
      assert.equal(await balance(second, "restart"), 10_000 - 300, "each record charged once across the restart");
    } finally {
      await second.close();
    }
  });
});
