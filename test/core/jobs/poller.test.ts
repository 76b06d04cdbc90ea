import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { JobPoller, jobStatusText, type JobUpdate } from "../../../src/core/jobs/index.js";
import { FakeClock } from "../api/scripted.js";
import { serviceError } from "../../../src/core/api/index.js";
import { ScriptedJobs, rateLimited, settle, status } from "./fakes.js";

function setup(scripts: ConstructorParameters<typeof ScriptedJobs>[1]) {
  const timer = new FakeClock();
  const client = new ScriptedJobs(timer, scripts);
  const poller = new JobPoller({ client, clock: timer, initialDelayMs: 1000, maxDelayMs: 10000, growth: 2 });
  return { timer, client, poller };
}

describe("JobPoller", () => {
  for (const terminal of ["SUCCEEDED", "PARTIALLY_SUCCEEDED", "FAILED", "CANCELLED"]) {
    it(`follows a job to ${terminal} and then stops polling`, async () => {
      const { timer, client, poller } = setup({ a: [status("SCHEDULED"), status("RUNNING", 40), status(terminal, 100)] });
      const seen: string[] = [];
      poller.watch("aud", "a", (u) => u.kind === "status" && seen.push(jobStatusText(u.status)));
      await timer.advance(60_000);
      assert.deepEqual(seen, ["SCHEDULED", "RUNNING 40%", terminal]);
      assert.equal(client.calls.length, 3);
      assert.equal(poller.activeJobs, 0);
      assert.equal(timer.pendingTimers, 0, "no timer left once every job ended");
    });
  }

  it("backs off between polls while nothing changes, up to the cap", async () => {
    const { timer, client, poller } = setup({ a: [status("SCHEDULED"), status("RUNNING", 1)] });
    poller.watch("aud", "a", () => {});
    await timer.advance(60_000);
    const at = client.callsFor("a");
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    // 1 s after the first poll, reset to 1 s when SCHEDULED -> RUNNING, then 2, 4, 8, 10, 10 ...
    assert.deepEqual(gaps.slice(0, 6), [1000, 1000, 2000, 4000, 8000, 10000]);
    assert.ok(gaps.every((g) => g <= 10000));
    poller.dispose();
  });

  it("waits at least the Retry-After of a 429 before asking again", async () => {
    const { timer, client, poller } = setup({ a: [status("RUNNING", 10), rateLimited(30_000), status("SUCCEEDED", 100)] });
    const updates: JobUpdate[] = [];
    poller.watch("aud", "a", (u) => updates.push(u));
    await timer.advance(120_000);
    const at = client.callsFor("a");
    assert.equal(at.length, 3);
    assert.ok(at[2]! - at[1]! >= 30_000, `second gap ${at[2]! - at[1]!} ms honours Retry-After`);
    assert.equal(updates[1]?.kind, "error");
    assert.equal(updates[2]?.kind === "status" && updates[2].status.status, "SUCCEEDED");
  });

  it("reports a failed poll with the service's reference id, as the pane shows every error", async () => {
    const refused = serviceError("server", { status: 503, requestId: "req-42" });
    const { timer, poller } = setup({ a: [refused as never, status("SUCCEEDED", 100)] });
    const updates: JobUpdate[] = [];
    poller.watch("aud", "a", (u) => updates.push(u));
    await timer.advance(60_000);
    const failed = updates.find((u) => u.kind === "error");
    assert.ok(failed?.kind === "error");
    assert.match(failed.error.message, /\(Reference: req-42\)$/);
    poller.dispose();
  });

  it("polls many jobs on one timer", async () => {
    const scripts: Record<string, ReturnType<typeof status>[]> = {};
    for (let i = 0; i < 20; i++) scripts[`j${i}`] = [status("RUNNING", 5), status("RUNNING", 50), status("SUCCEEDED", 100)];
    const { timer, poller } = setup(scripts);
    for (let i = 0; i < 20; i++) poller.watch("aud", `j${i}`, () => {});
    assert.equal(timer.pendingTimers, 1);
    await timer.advance(500);
    assert.equal(timer.pendingTimers, 1, "still one timer while 20 jobs wait");
    await timer.advance(60_000);
    assert.equal(poller.activeJobs, 0);
  });

  it("shares one poll between watchers of the same job and stops with the last one", async () => {
    const { timer, client, poller } = setup({ a: [status("RUNNING", 10), status("RUNNING", 20), status("RUNNING", 30)] });
    const first: string[] = [];
    const second: string[] = [];
    const stopFirst = poller.watch("aud", "a", (u) => u.kind === "status" && first.push(jobStatusText(u.status)));
    await timer.advance(0);
    const stopSecond = poller.watch("aud", "a", (u) => u.kind === "status" && second.push(jobStatusText(u.status)));
    await settle();
    assert.deepEqual(second, ["RUNNING 10%"], "a new watcher gets the last status at once, without a request");
    await timer.advance(1000);
    assert.equal(client.calls.length, 2);
    assert.deepEqual(first, ["RUNNING 10%", "RUNNING 20%"]);
    assert.deepEqual(second, ["RUNNING 10%", "RUNNING 20%"]);
    stopFirst();
    await timer.advance(5000);
    const afterFirstLeft = client.calls.length;
    assert.ok(afterFirstLeft > 2, "still polled for the remaining watcher");
    stopSecond();
    await timer.advance(60_000);
    assert.equal(client.calls.length, afterFirstLeft, "no polls once nobody watches");
    assert.equal(timer.pendingTimers, 0);
  });

  it("stops for good when the service does not know the job", async () => {
    const { timer, client, poller } = setup({});
    const updates: JobUpdate[] = [];
    poller.watch("aud", "missing", (u) => updates.push(u));
    await timer.advance(60_000);
    assert.equal(client.calls.length, 1);
    assert.equal(updates.length, 1);
    assert.ok(updates[0]?.kind === "error" && updates[0].final && updates[0].error.kind === "notFound");
  });

  it("remembers a finished job, so a new watcher needs no request", async () => {
    const { timer, client, poller } = setup({ a: [status("SUCCEEDED", 100)] });
    poller.watch("aud", "a", () => {});
    await timer.advance(10);
    const seen: string[] = [];
    poller.watch("aud", "a", (u) => u.kind === "status" && seen.push(u.status.status));
    await timer.advance(10_000);
    assert.deepEqual(seen, ["SUCCEEDED"]);
    assert.equal(client.calls.length, 1);
  });
});
