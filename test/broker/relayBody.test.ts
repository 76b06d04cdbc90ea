// The relay's body limit fits the largest request the add-in sends: a bulk upsert of 500
// audience rows (docs/audiences.md) with many columns goes through; a body over the limit is
// 413 before any upstream call.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ADDIN, brokerFor, fakeUpstreamPerSuite } from "./helpers.js";
import type { FakeUpstream } from "./upstream.js";

/** A bulk upsert of `rows` rows of `columns` cells of about 40 characters, with column ids as the service gives them. */
function bulkUpsert(rows: number, columns: number): string {
  const columnId = (c: number) => `0b6f${String(c).padStart(4, "0")}-1c2d-4e5f-8a9b-0123456789ab`;
  const cells = (r: number) => Object.fromEntries(Array.from({ length: columns }, (_, c) => [columnId(c), `row ${r} value ${c} with some text in it`]));
  return JSON.stringify({ data: { type: "AudienceRowBulkUpsert", attributes: { rows: Array.from({ length: rows }, (_, r) => ({ cells: cells(r) })) } } });
}

describe("relay body limit", () => {
  let upstream!: FakeUpstream;
  fakeUpstreamPerSuite((u) => (upstream = u));
  const send = (app: Awaited<ReturnType<typeof brokerFor>>, payload: string) =>
    app.inject({
      method: "POST",
      url: "/studio/v1/audiences/3f2b1c9e-1234-4abc-9def-0123456789ab/rows/actions/bulk/upsert",
      headers: { origin: ADDIN, authorization: "Bearer user-token-2", "content-type": "application/vnd.api+json" },
      payload,
    });

  it("relays a bulk upsert of 500 rows of 40 columns whole", async () => {
    const app = await brokerFor(upstream);
    const body = bulkUpsert(500, 40);
    assert.ok(body.length > 1024 * 1024, `the body is over 1 MiB (${body.length} bytes)`);
    await send(app, body);
    assert.equal(upstream.received.length, 1);
    assert.equal(upstream.received[0]!.body, body);
    await app.close();
  });

  it("answers 413 to a body over the limit without calling upstream", async () => {
    const app = await brokerFor(upstream, { relayBodyLimit: 64 * 1024 });
    const res = await send(app, bulkUpsert(50, 40));
    assert.equal(res.statusCode, 413);
    assert.equal(upstream.received.length, 0);
    await app.close();
  });
});
