import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { JobPoller, JobTracker, MAX_REMEMBERED_JOBS, keyValueJobStorage, memoryJobStorage, type TrackedJob } from "../../../src/core/jobs/index.js";
import type { KeyValueItems } from "../../../src/core/storage/keyValue.js";
import { FakeClock } from "../api/scripted.js";
import { ScriptedJobs, status } from "./fakes.js";

function mapStore(): KeyValueItems & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: async (k) => data.get(k) ?? null, setItem: async (k, v) => void data.set(k, v) };
}

describe("JobTracker", () => {
  it("lists a started job, follows it to its end and remembers the end", async () => {
    const timer = new FakeClock();
    const client = new ScriptedJobs(timer, { j1: [status("SCHEDULED"), status("RUNNING", 30), status("PARTIALLY_SUCCEEDED", 100)] });
    const poller = new JobPoller({ client, clock: timer });
    const storage = memoryJobStorage();
    const tracker = await JobTracker.open({ poller, storage, clock: timer });
    const snapshots: string[] = [];
    tracker.subscribe((s) => snapshots.push(s.jobs.map((j) => `${j.status}:${j.percentProgress ?? "-"}`).join(",")));
    await tracker.track({ audienceId: "aud", jobId: "j1", audienceName: "Target accounts", scope: "AUDIENCE" });
    await timer.advance(60_000);
    await tracker.flush();
    const [job] = tracker.snapshot().jobs;
    assert.equal(job?.status, "PARTIALLY_SUCCEEDED");
    assert.equal(job?.terminal, true);
    assert.equal(job?.audienceName, "Target accounts");
    assert.equal(job?.startedAt, 0, "times come from the tracker's clock");
    assert.ok(job?.finishedAt !== undefined && job.finishedAt > job.startedAt);
    assert.ok(snapshots.includes("RUNNING:30"));
    assert.equal(storage.saved()[0]?.status, "PARTIALLY_SUCCEEDED");
    assert.equal(timer.pendingTimers, 0, "polling stopped at the terminal state");
  });

  it("resumes a job mid-way when reopened (the task pane closed and opened again)", async () => {
    const timer = new FakeClock();
    const client = new ScriptedJobs(timer, {
      j1: [status("RUNNING", 10), status("RUNNING", 40), status("RUNNING", 70), status("SUCCEEDED", 100)],
    });
    const kv = mapStore();
    const first = await JobTracker.open({ poller: new JobPoller({ client, clock: timer }), storage: keyValueJobStorage(kv, "ana@example.com"), clock: timer });
    await first.track({ audienceId: "aud", jobId: "j1", audienceName: "A" });
    await timer.advance(1500);
    await first.flush();
    assert.equal(first.snapshot().jobs[0]?.status, "RUNNING");
    first.close();
    const callsWhileClosed = client.calls.length;
    await timer.advance(30_000);
    assert.equal(client.calls.length, callsWhileClosed, "a closed tracker polls nothing");

    const reopened = await JobTracker.open({
      poller: new JobPoller({ client, clock: timer }),
      storage: keyValueJobStorage(kv, "ana@example.com"),
      clock: timer,
    });
    assert.equal(reopened.snapshot().jobs[0]?.status, "RUNNING", "the remembered state shows at once");
    await timer.advance(60_000);
    await reopened.flush();
    assert.equal(reopened.snapshot().jobs[0]?.status, "SUCCEEDED");
    assert.equal(reopened.snapshot().jobs[0]?.percentProgress, 100);
  });

  it("gives the same tracker to a panel mounted twice, so the two never overwrite each other's list", async () => {
    const timer = new FakeClock();
    const client = new ScriptedJobs(timer, { j1: [status("RUNNING", 10)], j2: [status("RUNNING", 20)] });
    const poller = new JobPoller({ client, clock: timer });
    const kv = mapStore();
    const first = await JobTracker.open({ poller, storage: keyValueJobStorage(kv, "same-user") });
    const second = await JobTracker.open({ poller, storage: keyValueJobStorage(kv, "same-user") });
    assert.equal(first, second);
    await first.track({ audienceId: "aud", jobId: "j1", audienceName: "A" });
    await second.track({ audienceId: "aud", jobId: "j2", audienceName: "B" });
    await timer.advance(5000);
    await first.flush();
    const stored = JSON.parse([...kv.data.values()][0]!) as TrackedJob[];
    assert.deepEqual(stored.map((j) => j.jobId).sort(), ["j1", "j2"]);
    first.close();
    const third = await JobTracker.open({ poller, storage: keyValueJobStorage(kv, "same-user") });
    assert.notEqual(third, first, "a closed tracker is not handed out again");
    assert.equal(third.snapshot().jobs.length, 2);
    third.close();
    poller.dispose();
  });

  it("keeps each user's jobs apart", async () => {
    const timer = new FakeClock();
    const client = new ScriptedJobs(timer, { j1: [status("SUCCEEDED", 100)] });
    const kv = mapStore();
    const ana = await JobTracker.open({ poller: new JobPoller({ client, clock: timer }), storage: keyValueJobStorage(kv, "ana"), clock: timer });
    await ana.track({ audienceId: "aud", jobId: "j1", audienceName: "A" });
    const bo = await JobTracker.open({ poller: new JobPoller({ client, clock: timer }), storage: keyValueJobStorage(kv, "bo"), clock: timer });
    assert.equal(bo.snapshot().jobs.length, 0);
    assert.equal(ana.snapshot().jobs.length, 1);
  });

  it("does not poll jobs that had already ended", async () => {
    const timer = new FakeClock();
    const client = new ScriptedJobs(timer, {});
    const done: TrackedJob = { audienceId: "a", jobId: "old", audienceName: "A", startedAt: 0, status: "FAILED", terminal: true, finishedAt: 5 };
    const tracker = await JobTracker.open({ poller: new JobPoller({ client, clock: timer }), storage: memoryJobStorage([done]) });
    await timer.advance(60_000);
    assert.equal(client.calls.length, 0);
    assert.equal(tracker.snapshot().jobs[0]?.status, "FAILED");
  });

  it("says so when the list cannot be saved, and keeps following the job", async () => {
    const timer = new FakeClock();
    const client = new ScriptedJobs(timer, { j1: [status("RUNNING", 50), status("SUCCEEDED", 100)] });
    const storage = { load: async () => [], save: async () => Promise.reject(new Error("storage is full")) };
    const tracker = await JobTracker.open({ poller: new JobPoller({ client, clock: timer }), storage, clock: timer });
    await tracker.track({ audienceId: "aud", jobId: "j1", audienceName: "A" });
    await timer.advance(30_000);
    await tracker.flush();
    const snap = tracker.snapshot();
    assert.match(snap.storageProblem ?? "", /storage is full/);
    assert.equal(snap.jobs[0]?.status, "SUCCEEDED");
  });

  it("forgets the oldest finished jobs beyond the cap, never an unfinished one", async () => {
    const jobs: TrackedJob[] = [];
    for (let i = 0; i < MAX_REMEMBERED_JOBS + 10; i++) {
      jobs.push({ audienceId: "a", jobId: `j${i}`, audienceName: "A", startedAt: i, status: i === 0 ? "RUNNING" : "SUCCEEDED", terminal: i !== 0 });
    }
    const storage = memoryJobStorage();
    await storage.save(jobs);
    const kept = storage.saved();
    assert.equal(kept.length, MAX_REMEMBERED_JOBS);
    assert.ok(
      kept.some((j) => j.jobId === "j0"),
      "the unfinished oldest job is kept",
    );
    assert.ok(!kept.some((j) => j.jobId === "j1"), "the oldest finished job goes");
  });
});
