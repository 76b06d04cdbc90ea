// The pane's one run hook, driven as a tab drives it (test/helpers/hooks.ts runs it without a
// browser) with a fake run whose steps the test releases: start, progress, outcome, Cancel (the
// work sees its signal aborted), one run at a time, a failure thrown on, and Cancel on unmount.
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
});
