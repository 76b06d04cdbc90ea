// useStarted, the lifecycle every browser suite's setup goes through (useE2E, useHttpsE2E,
// useProductionTopology): started before a block's tests, ready in the same hook, closed after
// them, and read only once started. No browser: what is started here is a plain object.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useStarted } from "./helpers.js";

describe("useStarted", () => {
  const events: string[] = [];
  const start = async () => {
    events.push("start");
    return { id: 7, close: async () => void events.push("close") };
  };
  let readEarly: unknown;

  describe("a block with a setup", () => {
    const started = useStarted(start, ({ id }) => void events.push(`ready ${id}`));
    try {
      void started.id;
    } catch (error) {
      readEarly = error;
    }

    test("its tests read the started object, made ready before them", () => {
      assert.equal(started.id, 7);
      assert.deepEqual(events, ["start", "ready 7"]);
    });

    test("it is started once for all of the block's tests", () => {
      assert.deepEqual(events, ["start", "ready 7"]);
    });
  });

  test("it is closed once the block's tests are over", () => {
    assert.deepEqual(events, ["start", "ready 7", "close"]);
  });

  test("a field read before the start is an error that says where to read it", () => {
    assert.ok(readEarly instanceof Error);
    assert.match(readEarly.message, /"id" of the browser setup was read before it started: read it inside the tests of the describe block/);
  });
});
