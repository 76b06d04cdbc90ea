// Test files that share a process share module caches: each loads the functions module as its
// own instance (loadFunctions), so the engine one file configures cannot answer another's cells.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createEnrichmentEngine } from "../../src/core/enrich/index.js";
import { FakeEnrichClient } from "../core/enrich/fakeClient.js";
import { FakeTimer } from "../core/jobs/fakes.js";
import { cellOutcome, invocation, loadFunctions } from "./fakeCustomFunctions.js";

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "fixtures" ? [] : testFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe("the functions module per test file", () => {
  it("one instance's configuration does not answer another's cells", async () => {
    const configured = await loadFunctions();
    const other = await loadFunctions();
    const client = new FakeEnrichClient();
    configured.configureFunctions({ engine: createEnrichmentEngine({ client, windowMs: 2 }), isSignedIn: () => true });
    assert.deepEqual(await cellOutcome(configured.company(4, "name", invocation())), { value: "Company 4" });

    // The other instance was never configured: its cell waits out the startup wait, then asks to sign in.
    const timer = new FakeTimer();
    let started!: () => void;
    const waiting = new Promise<void>((resolve) => (started = resolve));
    other.setStartupClock({ sleep: (ms, signal) => (started(), timer.sleep(ms, signal)) });
    const pending = cellOutcome(other.company(4, "name", invocation()));
    await waiting;
    await timer.advance(5_000);
    assert.deepEqual(await pending, { error: "#N/A", message: "Sign in from the task pane" });
    assert.equal(client.calls.length, 1, "only the configured instance's cell asked");
    configured.configureFunctions(undefined);
  });

  it("test files load the functions through loadFunctions (only the runtime's wiring test uses the runtime's module)", () => {
    const direct = testFiles("test").filter((file) =>
      /(?<!typeof )import\(\s*["'][./]*src\/functions\/functions\.js["']\s*\)|from\s+["'][./]*src\/functions\/functions\.js["']/.test(
        readFileSync(file, "utf8"),
      ),
    );
    assert.deepEqual(direct, [join("test", "runtime.wiring.test.ts")]);
  });
});
