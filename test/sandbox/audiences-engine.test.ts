// The job engine driven step by step with its own clock: pacing by rows per second, the
// terminal state from the rows' outcomes, resuming from the database, and failing cleanly.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { JobEngine } from "../../src/sandbox/audiences/engine.js";
import { buildAudience } from "../../src/sandbox/audiences/seed.js";
import { AudienceStore } from "../../src/sandbox/audiences/store.js";
import type { CreditLedger, RecordStore } from "../../src/sandbox/context.js";

let n = 0;
const id = () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;

function records(throwing = false): RecordStore {
  const attrs = (ids: number[], fields: string[]) => {
    if (throwing) throw new Error("the record store is broken");
    return new Map(ids.filter((i) => i <= 100).map((i) => [i, Object.fromEntries(fields.map((f) => [f, f === "id" ? i : `${f} ${i}`]))]));
  };
  return { companyAttributes: attrs, contactAttributes: attrs, companyCount: () => 100, contactCount: () => 100 };
}

const credits: CreditLedger = {
  charge: (_a, _k, ids) => ({ free: [], charged: ids, refused: [] }),
  balance: () => 1000,
  canSpend: () => true,
  purchaseDate: () => undefined,
};

function setup(recordIds: number[], badRows = 0, db = new Database(":memory:")) {
  const store = new AudienceStore(db);
  const audience = buildAudience({ name: "T", description: "", type: "COMPANY", recordIds, badRows }, id, 100);
  store.createAudience(audience);
  const jobId = id();
  store.createJob(
    { id: jobId, audienceId: audience.id, account: "acc", columnIds: audience.columns.slice(1).map((c) => c.id), rowIds: audience.rows.map((r) => r.id) },
    new Date(0).toISOString(),
  );
  return { db, store, audience, jobId };
}

function engine(store: AudienceStore, clock: { t: number }, rps: number, recordStore = records()) {
  return new JobEngine({ store, records: recordStore, credits, rowsPerSecond: () => rps, clock: { now: () => clock.t, sleep: () => new Promise(() => {}) } });
}

describe("audience job engine", () => {
  it("moves SCHEDULED -> RUNNING, then enriches rows at the set speed until SUCCEEDED", () => {
    const { store, jobId } = setup(Array.from({ length: 50 }, (_, i) => i + 1));
    const clock = { t: 0 };
    const e = engine(store, clock, 100);
    e.tick();
    assert.equal(store.getJob(jobId)?.state, "RUNNING");
    assert.equal(store.getJob(jobId)?.doneRows, 0);
    clock.t += 200; // 100 rows/s for 0.2 s: 20 rows
    e.tick();
    assert.equal(store.getJob(jobId)?.doneRows, 20);
    assert.equal(store.getJob(jobId)?.percent, 40);
    clock.t += 1000;
    e.tick();
    const job = store.getJob(jobId);
    assert.equal(job?.state, "SUCCEEDED");
    assert.equal(job?.percent, 100);
    e.stop();
  });

  it("ends PARTIALLY_SUCCEEDED or FAILED from the rows' outcomes", () => {
    const partial = setup([1, 2, 3], 2);
    const failed = setup([], 3);
    for (const { store } of [partial, failed]) {
      const clock = { t: 0 };
      const e = engine(store, clock, 1000);
      e.tick();
      clock.t += 1000;
      e.tick();
      e.stop();
    }
    assert.equal(partial.store.getJob(partial.jobId)?.state, "PARTIALLY_SUCCEEDED");
    assert.equal(partial.store.getJob(partial.jobId)?.failedRows, 2);
    assert.equal(failed.store.getJob(failed.jobId)?.state, "FAILED");
  });

  it("resumes a RUNNING job from the database with a new engine (a restart)", () => {
    const { store, jobId, db } = setup(Array.from({ length: 40 }, (_, i) => i + 1));
    const clock = { t: 0 };
    const first = engine(store, clock, 100);
    first.tick();
    clock.t += 100;
    first.tick();
    first.stop();
    assert.equal(store.getJob(jobId)?.doneRows, 10);
    const second = engine(new AudienceStore(db), clock, 100);
    second.start();
    second.tick();
    clock.t += 1000;
    second.tick();
    second.stop();
    assert.equal(store.getJob(jobId)?.state, "SUCCEEDED");
  });

  it("ends a job FAILED, not RUNNING forever, when a step cannot be done", () => {
    const { store, jobId } = setup([1, 2, 3]);
    const clock = { t: 0 };
    const e = engine(store, clock, 100, records(true));
    const writes: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => (writes.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      e.tick();
      clock.t += 1000;
      e.tick();
    } finally {
      process.stderr.write = original;
      e.stop();
    }
    assert.equal(store.getJob(jobId)?.state, "FAILED");
    assert.match(writes.join(""), /record store is broken/);
    assert.deepEqual(store.activeJobs(), []);
  });
});
