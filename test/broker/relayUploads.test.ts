// Nothing of a relayed body is read before the request's token is looked at and its queue place
// and share of the body memory are taken: a request without a token is answered 401 before its
// body is sent, many large uploads without a token leave the broker's memory flat, the bodies held
// at once are bounded in total and per organization (503 in the service's error shape), a body
// that does not arrive in time is answered 408, and the server has request and connection time
// limits. Over loopback HTTP (raw sockets where a body must stay unsent).
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { FakeClock } from "../core/api/scripted.js";
import { ADDIN, brokerFor, fakeUpstreamPerSuite } from "./helpers.js";
import type { FakeUpstream } from "./upstream.js";

const UPSERT = "/studio/v1/audiences/a1/rows/actions/bulk/upsert";
const MIB = 1024 * 1024;

async function listening(app: FastifyInstance): Promise<{ host: string; port: number }> {
  await app.listen({ port: 0, host: "127.0.0.1" });
  return { host: "127.0.0.1", port: (app.server.address() as AddressInfo).port };
}

/** A raw request: its headers and `sent` bytes of its body written, the rest never. */
function partialUpload(at: { host: string; port: number }, headers: Record<string, string>, declared: number, sent = 0) {
  const socket: Socket = connect(at.port, at.host);
  const lines = [
    `POST ${UPSERT} HTTP/1.1`,
    `host: ${at.host}:${at.port}`,
    `content-length: ${declared}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.write(`${lines.join("\r\n")}\r\n\r\n`);
  if (sent > 0) socket.write(Buffer.alloc(sent, 0x20));
  let text = "";
  const answer = new Promise<string>((resolve) => {
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
      if (/\r\n\r\n/.test(text)) resolve(text);
    });
    socket.on("error", () => resolve(text));
    socket.on("close", () => resolve(text));
  });
  return { answer, socket };
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);

/** Lets the broker run until `ready` holds (events, not time: a bounded number of turns of the event loop). */
async function until(ready: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 5000 && !ready(); turn += 1) await new Promise((resolve) => setImmediate(resolve));
  assert.ok(ready(), `never happened: ${what}`);
}

/** One upload over HTTP of `body` (shared, not copied); resolves with the status as soon as the answer's head arrives. */
function upload(at: { host: string; port: number }, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: at.host,
        port: at.port,
        method: "POST",
        path: UPSERT,
        headers: { origin: ADDIN, "content-type": "application/json", "content-length": body.length },
      },
      (res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("relayed bodies: nothing read before the token and the queue place", () => {
  let upstream: FakeUpstream;
  fakeUpstreamPerSuite((u) => (upstream = u));

  it("answers a request without a token 401 before its body is sent", { timeout: 20_000 }, async () => {
    const app = await brokerFor(upstream);
    const at = await listening(app);
    try {
      const { answer, socket } = partialUpload(at, { origin: ADDIN, "content-type": "application/json" }, 8 * MIB);
      const head = await answer;
      socket.destroy();
      assert.equal(statusOf(head), 401, head.split("\r\n")[0]);
      assert.match(head, /www-authenticate: Bearer/i);
      assert.equal(upstream.received.length, 0);
    } finally {
      await app.close();
    }
  });

  it("refuses 60 concurrent 8 MiB uploads without a token, each 4xx, with the broker's memory growing less than 250 MB", { timeout: 120_000 }, async (t) => {
    const app = await brokerFor(upstream);
    const at = await listening(app);
    const body = Buffer.alloc(8 * MIB, 0x7b);
    const before = process.memoryUsage();
    let statuses: number[];
    let peak = before.rss;
    try {
      statuses = await Promise.all(
        Array.from({ length: 60 }, () =>
          upload(at, body).then((status) => {
            peak = Math.max(peak, process.memoryUsage().rss);
            return status;
          }),
        ),
      );
    } finally {
      await app.close();
    }
    const grown = (peak - before.rss) / MIB;
    t.diagnostic(
      `rss ${Math.round(before.rss / MIB)} MB before, peak ${Math.round(peak / MIB)} MB (+${Math.round(grown)} MB); heap +${Math.round((process.memoryUsage().heapUsed - before.heapUsed) / MIB)} MB`,
    );
    assert.ok(
      statuses.every((s) => s >= 400 && s < 500),
      `every upload refused with 4xx: ${[...new Set(statuses)].join(", ")}`,
    );
    assert.ok(grown < 250, `memory grew ${Math.round(grown)} MB`);
    assert.equal(upstream.received.length, 0);
  });

  it(
    "holds bodies up to its limits, in total and per organization, answering 503 in the service's error shape beyond them; a late body is answered 408",
    { timeout: 20_000 },
    async () => {
      const clock = new FakeClock(0);
      const app = await brokerFor(
        upstream,
        { bufferedBodyBytes: 2 * MIB, bufferedBodyBytesPerOrganization: MIB, bodyTimeoutMs: 5000, trustProxy: 1 },
        { clock },
      );
      const at = await listening(app);
      const from = (address: string) => ({ origin: ADDIN, "content-type": "application/json", authorization: "Bearer t", "x-forwarded-for": address });
      const held: Socket[] = [];
      try {
        const first = partialUpload(at, from("198.51.100.1"), 700 * 1024, 1000);
        held.push(first.socket);
        await until(() => clock.pendingTimers === 1, "the first body's time limit started");
        const sameOrganization = partialUpload(at, from("198.51.100.1"), 700 * 1024);
        held.push(sameOrganization.socket);
        const refused = await sameOrganization.answer;
        assert.equal(statusOf(refused), 503, refused.split("\r\n")[0]);
        assert.match(refused, /retry-after: 2/i);
        const doc = JSON.parse(refused.slice(refused.indexOf("{"))) as { errors: { status: string; detail: string }[] };
        assert.equal(doc.errors[0]!.status, "503");
        assert.match(doc.errors[0]!.detail, /organization/);
        const other = partialUpload(at, from("198.51.100.2"), 700 * 1024, 1000);
        held.push(other.socket);
        await until(() => clock.pendingTimers === 2, "the second organization's body is held");
        const third = partialUpload(at, from("198.51.100.3"), 700 * 1024);
        held.push(third.socket);
        const full = await third.answer;
        assert.equal(statusOf(full), 503, "beyond the total");
        assert.match(full, /busy receiving other uploads/);
        await clock.advance(5000);
        assert.equal(statusOf(await first.answer), 408, "a body that did not arrive in time");
        assert.equal(upstream.received.length, 0);
      } finally {
        for (const socket of held) socket.destroy();
        await app.close();
      }
    },
  );

  it("sets the server's request and connection time limits", async () => {
    const app = await brokerFor(upstream);
    await app.ready();
    assert.equal(app.server.requestTimeout, 60_000);
    assert.equal(app.server.timeout, 120_000);
    await app.close();
    const tuned = await brokerFor(upstream, { requestTimeoutMs: 5000, connectionTimeoutMs: 9000 });
    await tuned.ready();
    assert.equal(tuned.server.requestTimeout, 5000);
    assert.equal(tuned.server.timeout, 9000);
    await tuned.close();
  });
});
