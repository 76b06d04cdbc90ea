// The bulk-run primitive through its public function, with a fake sender whose requests settle
// when the test says (no clock): batching by the caller's cap, the window of requests handed to
// the client, progress counts, cancel, refusals per item, a stop, and a resumed run.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runBulk, type BulkCall, type BulkProgress, type RunBatch } from "../../../src/core/run/index.js";
import { harness } from "../api/harness.js";
import { answer } from "../api/scripted.js";

const items = (n: number) => Array.from({ length: n }, (_, i) => `item${i + 1}`);

/** A sender that records each request and answers each item with its upper-case name. */
function recorder(refuse: (batch: RunBatch<string>) => unknown = () => undefined) {
  const sent: { batch: RunBatch<string>; call: BulkCall }[] = [];
  const send = async (batch: RunBatch<string>, call: BulkCall) => {
    sent.push({ batch, call });
    const reason = refuse(batch);
    if (reason !== undefined) throw reason;
    return batch.items.map((item) => item.toUpperCase());
  };
  return { sent, send };
}

describe("bulk run", () => {
  it("cuts the items into requests of the caller's cap, in order, each sent as bulk work", async () => {
    const { sent, send } = recorder();
    const result = await runBulk(items(7), send, { cap: 3 });
    assert.deepEqual(
      sent.map((s) => s.batch.items),
      [["item1", "item2", "item3"], ["item4", "item5", "item6"], ["item7"]],
    );
    assert.deepEqual(sent[2]!.batch.indexes, [6]);
    assert.ok(sent.every((s) => s.call.priority === "bulk"));
    assert.equal(result.requests, 3);
    assert.deepEqual(result.outcomes[6], { status: "done", value: "ITEM7" });
    assert.deepEqual(result.left, []);
    assert.equal(result.cancelled, false);
  });

  it("hands the client at most `window` requests at once", async () => {
    let open = 0;
    let most = 0;
    const gates: (() => void)[] = [];
    const send = async (batch: RunBatch<string>) => {
      open++;
      most = Math.max(most, open);
      await new Promise<void>((resolve) => gates.push(resolve));
      open--;
      return batch.items;
    };
    const running = runBulk(items(10), send, { cap: 1, window: 3 });
    for (let released = 0; released < 10; released++) {
      await new Promise((resolve) => setImmediate(resolve));
      gates.shift()?.();
    }
    const result = await running;
    assert.equal(most, 3);
    assert.equal(result.requests, 10);
  });

  it("reports progress in items after each request, starting at nothing done", async () => {
    const seen: BulkProgress[] = [];
    const { send } = recorder();
    await runBulk(items(5), send, { cap: 2, window: 1, onProgress: (p) => seen.push(p) });
    assert.deepEqual(seen, [
      { done: 0, total: 5, requests: 0 },
      { done: 2, total: 5, requests: 1 },
      { done: 4, total: 5, requests: 2 },
      { done: 5, total: 5, requests: 3 },
    ]);
  });

  it("a cancel sends nothing more: the items not handed over are not sent, and left to run again", async () => {
    const stop = new AbortController();
    const { sent, send } = recorder();
    const result = await runBulk(items(6), send, { cap: 2, window: 1, signal: stop.signal, onProgress: (p) => p.done === 2 && stop.abort() });
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.call.signal, stop.signal, "requests carry the run's cancel");
    assert.equal(result.cancelled, true);
    assert.deepEqual(
      result.outcomes.map((o) => o.status),
      ["done", "done", "notSent", "notSent", "notSent", "notSent"],
    );
    assert.deepEqual(result.left, ["item3", "item4", "item5", "item6"]);
  });

  it("a refused request keeps its reason on each of its items, and the run goes on", async () => {
    const reason = new Error("No such company");
    const { sent, send } = recorder((batch) => (batch.items.includes("item3") ? reason : undefined));
    const result = await runBulk(items(6), send, { cap: 2, window: 1 });
    assert.equal(sent.length, 3);
    assert.deepEqual(result.outcomes[2], { status: "refused", reason });
    assert.deepEqual(result.outcomes[3], { status: "refused", reason });
    assert.deepEqual(result.outcomes[4], { status: "done", value: "ITEM5" });
    assert.deepEqual(result.left, ["item3", "item4"]);
    assert.equal(result.stopped, undefined);
  });

  it("a failure the caller makes harmless to repeat is sent again before any other request, until the caller says no more", async () => {
    const lost = new Error("The answer was lost");
    let failures = 0;
    const { sent, send } = recorder((batch) => (batch.items.includes("item3") && failures++ < 2 ? lost : undefined));
    const sends: number[] = [];
    const result = await runBulk(items(6), send, { cap: 2, window: 1, resend: (error, n) => (sends.push(n), error === lost && n < 3) });
    assert.deepEqual(
      sent.map((s) => s.batch.items[0]),
      ["item1", "item3", "item3", "item3", "item5"],
      "the failed request again at once, then the rest",
    );
    assert.deepEqual(sends, [1, 2]);
    assert.deepEqual(result.outcomes[2], { status: "done", value: "ITEM3" });

    failures = 0;
    const refused = await runBulk(items(4), recorder((batch) => (batch.items.includes("item3") ? lost : undefined)).send, {
      cap: 2,
      resend: (_error, n) => n < 2,
    });
    assert.deepEqual(refused.outcomes[2], { status: "refused", reason: lost }, "refused once the caller sends no more");
  });

  it("a failure that stops the run leaves the rest not sent, and says why", async () => {
    const reason = new Error("Your plan has no credits left");
    const { sent, send } = recorder((batch) => (batch.indexes[0] === 2 ? reason : undefined));
    const result = await runBulk(items(8), send, { cap: 2, window: 1, stopsRun: (e) => e === reason });
    assert.equal(sent.length, 2);
    assert.equal(result.stopped, reason);
    assert.equal(result.cancelled, false);
    assert.deepEqual(
      result.outcomes.map((o) => o.status),
      ["done", "done", "refused", "refused", "notSent", "notSent", "notSent", "notSent"],
    );
  });

  it("a request may answer and stop the run at once", async () => {
    let calls = 0;
    const send = async (batch: RunBatch<string>) => (++calls === 1 ? { values: batch.items, stop: "over" } : batch.items);
    const result = await runBulk(items(4), send, { cap: 2, window: 1 });
    assert.equal(calls, 1);
    assert.equal(result.stopped, "over");
    assert.deepEqual(result.left, ["item3", "item4"]);
  });

  it("a resumed run sends only what was left, each item with the same idempotency key", async () => {
    const stop = new AbortController();
    const first = recorder((batch) => (batch.items.includes("item2") ? new Error("refused") : undefined));
    const keyOf = (item: string) => `run1-${item}`;
    const options = { cap: 2, window: 1, keyOf };
    const run1 = await runBulk(items(6), first.send, { ...options, signal: stop.signal, onProgress: (p: BulkProgress) => p.done === 4 && stop.abort() });
    assert.deepEqual(run1.left, ["item1", "item2", "item5", "item6"]);
    const again = recorder();
    const run2 = await runBulk(run1.left, again.send, options);
    assert.deepEqual(
      again.sent.map((s) => s.batch.items),
      [
        ["item1", "item2"],
        ["item5", "item6"],
      ],
    );
    assert.deepEqual(again.sent[0]!.batch.keys, first.sent[0]!.batch.keys);
    assert.deepEqual(again.sent[1]!.batch.keys, ["run1-item5", "run1-item6"]);
    assert.deepEqual(run2.left, []);
  });

  it("an empty list sends nothing", async () => {
    const { sent, send } = recorder();
    const result = await runBulk([], send, { cap: 5 });
    assert.equal(sent.length, 0);
    assert.deepEqual(result.outcomes, []);
  });
});

describe("bulk run on the service client", () => {
  const lookalikes = {
    data: [
      {
        id: "200",
        type: "CompanyLookalike",
        attributes: { companyName: "Beta", score: 0.9, rank: 1, industry: "Software", revenueRange: "$1M - $5M", employeeRange: "10 - 50", country: "France" },
      },
    ],
  };
  const briefing = { data: { id: "42", type: "AccountSummary", attributes: { markdown: "# A" } } };

  it("waits in the client's queue as bulk work: the client's cap, not the run's window, says how many leave, and a cell's request goes first", async () => {
    const held: (() => void)[] = [];
    const { client, clock, transport } = harness(
      async (r) => {
        if (!r.path.includes("lookalikes")) return answer(200, briefing);
        await new Promise<void>((resolve) => held.push(resolve));
        return answer(200, lookalikes);
      },
      { concurrency: 3 },
    );
    const seeds = ["1", "2", "3", "4", "5", "6"];
    const run = runBulk(seeds, async (batch, call) => [await client.companyLookalikes({ companyId: batch.items[0]!, size: 5 }, call)], { cap: 1, window: 6 });
    await clock.advance(5000);
    assert.equal(transport.maxInFlight, 2, "bulk work leaves the client's last slot free");
    const cell = await clock.run(client.accountBriefing("42"));
    assert.equal(cell.companyId, "42");
    assert.equal(held.length, 2, "the cell was answered while the bulk requests still waited");
    while (held.length > 0) {
      held.shift()!();
      await clock.advance(5000);
    }
    const result = await run;
    assert.deepEqual(
      result.outcomes.map((o) => o.status),
      seeds.map(() => "done"),
    );
    assert.equal(transport.maxInFlight, 3);
  });
});
