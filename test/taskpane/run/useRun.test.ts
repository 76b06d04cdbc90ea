// The pane's one run hook, driven as a tab drives it (test/helpers/hooks.ts runs it without a
// browser) with a fake run whose steps the test releases: the step before a run (checking, an
// estimate), start, progress, outcome (also one said without a run), Cancel (the work sees its
// signal aborted), one run at a time, a failure thrown on, and Cancel on unmount.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { useRun, type RunScope } from "../../../src/taskpane/run/useRun.js";
import { renderHook } from "../../helpers/hooks.js";

interface Progress {
  done: number;
  total: number;
}

/** A run of `total` items the test moves on one step at a time; it ends when all are done or when cancelled. */
function fakeRun(total: number) {
  let step: (() => void) | undefined;
  let seen: AbortSignal | undefined;
  const work = async ({ signal, report }: RunScope<Progress>) => {
    seen = signal;
    let done = 0;
    while (done < total && !signal.aborted) {
      await new Promise<void>((resolve) => {
        step = resolve;
        signal.addEventListener("abort", () => resolve(), { once: true });
      });
      if (signal.aborted) break;
      done += 1;
      report({ done, total });
    }
    return { done, cancelled: signal.aborted };
  };
  return {
    work,
    next: () => step?.(),
    get signal() {
      return seen;
    },
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("useRun", () => {
  it("starts a run, shows its progress, and keeps its outcome", async () => {
    const host = renderHook(() => useRun<Progress, { done: number; cancelled: boolean }>());
    const run = fakeRun(2);
    const started = host.current.start(run.work, { done: 0, total: 2 });
    assert.equal(host.current.running, true);
    assert.deepEqual(host.current.progress, { done: 0, total: 2 });
    run.next();
    await turn();
    assert.deepEqual(host.current.progress, { done: 1, total: 2 });
    run.next();
    assert.deepEqual(await started, { done: 2, cancelled: false });
    assert.equal(host.current.running, false);
    assert.equal(host.current.progress, undefined);
    assert.deepEqual(host.current.outcome, { done: 2, cancelled: false });
  });

  it("ignores progress a run reports after it ended", async () => {
    const host = renderHook(() => useRun<Progress, string>());
    let late: ((progress: Progress) => void) | undefined;
    await host.current.start(async ({ report }) => {
      late = report;
      return "ended";
    });
    late?.({ done: 9, total: 9 });
    assert.equal(host.current.running, false);
    assert.equal(host.current.progress, undefined);
    assert.equal(host.current.outcome, "ended");
  });

  it("cancels the run under way through its signal; its outcome says how far it went", async () => {
    const host = renderHook(() => useRun<Progress, { done: number; cancelled: boolean }>());
    const run = fakeRun(5);
    const started = host.current.start(run.work);
    run.next();
    await turn();
    host.current.cancel();
    assert.equal(run.signal?.aborted, true);
    assert.deepEqual(await started, { done: 1, cancelled: true });
    assert.equal(host.current.running, false);
    host.current.cancel(); // nothing under way: nothing happens
  });

  it("starts one run at a time: a second start while one runs starts nothing", async () => {
    const host = renderHook(() => useRun<Progress, { done: number; cancelled: boolean }>());
    const first = fakeRun(1);
    let secondCalled = false;
    const started = host.current.start(first.work);
    const again = await host.current.start(async () => {
      secondCalled = true;
      return { done: 0, cancelled: false };
    });
    assert.equal(again, undefined);
    assert.equal(secondCalled, false);
    first.next();
    await started;
    // Once it ended, a new run starts.
    assert.deepEqual(await host.current.start(async () => ({ done: 7, cancelled: false })), { done: 7, cancelled: false });
  });

  it("throws a failure of the work on, and is ready for the next run", async () => {
    const host = renderHook(() => useRun<Progress, string>());
    await assert.rejects(
      host.current.start(async () => {
        throw new Error("refused");
      }),
      /refused/,
    );
    assert.equal(host.current.running, false);
    assert.equal(host.current.outcome, undefined);
    assert.equal(await host.current.start(async () => "done"), "done");
  });

  it("cancels the run under way when the view goes (unmount)", async () => {
    const host = renderHook(() => useRun<Progress, { done: number; cancelled: boolean }>());
    const run = fakeRun(3);
    const started = host.current.start(run.work);
    const renders = host.renders;
    host.unmount();
    assert.equal(run.signal?.aborted, true);
    assert.deepEqual(await started, { done: 0, cancelled: true });
    assert.equal(host.renders, renders, "an unmounted view is not rendered again");
  });

  it("clears the last outcome, but never while a run is under way; its functions stay the same across renders", async () => {
    const host = renderHook(() => useRun<Progress, string>());
    const { start, cancel, clear } = host.current;
    await start(async () => "first");
    assert.equal(host.current.outcome, "first");
    host.current.clear();
    assert.equal(host.current.outcome, undefined);
    const run = fakeRun(1);
    const started = host.current.start(async (scope) => {
      await run.work(scope);
      return "second";
    });
    host.current.clear();
    assert.equal(host.current.running, true);
    run.next();
    await started;
    assert.equal(host.current.outcome, "second");
    assert.equal(host.current.start, start);
    assert.equal(host.current.cancel, cancel);
    assert.equal(host.current.clear, clear);
  });

  it("shows the step before a run, which the run replaces; no step is taken while a run is under way", async () => {
    const host = renderHook(() => useRun<Progress, string, { checking: string }>());
    await host.current.start(async () => "earlier");
    host.current.prepare({ checking: "the selection" });
    assert.deepEqual(host.current.step, { checking: "the selection" });
    assert.equal(host.current.outcome, undefined, "a new step leaves the earlier outcome behind");
    assert.equal(host.current.running, false);
    const run = fakeRun(1);
    const started = host.current.start(async (scope) => {
      await run.work(scope);
      return "ran";
    });
    assert.equal(host.current.step, undefined, "the run replaces the step it started from");
    host.current.prepare({ checking: "again" });
    assert.equal(host.current.step, undefined, "the run's progress stays shown");
    assert.equal(host.current.running, true);
    run.next();
    assert.equal(await started, "ran");
    assert.equal(host.current.outcome, "ran");
    host.current.prepare({ checking: "the list" });
    host.current.clear();
    assert.equal(host.current.step, undefined, "Back forgets the step");
    assert.equal(host.current.running, false);
  });

  it("settles an outcome without a run, beside a step; during a run it shows beside the progress until the run's own outcome", async () => {
    const host = renderHook(() => useRun<Progress, string, string>());
    host.current.prepare("an estimate");
    host.current.settle("copied");
    assert.equal(host.current.outcome, "copied");
    assert.equal(host.current.step, "an estimate", "said beside the estimate, which stays");
    host.current.prepare("checking");
    host.current.clear();
    host.current.settle("the check failed");
    assert.equal(host.current.outcome, "the check failed");
    assert.equal(host.current.step, undefined, "the check ended with the outcome");
    const run = fakeRun(3);
    const started = host.current.start(async (scope) => {
      await run.work(scope);
      return "ran";
    });
    assert.equal(host.current.outcome, undefined, "a run starts without the last outcome");
    run.next();
    await turn();
    host.current.settle("copied");
    assert.equal(host.current.running, true);
    assert.deepEqual(host.current.progress, { done: 1, total: 3 });
    assert.equal(host.current.outcome, "copied");
    run.next();
    await turn();
    assert.deepEqual(host.current.progress, { done: 2, total: 3 });
    assert.equal(host.current.outcome, "copied", "progress keeps what was said beside it");
    run.next();
    await started;
    assert.equal(host.current.outcome, "ran");
    host.current.settle("ran, amended");
    assert.equal(host.current.outcome, "ran, amended");
    assert.equal(host.current.running, false);
  });
});
