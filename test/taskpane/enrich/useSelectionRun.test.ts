// "Enrich selection"'s phases as the panel reads them from the pane's one run hook (driven without
// a browser by test/helpers/hooks.ts): checking -> the plan -> progress -> what was written; Back
// from the plan; a check that fails ends in its message; a run under way shows its progress.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { createEnrichmentEngine, type SelectionSource, type WriteColumnsRequest } from "../../../src/core/enrich/index.js";
import { useSelectionRun, type Phase } from "../../../src/taskpane/enrich/useSelectionRun.js";
import { FakeEnrichClient } from "../../core/enrich/fakeClient.js";
import { renderHook } from "../../helpers/hooks.js";

const selection = { address: "Sheet1!A1:A3", values: ["Company ID", "11", "12"] };
const questions = { overwrite: async () => true, updateFirstRun: async () => true };

function setup(engine = createEnrichmentEngine({ client: new FakeEnrichClient(), windowMs: 2 })) {
  const writes: WriteColumnsRequest[] = [];
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const source: SelectionSource = {
    readIds: async () => ({ ok: false, message: "unused" }),
    writeColumns: async (request) => {
      await held;
      writes.push(request);
      return { status: "written", address: request.address };
    },
  };
  const host = renderHook(() => useSelectionRun(engine, source, questions));
  // Read through a call: each step's phase is read anew (an assertion narrows no later read).
  const phase = (): Phase => host.current.phase;
  return { host, phase, writes, release };
}

describe("useSelectionRun", () => {
  it("goes from the plan through progress to what was written, and Back leaves a plan unrun", async () => {
    const { host, phase, writes, release } = setup();
    await host.current.plan("company", selection, ["name"], { by: "id" });
    const planned = phase();
    if (planned.name !== "planned") return assert.fail(`planned, not ${planned.name}`);
    host.current.reset();
    assert.equal(phase().name, "idle", "Back");
    const running = host.current.run(planned.planned);
    const progress = phase();
    if (progress.name !== "running") return assert.fail(`running, not ${progress.name}`);
    assert.equal(progress.progress.recordsTotal, 2);
    assert.equal(host.current.busy, true);
    release();
    await running;
    const finished = phase();
    if (finished.name !== "finished") return assert.fail(`finished, not ${finished.name}`);
    assert.match(finished.message, /^Wrote \d+ columns? to .*: 2 rows enriched\.$/);
    assert.equal(writes.length, 1);
    assert.equal(host.current.busy, false);
  });

  it("a check that fails ends in its message, not in a plan", async () => {
    const engine = createEnrichmentEngine({ client: new FakeEnrichClient(), windowMs: 2 });
    engine.planInputs = async () => {
      throw new Error("the plan could not be made");
    };
    const { host, phase } = setup(engine);
    await host.current.plan("company", selection, ["name"], { by: "id" });
    const failed = phase();
    if (failed.name !== "finished") return assert.fail(`finished, not ${failed.name}`);
    assert.equal(failed.intent, "error");
    assert.match(failed.message, /^Could not check the selection: /);
    host.current.busyWith("Reading the selection");
    assert.deepEqual(phase(), { name: "busy", what: "Reading the selection" });
    host.current.finish("warning", "Select one column.");
    assert.deepEqual(phase(), { name: "finished", intent: "warning", message: "Select one column.", unmatched: [] });
  });
});
