// The service client, the job poller and the job tracker against the real sandbox over HTTP:
// jobs reach each terminal state, failures are counted from the rows, and the answers to
// starting an audience enrichment arrive as values and errors the panel can show.
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { createServiceClient, type ServiceClient } from "../../../src/core/api/index.js";
import { isServiceError } from "../../../src/core/api/errors.js";
import { JobPoller, JobTracker, audienceTable, countFailedRows, memoryJobStorage, readAllRows, type TrackerSnapshot } from "../../../src/core/jobs/index.js";
import { startTestSandbox } from "../../helpers/sandbox.js";

interface Sandbox {
  url: string;
  close(): Promise<void>;
}

async function post(url: string, body: unknown): Promise<any> {
  const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return r.json();
}

function clientFor(url: string, account: string): ServiceClient {
  let token: string | undefined;
  return createServiceClient({
    baseUrl: url,
    rateLimit: { perSecond: 200 },
    getAccessToken: async () => (token ??= (await post(`${url}/__sandbox/token`, { account })).access_token as string),
  });
}

/** Settles on the tracker's first snapshot (the current one or a later change) for which `done` holds. */
function reached(tracker: JobTracker, done: (snapshot: TrackerSnapshot) => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (done(tracker.snapshot())) return resolve();
    const stop = tracker.subscribe((snapshot) => {
      if (!done(snapshot)) return;
      stop();
      resolve();
    });
  });
}

describe("jobs through the client against the sandbox", () => {
  let sandbox: Sandbox;
  let client: ServiceClient;
  let poller: JobPoller;
  before(async () => {
    sandbox = await startTestSandbox({ jobRowsPerSecond: 5000 });
    client = clientFor(sandbox.url, "jobs-client");
    poller = new JobPoller({ client, initialDelayMs: 20, maxDelayMs: 100 });
  });
  after(async () => {
    poller.dispose();
    await sandbox.close();
  });

  async function audience(body: Record<string, unknown>): Promise<{ id: string; name: string; rowIds: string[] }> {
    // Audiences belong to an account: the client's unless the body names another.
    const created = await post(`${sandbox.url}/__sandbox/audiences`, { account: "jobs-client", ...body });
    return { id: created.data.id, name: created.data.attributes.name, rowIds: created.meta.rowIds };
  }

  it("follows jobs to SUCCEEDED, PARTIALLY_SUCCEEDED and FAILED, and counts failed rows from the rows", { timeout: 60_000 }, async () => {
    const storage = memoryJobStorage();
    const tracker = await JobTracker.open({ poller, storage });
    const good = await audience({ name: "Good", type: "COMPANY", recordIds: Array.from({ length: 500 }, (_, i) => i + 1) });
    const mixed = await audience({ name: "Mixed", type: "COMPANY", recordIds: [1, 2, 3, 4, 5, 6, 7], badRows: 3 });
    const bad = await audience({ name: "Bad", type: "COMPANY", recordIds: [], badRows: 2 });
    const expected = new Map<string, string>();
    for (const [a, state] of [
      [good, "SUCCEEDED"],
      [mixed, "PARTIALLY_SUCCEEDED"],
      [bad, "FAILED"],
    ] as const) {
      const jobId = await client.startAudienceEnrichment(a.id, { scope: "AUDIENCE" });
      assert.ok(jobId);
      expected.set(jobId, state);
      await tracker.track({ audienceId: a.id, jobId, audienceName: a.name, scope: "AUDIENCE" });
    }
    await reached(tracker, (snapshot) => snapshot.jobs.every((j) => j.terminal));
    for (const job of tracker.snapshot().jobs) assert.equal(job.status, expected.get(job.jobId), job.audienceName);
    assert.equal(poller.activeJobs, 0);

    const rows = await readAllRows(client, mixed.id);
    assert.equal(countFailedRows(rows), 3);
    const goodRows = await readAllRows(client, good.id);
    assert.equal(goodRows.length, 500);
    assert.equal(countFailedRows(goodRows), 0);
    const table = audienceTable(await client.getAudience(good.id), goodRows);
    assert.equal(table.rows.length, 500);
    assert.equal(table.columns[0]?.header, "Row ID");
    assert.ok(table.rows.every((r) => r.at(-1) === "Enriched"));
    tracker.close();
  });

  it("returns null when no rows match (204), and errors of the right kind for 402 and 404", async () => {
    const empty = await audience({ name: "Empty", type: "COMPANY", recordIds: [] });
    assert.equal(await client.startAudienceEnrichment(empty.id, { scope: "AUDIENCE" }), null);

    await post(`${sandbox.url}/__sandbox/accounts`, { id: "no-credits", credits: 0 });
    const broke = clientFor(sandbox.url, "no-credits");
    const some = await audience({ name: "Some", type: "COMPANY", recordIds: [9] });
    const brokes = await audience({ name: "Some", type: "COMPANY", recordIds: [9], account: "no-credits" });
    await assert.rejects(broke.startAudienceEnrichment(brokes.id, { scope: "AUDIENCE" }), (e) => isServiceError(e) && e.kind === "paymentRequired");
    await assert.rejects(
      client.startAudienceEnrichment("00000000-0000-4000-8000-000000000000", { scope: "AUDIENCE" }),
      (e) => isServiceError(e) && e.kind === "notFound",
    );
    await assert.rejects(
      client.startAudienceEnrichment(some.id, { scope: "ROW", rows: ["11111111-1111-4111-8111-111111111111"] }),
      (e) => isServiceError(e) && e.kind === "validation" && e.issues[0]?.pointer === "/data/attributes/rows/0",
    );
  });
});
