// Chaos: the sandbox process is killed with SIGKILL in the middle of an audience job. Started
// again on the same data folder, it resumes the job to its terminal state, every row enriched
// and no record charged twice (each job step is one SQLite transaction). Both processes run on
// a manual clock (--manual-clock) that the test moves: the job is exactly half done when killed.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, test } from "node:test";
import { commandArgs } from "../helpers/commands.js";

const dataDir = mkdtempSync(join(tmpdir(), "sandbox-sigkill-"));
after(() => rmSync(dataDir, { recursive: true, force: true }));

interface Running {
  url: string;
  child: ChildProcess;
  exited: Promise<NodeJS.Signals | null>;
}

/** Starts `npm run sandbox` on the shared data folder, on a manual clock, and resolves once it listens. */
async function spawnSandbox(rowsPerSecond: number): Promise<Running> {
  const child = spawn(
    process.execPath,
    [
      ...commandArgs("src/sandbox/main.ts"),
      "--http",
      "--port",
      "0",
      "--companies",
      "400",
      "--contacts",
      "400",
      "--data-dir",
      dataDir,
      "--job-rows-per-second",
      String(rowsPerSecond),
      "--manual-clock",
      // The status is polled back to back: the service's request limits are not under test here.
      "--rate-per-second",
      "1000000",
      "--rate-per-hour",
      "100000000",
      "--rate-per-day",
      "1000000000",
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the sandbox exited with ${code}`)));
  });
  const match = /^Sandbox listening on (http:\/\/\S+)$/.exec(first);
  assert.ok(match, first);
  return { url: match[1]!, child, exited };
}

async function json(url: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(url, { ...init, headers: { "content-type": "application/json", ...(init.headers ?? {}) } });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const tokenFor = async (s: Running) =>
  (await json(`${s.url}/__sandbox/token`, { method: "POST", body: JSON.stringify({ account: "chaos" }) })).body.access_token as string;
const jobStatus = async (s: Running, token: string, audienceId: string, jobId: string) =>
  (await json(`${s.url}/v1/audiences/${audienceId}/jobs/${jobId}`, { headers: { authorization: `Bearer ${token}` } })).body.data.attributes as {
    status: string;
    percentProgress: number;
  };

/** Moves the sandbox's clock; answers once the job steps due on the way have run. */
async function advance(s: Running, ms: number): Promise<void> {
  assert.equal((await json(`${s.url}/__sandbox/clock`, { method: "POST", body: JSON.stringify({ advanceMs: ms }) })).status, 200);
}

test("a SIGKILL mid-job: the restarted sandbox finishes the job and charges each record once", { timeout: 120_000 }, async () => {
  const RECORDS = 300;
  let audienceId: string;
  let jobId: string;
  const first = await spawnSandbox(150);
  try {
    assert.equal((await json(`${first.url}/__sandbox/accounts`, { method: "POST", body: JSON.stringify({ id: "chaos", credits: 10_000 }) })).status, 200);
    const created = await json(`${first.url}/__sandbox/audiences`, {
      method: "POST",
      body: JSON.stringify({ name: "Chaos", type: "COMPANY", recordIds: Array.from({ length: RECORDS }, (_, i) => i + 1), account: "chaos" }),
    });
    assert.equal(created.status, 201);
    audienceId = created.body.data.id;
    const token = await tokenFor(first);
    const started = await json(`${first.url}/v1/audiences/${audienceId}/actions/enrich`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({ data: { type: "AudienceEnrichment", attributes: { scope: "AUDIENCE" } } }),
    });
    assert.equal(started.status, 202);
    jobId = started.body.data.id;
    await advance(first, 50); // the engine's first step: RUNNING
    await advance(first, 1000); // 150 of the 300 rows
    assert.deepEqual(await jobStatus(first, token, audienceId, jobId), { status: "RUNNING", percentProgress: 50 }, "killed half-way through");
  } finally {
    first.child.kill("SIGKILL");
  }
  assert.equal(await first.exited, "SIGKILL");

  const second = await spawnSandbox(5000);
  try {
    const token = await tokenFor(second);
    await advance(second, 1000); // resumed, and far more time than the other half needs
    const end = await jobStatus(second, token, audienceId, jobId);
    assert.equal(end.status, "SUCCEEDED");
    assert.equal(end.percentProgress, 100);
    const rows = [];
    for (let page = 1; page <= 3; page++) {
      const res = await json(`${second.url}/v1/audiences/${audienceId}/rows?page[number]=${page}&page[size]=100`, {
        headers: { authorization: `Bearer ${token}` },
      });
      rows.push(...res.body.data);
    }
    assert.equal(rows.length, RECORDS);
    assert.ok(
      rows.every((row: any) => row.attributes.values.slice(1).every((v: any) => v.state === "RESULT" || v.state === "BLANK")),
      "every row enriched",
    );
    const account = (await json(`${second.url}/__sandbox/accounts/chaos?page[size]=10000`)).body;
    const charged = account.ledger.filter((e: { charged: boolean }) => e.charged).map((e: { id: number }) => e.id);
    assert.equal(charged.length, RECORDS, "each record charged once");
    assert.equal(new Set(charged).size, RECORDS, "no record charged twice");
    assert.equal(account.initialCredits - account.credits, RECORDS);
  } finally {
    second.child.kill("SIGTERM");
    await second.exited;
  }
});
