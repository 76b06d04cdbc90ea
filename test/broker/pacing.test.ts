// The relay's central pacing on a hand-stepped clock: one request per slot of a tenant, round
// robin between its users, interactive ahead of bulk, tenants apart, a bounded queue.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTenantPacer, memorySlots, QueueFullError, type Priority, type SlotStore } from "../../src/broker/pacing.js";
import { ADDIN, brokerFor } from "./helpers.js";
import { FakeClock } from "../core/api/scripted.js";
import { fakeService } from "./service.js";
import { startFakeUpstream, type FakeUpstream } from "./upstream.js";

const RATE = 25;
const SLOT_MS = 1000 / RATE;

function pacerAt(start: number, maxQueueWaitMs = 60_000) {
  const clock = new FakeClock(start);
  const pacer = createTenantPacer({ perSecond: RATE, safetyMargin: 0, maxQueueWaitMs }, memorySlots(), clock);
  const released: { label: string; at: number }[] = [];
  const take = (label: string, tenant: string, user: string, priority: Priority = "interactive", signal?: AbortSignal) =>
    pacer.take(tenant, user, priority, signal).then(() => void released.push({ label, at: clock.now() }));
  /** Steps the clock slot by slot up to `slots` slots after the start. */
  const run = async (slots: number) => {
    const first = Math.ceil(start / SLOT_MS);
    for (let k = 0; k <= slots; k += 1) await clock.advanceTo((first + k) * SLOT_MS);
  };
  return { pacer, clock, released, take, run };
}

/** The most releases in any one-second window, however it is aligned. */
function busiestSecond(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i += 1) {
    while (sorted[i]! - sorted[j]! >= 1000) j += 1;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe("relay pacing", () => {
  it("lets a tenant's requests leave one per slot, never more than its rate in any second", async () => {
    const { released, take, run } = pacerAt(0);
    const all = Array.from({ length: 60 }, (_, i) => take(`r${i}`, "acme", `user${i % 3}`));
    await run(70);
    await Promise.all(all);
    assert.equal(released.length, 60);
    const times = released.map((r) => r.at);
    assert.equal(new Set(times).size, 60, "one request per slot");
    assert.equal(busiestSecond(times), RATE);
    assert.equal(times.at(-1), 59 * SLOT_MS, "and no slot is left empty while requests wait");
  });

  it("serves the users of one tenant in turn, so a user with little work is not stuck behind a bulk of another's", async () => {
    const { released, take, run } = pacerAt(5);
    const a = Array.from({ length: 8 }, (_, i) => take(`A${i}`, "acme", "alice"));
    const b = Array.from({ length: 3 }, (_, i) => take(`B${i}`, "acme", "bob"));
    await run(12);
    await Promise.all([...a, ...b]);
    assert.deepEqual(released.map((r) => r.label).slice(0, 7), ["A0", "B0", "A1", "B1", "A2", "B2", "A3"]);
  });

  it("sends interactive requests ahead of bulk ones waiting in the same tenant", async () => {
    const { released, take, run } = pacerAt(5);
    const bulk = Array.from({ length: 5 }, (_, i) => take(`bulk${i}`, "acme", "alice", "bulk"));
    const cells = Array.from({ length: 2 }, (_, i) => take(`cell${i}`, "acme", "bob", "interactive"));
    await run(8);
    await Promise.all([...bulk, ...cells]);
    assert.deepEqual(
      released.map((r) => r.label),
      ["cell0", "cell1", "bulk0", "bulk1", "bulk2", "bulk3", "bulk4"],
    );
  });

  it("paces each tenant on its own (their limits are separate)", async () => {
    const { released, take, run } = pacerAt(5);
    const all = [...Array.from({ length: 4 }, (_, i) => take(`x${i}`, "acme", "u")), ...Array.from({ length: 4 }, (_, i) => take(`y${i}`, "globex", "u"))];
    await run(4);
    await Promise.all(all);
    const at = (prefix: string) => released.filter((r) => r.label.startsWith(prefix)).map((r) => r.at);
    assert.deepEqual(at("x"), [40, 80, 120, 160]);
    assert.deepEqual(at("y"), [40, 80, 120, 160]);
  });

  it("refuses with a Retry-After when the wait would be too long, still taking interactive requests", async () => {
    const { pacer, take, run, released } = pacerAt(5, 5 * SLOT_MS);
    const queued = Array.from({ length: 5 }, (_, i) => take(`bulk${i}`, "acme", "alice", "bulk"));
    await assert.rejects(pacer.take("acme", "alice", "bulk"), (error: unknown) => error instanceof QueueFullError && error.retryAfterSeconds === 1);
    const cell = take("cell", "acme", "bob", "interactive");
    await run(7);
    await Promise.all([...queued, cell]);
    assert.equal(released[0]!.label, "cell");
  });

  it("does not let one user's flood marked interactive refuse another user: beyond a user's share it waits as bulk", async () => {
    const { released, take, run } = pacerAt(5, 20_000);
    const flood = Array.from({ length: 600 }, (_, i) =>
      take(`bob${i}`, "acme", "bob", "interactive").catch((e: unknown) => (e instanceof QueueFullError ? "refused" : Promise.reject(e))),
    );
    const alice = take("alice", "acme", "alice", "interactive");
    const aliceBulk = take("alice-bulk", "acme", "alice", "bulk");
    await run(4);
    await alice;
    const at = released.find((r) => r.label === "alice")!.at;
    assert.ok(at <= 2 * SLOT_MS, `Alice's cell left at ${at} ms, after at most one of Bob's requests`);
    await run(520);
    await aliceBulk;
    const aliceBulkAt = released.find((r) => r.label === "alice-bulk")!.at;
    assert.ok(aliceBulkAt < 30 * SLOT_MS, `Alice's bulk request is not behind Bob's whole flood (left at ${aliceBulkAt} ms)`);
    assert.ok((await Promise.all(flood)).includes("refused"), "Bob's flood beyond the longest wait is refused");
  });

  it("answers a waiting request with a refusal by the longest wait when no slot can be claimed (a store that never answers)", async () => {
    const clock = new FakeClock(5);
    const hanging: SlotStore = { claim: () => new Promise<boolean>(() => undefined) };
    const pacer = createTenantPacer({ perSecond: RATE, safetyMargin: 0, maxQueueWaitMs: 2000 }, hanging, clock);
    const waiting = assert.rejects(pacer.take("acme", "alice", "interactive"), QueueFullError);
    await clock.advance(2000 + SLOT_MS);
    await waiting;
  });

  it("forgets a request whose caller went away, and gives its slot to the next", async () => {
    const { released, take, run } = pacerAt(5);
    const gone = new AbortController();
    const first = take("first", "acme", "alice", "bulk", gone.signal);
    const second = take("second", "acme", "bob", "bulk");
    gone.abort(new Error("closed"));
    await assert.rejects(first, /closed/);
    await run(2);
    await second;
    assert.deepEqual(released, [{ label: "second", at: 40 }]);
  });
});

describe("relay with pacing", () => {
  let upstream: FakeUpstream;
  before(async () => {
    upstream = await startFakeUpstream();
  });
  after(() => upstream.close());
  const headers = (priority?: string, token = "t") => ({
    origin: ADDIN,
    authorization: `Bearer ${token}`,
    ...(priority ? { "x-bizdata-priority": priority } : {}),
  });

  it("holds a per-second refusal the service sends anyway and sends the request again", async () => {
    upstream.received.length = 0;
    const clock = new FakeClock(5);
    const app = await brokerFor(upstream, { pacing: { perSecond: RATE, safetyMargin: 0 } }, { clock });
    const answer = app.inject({ method: "GET", url: "/data/v1/users/usage", headers: headers("bulk", "busy-once-paced") });
    for (let k = 1; upstream.received.length < 2 && k < 50; k += 1) {
      await clock.advanceTo(k * SLOT_MS);
      await clock.flush();
    }
    const res = await answer;
    assert.equal(res.statusCode, 200);
    assert.equal(upstream.received.length, 2);
    assert.equal(upstream.received[0]!.headers["x-bizdata-priority"], undefined, "the priority header stays at the broker");
    await app.close();
  });

  it("passes an hour's or a day's refusal on at once, unchanged, even with a short Retry-After", async () => {
    for (const bucket of ["hour", "day"]) {
      const clock = new FakeClock(5);
      const refusal = () =>
        new Response("{}", { status: 429, headers: { "content-type": "application/json", "retry-after": "1", "x-ratelimit-rejected-bucket": bucket } });
      const service = fakeService(clock, refusal);
      const app = await brokerFor(
        { url: "http://127.0.0.1:9" } as FakeUpstream,
        { pacing: { perSecond: RATE, safetyMargin: 0 } },
        { clock, fetch: service.fetch },
      );
      const res = await clock.run(app.inject({ method: "GET", url: "/data/v1/users/usage", headers: headers("bulk") }));
      assert.equal(res.statusCode, 429, bucket);
      assert.equal(res.headers["x-ratelimit-rejected-bucket"], bucket);
      assert.equal(res.headers["retry-after"], "1");
      assert.equal(service.calls.length, 1, `an ${bucket} refusal is not held and sent again`);
      await app.close();
    }
  });

  it("says on its answers that it paces the organization (and at what rate), exposed to the add-in; an unpaced relay does not", async () => {
    const clock = new FakeClock(5);
    const service = fakeService(clock);
    const paced = await brokerFor({ url: "http://127.0.0.1:9" } as FakeUpstream, { pacing: { perSecond: RATE } }, { clock, fetch: service.fetch });
    const res = await clock.run(paced.inject({ method: "GET", url: "/data/v1/users/usage", headers: headers() }));
    await paced.close();
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers["x-bizdata-relay-paced"], String(RATE));
    assert.match(String(res.headers["access-control-expose-headers"]), /x-bizdata-relay-paced/i);
    const unpaced = await brokerFor(upstream);
    const plain = await unpaced.inject({ method: "GET", url: "/data/v1/users/usage", headers: headers() });
    await unpaced.close();
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers["x-bizdata-relay-paced"], undefined);
  });

  it("passes a per-second refusal on when it does not pace, and refuses an unknown priority", async () => {
    const app = await brokerFor(upstream);
    const refused = await app.inject({ method: "GET", url: "/data/v1/users/usage", headers: headers(undefined, "busy-once-unpaced") });
    assert.equal(refused.statusCode, 429);
    const bad = await app.inject({ method: "GET", url: "/data/v1/users/usage", headers: headers("urgent") });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().error_description, /x-bizdata-priority/);
    await app.close();
  });
});
