// The job list read back from the user's storage: checked against the stored schema, a damaged
// entry is dropped and every sound one is kept.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { keyValueJobStorage, parseStoredJobs, type TrackedJob } from "../../../src/core/jobs/index.js";

const job = (jobId: string, extra: Partial<TrackedJob> = {}): TrackedJob => ({
  audienceId: "aud",
  jobId,
  audienceName: "Target accounts",
  startedAt: 1_000,
  status: "RUNNING",
  terminal: false,
  ...extra,
});

describe("stored job list", () => {
  it("keeps the sound jobs and drops the damaged ones", () => {
    const raw = JSON.stringify([
      job("a"),
      { ...job("b"), startedAt: "yesterday" },
      { ...job("c"), scope: "EVERYTHING" },
      { ...job("d"), rowIds: [1, 2] },
      "job",
      null,
      job("e", { scope: "ROW", rowIds: ["r1"], failedRows: 1, terminal: true, finishedAt: 2_000, status: "PARTIALLY_SUCCEEDED" }),
    ]);
    const jobs = parseStoredJobs(raw);
    assert.deepEqual(
      jobs.map((j) => j.jobId),
      ["a", "e"],
    );
    assert.deepEqual(jobs[1]?.rowIds, ["r1"]);
  });

  it("reads an unreadable or absent list as empty", () => {
    assert.deepEqual(parseStoredJobs(null), []);
    assert.deepEqual(parseStoredJobs(""), []);
    assert.deepEqual(parseStoredJobs("{not json"), []);
    assert.deepEqual(parseStoredJobs('{"jobId":"a"}'), []);
  });

  it("loads through the key-value storage what survives the check", async () => {
    const data = new Map<string, string>();
    const storage = keyValueJobStorage({ getItem: async (k) => data.get(k) ?? null, setItem: async (k, v) => void data.set(k, v) }, "ana");
    await storage.save([job("a"), job("b")]);
    const key = [...data.keys()][0]!;
    const stored = JSON.parse(data.get(key)!) as unknown[];
    data.set(key, JSON.stringify([...stored, { jobId: "broken" }]));
    assert.deepEqual(
      (await storage.load()).map((j) => j.jobId),
      ["a", "b"],
    );
  });
});
