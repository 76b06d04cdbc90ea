// "Enrich selection"'s phases as the panel reads them from the pane's one run hook (driven without
// a browser by test/helpers/hooks.ts): checking -> the plan -> progress -> what was written; Back
// from the plan; a check that fails ends in its message; a run under way shows its progress.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { createEnrichmentEngine, type SelectionSource, type WriteColumnsRequest } from "../../../src/core/enrich/index.js";
import { useSelectionRun } from "../../../src/taskpane/enrich/useSelectionRun.js";
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
  return { host: renderHook(() => useSelectionRun(engine, source, questions)), writes, release };
}

describe("useSelectionRun", () => {
  it("goes from the plan through progress to what was written, and Back leaves a plan unrun", async () => {
    const { host, writes, release } = setup();
    await host.current.plan("company", selection, ["name"], { by: "id" });
    const planned = host.current.phase;
    assert.equal(planned.name, "planned");
    if (planned.name !== "planned") return;
    host.current.reset();
    assert.equal(host.current.phase.name, "idle", "Back");
    const running = host.current.run(planned.planned);
    const phase = host.current.phase;
    assert.equal(phase.name, "running");
    assert.equal(phase.name === "running" && phase.progress.recordsTotal, 2);
    assert.equal(host.current.busy, true);
    release();
    await running;
    const finished = host.current.phase;
    assert.equal(finished.name, "finished");
    assert.match(finished.name === "finished" ? finished.message : "", /^Wrote \d+ columns? to .*: 2 rows enriched\.$/);
    assert.equal(writes.length, 1);
    assert.equal(host.current.busy, false);
  });

  it("a check that fails ends in its message, not in a plan", async () => {
    const engine = createEnrichmentEngine({ client: new FakeEnrichClient(), windowMs: 2 });
    engine.planInputs = async () => {
      throw new Error("the plan could not be made");
    };
    const { host } = setup(engine);
    await host.current.plan("company", selection, ["name"], { by: "id" });
    const phase = host.current.phase;
    assert.equal(phase.name, "finished");
    assert.equal(phase.name === "finished" && phase.intent, "error");
    assert.match(phase.name === "finished" ? phase.message : "", /^Could not check the selection: /);
    host.current.busyWith("Reading the selection");
    assert.deepEqual(host.current.phase, { name: "busy", what: "Reading the selection" });
    host.current.finish("warning", "Select one column.");
    assert.deepEqual(host.current.phase, { name: "finished", intent: "warning", message: "Select one column.", unmatched: [] });
  });
});
