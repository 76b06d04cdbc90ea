// =BIZ.JOBSTATUS through a fake CustomFunctions runtime: it streams until the terminal state,
// stops polling when the formula is cancelled, and cells on the same job share one poll.
import { strict as assert } from "node:assert";
import { before, describe, it } from "node:test";
import metadata from "custom-functions-metadata";
import { JobPoller } from "../../../src/core/jobs/index.js";
import { FakeCustomFunctionsError, installFakeCustomFunctions, loadFunctions } from "../../functions/fakeCustomFunctions.js";
import { FakeClock } from "../api/scripted.js";
import { ScriptedJobs, settle, status } from "./fakes.js";

const { configureJobStatus, jobStatus, setStartupClock } = await loadFunctions();
// The startup wait runs on a clock that only moves when a test moves it: no race with the system timer.
const startupClock = new FakeClock();
setStartupClock(startupClock);

const AUD = "3f2b1c9e-1234-4abc-9def-0123456789ab";

/** A streaming invocation as Excel passes it: results land in `results`, Excel calls onCanceled. */
function streamingCell() {
  const results: unknown[] = [];
  let shown = (): void => undefined;
  const cell = {
    results,
    /** Resolves when the cell shows its first result. */
    firstResult: new Promise<void>((resolve) => (shown = resolve)),
    onCanceled: undefined as (() => void) | undefined,
    setResult: (value: unknown) => {
      results.push(value instanceof FakeCustomFunctionsError ? `${value.code} ${value.message}` : value);
      shown();
    },
  };
  return cell;
}

/**
 * A configured runtime whose poller tells when a cell starts watching: cells load their
 * implementation with import() first, so tests await that event instead of guessing a time.
 */
function setup(scripts: ConstructorParameters<typeof ScriptedJobs>[1], signedIn = true) {
  const timer = new FakeClock();
  const client = new ScriptedJobs(timer, scripts);
  const poller = new JobPoller({ client, clock: timer });
  const waiting: Array<() => void> = [];
  let watches = 0;
  const watch = poller.watch.bind(poller);
  poller.watch = (...args) => {
    watches += 1;
    waiting.splice(0).forEach((wake) => wake());
    return watch(...args);
  };
  /** Resolves once `count` watches have started in all. */
  const watching = async (count: number): Promise<void> => {
    while (watches < count) await new Promise<void>((resolve) => waiting.push(resolve));
  };
  configureJobStatus({ poller, isSignedIn: () => signedIn });
  return { timer, client, watching };
}

describe("=BIZ.JOBSTATUS", () => {
  before(() => installFakeCustomFunctions());

  // Runs first: before the runtime has configured the functions (the workbook is opening).
  it("waits for the runtime when calculated before it is configured, then streams", async () => {
    const cell = streamingCell();
    jobStatus(AUD, "j", cell as any);
    const cancelledCell = streamingCell();
    jobStatus(AUD, "j", cancelledCell as any);
    cancelledCell.onCanceled!();
    // The implementation has loaded and the cells wait for the configuration.
    await import("../../../src/functions/jobStatusImpl.js");
    await settle();
    assert.deepEqual(cell.results, [], "nothing shown while the runtime starts");
    assert.ok(startupClock.pendingTimers > 0, "the cells wait on the startup clock");
    const { timer, client, watching } = setup({ j: [status("RUNNING", 30), status("SUCCEEDED", 100)] });
    await watching(1);
    await timer.advance(60_000);
    assert.deepEqual(cell.results, ["RUNNING 30%", "SUCCEEDED"]);
    assert.deepEqual(cancelledCell.results, []);
    assert.equal(client.calls.length, 2, "the cancelled cell made no request");
  });

  it("is a streaming, cancelable function in functions.json", async () => {
    const generated = await metadata.generateCustomFunctionsMetadata("src/functions/functions.ts", false);
    const json = JSON.parse(generated.metadataJson) as {
      functions: { id: string; options?: { stream?: boolean; cancelable?: boolean }; parameters: { name: string }[] }[];
    };
    const f = json.functions.find((x) => x.id === "JOBSTATUS");
    assert.ok(f);
    assert.equal(f.options?.stream, true);
    assert.deepEqual(
      f.parameters.map((p) => p.name),
      ["audienceId", "jobId"],
    );
  });

  it("streams the state and progress until the terminal state, then stops polling", async () => {
    const { timer, client, watching } = setup({ j: [status("SCHEDULED"), status("RUNNING", 40), status("PARTIALLY_SUCCEEDED", 100)] });
    const cell = streamingCell();
    jobStatus(AUD, "j", cell as any);
    await watching(1);
    await timer.advance(120_000);
    assert.deepEqual(cell.results, ["SCHEDULED", "RUNNING 40%", "PARTIALLY_SUCCEEDED"]);
    assert.equal(client.calls.length, 3);
    assert.equal(timer.pendingTimers, 0);
  });

  it("stops polling when the formula is deleted (onCanceled)", async () => {
    const { timer, client, watching } = setup({ j: [status("RUNNING", 5)] });
    const cell = streamingCell();
    jobStatus(AUD, "j", cell as any);
    await watching(1);
    await timer.advance(2500);
    assert.ok(cell.onCanceled, "the function registers a cancel handler");
    cell.onCanceled();
    const calls = client.calls.length;
    await timer.advance(120_000);
    assert.equal(client.calls.length, calls);
    assert.equal(timer.pendingTimers, 0);
  });

  it("shares one poll between cells on the same job", async () => {
    const { timer, client, watching } = setup({ j: [status("RUNNING", 20), status("RUNNING", 70), status("SUCCEEDED", 100)] });
    const cells = [streamingCell(), streamingCell()];
    for (const c of cells) jobStatus(AUD, "j", c as any);
    await watching(2);
    await timer.advance(120_000);
    assert.equal(client.calls.length, 3);
    for (const c of cells) assert.deepEqual(c.results, ["RUNNING 20%", "RUNNING 70%", "SUCCEEDED"]);
  });

  it("asks to sign in, and rejects a malformed audience id, without a request", async () => {
    const signedOut = setup({ j: [status("RUNNING", 5)] }, false);
    const a = streamingCell();
    jobStatus(AUD, "j", a as any);
    await a.firstResult;
    await signedOut.timer.advance(10_000);
    assert.equal(signedOut.client.calls.length, 0);
    assert.match(String(a.results[0]), /^#N\/A .*[Ss]ign in/);

    const signedIn = setup({ j: [status("RUNNING", 5)] });
    const b = streamingCell();
    jobStatus("audience-1", "j", b as any);
    await b.firstResult;
    await signedIn.timer.advance(10_000);
    assert.equal(signedIn.client.calls.length, 0);
    assert.match(String(b.results[0]), /^#VALUE! /);
  });
});
