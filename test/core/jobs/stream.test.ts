import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { JobPoller, streamJobStatus, type JobStatusProblem } from "../../../src/core/jobs/index.js";
import { FakeClock } from "../api/scripted.js";
import { ScriptedJobs, status } from "./fakes.js";

const AUD = "3f2b1c9e-1234-4abc-9def-0123456789ab";

function sink() {
  const values: string[] = [];
  const problems: JobStatusProblem[] = [];
  return { values, problems, value: (t: string) => values.push(t), problem: (p: JobStatusProblem) => problems.push(p) };
}

describe("streamJobStatus", () => {
  it("streams state and progress until the terminal state, then stops polling", async () => {
    const timer = new FakeClock();
    const client = new ScriptedJobs(timer, { j: [status("SCHEDULED"), status("RUNNING", 40), status("RUNNING", 80), status("SUCCEEDED", 100)] });
    const poller = new JobPoller({ client, clock: timer });
    const cell = sink();
    streamJobStatus(poller, AUD, "j", cell);
    await timer.advance(120_000);
    assert.deepEqual(cell.values, ["SCHEDULED", "RUNNING 40%", "RUNNING 80%", "SUCCEEDED"]);
    assert.equal(client.calls.length, 4);
    assert.equal(timer.pendingTimers, 0);
  });

  it("stops polling when the formula is cancelled", async () => {
    const timer = new FakeClock();
    const client = new ScriptedJobs(timer, { j: [status("RUNNING", 10)] });
    const poller = new JobPoller({ client, clock: timer });
    const cell = sink();
    const stop = streamJobStatus(poller, AUD, "j", cell);
    await timer.advance(3000);
    const calls = client.calls.length;
    assert.ok(calls >= 2);
    stop();
    await timer.advance(120_000);
    assert.equal(client.calls.length, calls);
    assert.equal(poller.activeJobs, 0);
  });

  it("shares one poll between cells watching the same job", async () => {
    const timer = new FakeClock();
    const client = new ScriptedJobs(timer, { j: [status("RUNNING", 10), status("RUNNING", 60), status("SUCCEEDED", 100)] });
    const poller = new JobPoller({ client, clock: timer });
    const cells = [sink(), sink(), sink()];
    for (const c of cells) streamJobStatus(poller, AUD, "j", c);
    await timer.advance(120_000);
    assert.equal(client.calls.length, 3, "one request per status, not one per cell");
    for (const c of cells) assert.equal(c.values.at(-1), "SUCCEEDED");
  });

  it("rejects arguments that cannot name a job, without a request", async () => {
    const timer = new FakeClock();
    const client = new ScriptedJobs(timer, {});
    const poller = new JobPoller({ client, clock: timer });
    const cell = sink();
    streamJobStatus(poller, "not-an-id", "j", cell);
    streamJobStatus(poller, AUD, "", cell);
    await timer.advance(10_000);
    assert.equal(client.calls.length, 0);
    assert.deepEqual(
      cell.problems.map((p) => p.code),
      ["#VALUE!", "#VALUE!"],
    );
  });

  it("shows #N/A and stops for a job the service does not know", async () => {
    const timer = new FakeClock();
    const client = new ScriptedJobs(timer, {});
    const poller = new JobPoller({ client, clock: timer });
    const cell = sink();
    streamJobStatus(poller, AUD, "nope", cell);
    await timer.advance(60_000);
    assert.equal(client.calls.length, 1);
    assert.equal(cell.problems[0]?.code, "#N/A");
  });
});
