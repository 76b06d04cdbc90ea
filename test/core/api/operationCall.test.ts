// The client's calls made from the operation table (src/core/api/operationCall.ts): an entry of a
// table is callable with no other client code (its method, its profile's path, its request and
// answer schemas, whether a repeat is harmless), on a scripted transport.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Type } from "@sinclair/typebox";
import { callOperation, createClientContext, isServiceError, tableCaller, type ServiceClientOptions } from "../../../src/core/api/index.js";
import { operationLabel } from "../../../src/core/api/operationCall.js";
import { at, type Operation } from "../../../src/core/contract/operationTypes.js";
import { BASE, rejection } from "./harness.js";
import { answer, FakeClock, scriptedTransport, tokenSource, type Handler } from "./scripted.js";

const WidgetDocument = Type.Object({ data: Type.Object({ id: Type.String(), attributes: Type.Object({ count: Type.Integer() }) }) });
const WidgetBody = Type.Object({ data: Type.Object({ name: Type.String({ minLength: 1 }) }) }, { additionalProperties: false });
const WidgetQuery = Type.Object({ size: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })) }, { additionalProperties: false });

/** A table the client has never heard of: a read, a write that must not be sent twice, a production-only read and an audience read. */
const TABLE = [
  {
    id: "countWidgets",
    method: "GET",
    specification: at("/data/v1/widgets/{widgetId}/count", []),
    production: at("/data/v2/widgets/{widgetId}/count", []),
    query: WidgetQuery,
    answer: WidgetDocument,
    credit: "none",
    idempotent: true,
    client: true,
  },
  {
    id: "createWidget",
    method: "POST",
    specification: at("/data/v1/widgets", []),
    body: WidgetBody,
    answer: WidgetDocument,
    credit: "bulkRecord",
    idempotent: false,
    client: true,
  },
  {
    id: "studioWidget",
    method: "GET",
    ...{ specification: at("/v1/widgets", []), production: at("/studio/v1/widgets", []) },
    answer: WidgetDocument,
    credit: "none",
    idempotent: true,
    client: true,
    audiences: true,
  },
  { id: "serverOnly", method: "GET", specification: at("/data/v1/hidden", []), credit: "none", idempotent: true, client: false },
] as const satisfies readonly Operation[];

const WIDGET = { data: { id: "w/1", attributes: { count: 3 } } };

function setup(handler: Handler, options: Partial<ServiceClientOptions> = {}) {
  const clock = new FakeClock();
  const transport = scriptedTransport(clock, handler);
  const { ctx } = createClientContext({
    baseUrl: BASE,
    audiencesBaseUrl: `${BASE}/aud`,
    getAccessToken: tokenSource().getAccessToken,
    fetch: transport,
    clock,
    random: () => 0,
    ...options,
  });
  return { ctx, requests: transport.requests, clock };
}

const widgets = tableCaller(TABLE);

describe("a call made from its table entry", () => {
  it("sends the entry's method to its path with the parameters filled, and reads the answer with its schema", async () => {
    const { ctx, requests } = setup(() => answer(200, WIDGET));
    const doc = await widgets.call(ctx, "countWidgets", { params: { widgetId: "a b/c" }, query: { size: 5 } });
    assert.equal(doc.data.attributes.count, 3);
    assert.equal(requests.length, 1);
    assert.equal(requests[0]!.method, "GET");
    assert.equal(requests[0]!.url, `${BASE}/data/v1/widgets/a%20b%2Fc/count?size=5`);
  });

  it("takes the path of the client's profile", async () => {
    const { ctx, requests } = setup(() => answer(200, WIDGET), { profile: "production" });
    await widgets.call(ctx, "countWidgets", { params: { widgetId: "7" } });
    assert.equal(requests[0]!.path, "/data/v2/widgets/7/count");
  });

  it("refuses, before sending, an operation the profile does not offer, and one the add-in does not call", async () => {
    const { ctx, requests } = setup(() => answer(200, WIDGET), { profile: "production" });
    const refused = await rejection(widgets.call(ctx, "createWidget", { body: { data: { name: "Gear" } } }));
    assert.ok(isServiceError(refused) && refused.kind === "validation", String(refused));
    await assert.rejects(widgets.send(ctx, "serverOnly"), /not an operation the add-in calls/);
    assert.equal(requests.length, 0);
  });

  it("sends an audience operation to the audience address, without production's studio prefix twice", async () => {
    for (const profile of ["specification", "production"] as const) {
      const { ctx, requests } = setup(() => answer(200, WIDGET), { profile });
      await widgets.call(ctx, "studioWidget");
      assert.equal(requests[0]!.url, `${BASE}/aud/v1/widgets`, profile);
    }
  });

  it("refuses a body or a query the entry's schemas reject, before anything is sent", async () => {
    const { ctx, requests } = setup(() => answer(200, WIDGET));
    const body = await rejection(widgets.call(ctx, "createWidget", { body: { data: { name: "" } } }));
    assert.ok(isServiceError(body) && body.kind === "validation", String(body));
    const query = await rejection(widgets.call(ctx, "countWidgets", { params: { widgetId: "7" }, query: { size: 50 } }));
    assert.ok(isServiceError(query) && query.kind === "validation", String(query));
    assert.equal(requests.length, 0);
  });

  it("says an answer of the wrong shape is one", async () => {
    const { ctx } = setup(() => answer(200, { data: [] }));
    const error = await rejection(widgets.call(ctx, "countWidgets", { params: { widgetId: "7" } }));
    assert.ok(isServiceError(error) && error.kind === "invalidResponse", String(error));
  });

  it("resends after a server error only what the entry calls idempotent, and what the call does not narrow", async () => {
    const failingOnce = () => {
      let calls = 0;
      return () => (calls++ === 0 ? answer(503, { errors: [{ status: "503", title: "Busy" }] }) : answer(200, WIDGET));
    };
    const read = setup(failingOnce());
    await read.clock.run(widgets.call(read.ctx, "countWidgets", { params: { widgetId: "7" } }));
    assert.equal(read.requests.length, 2, "an idempotent read is sent again");

    const write = setup(failingOnce());
    await assert.rejects(write.clock.run(widgets.call(write.ctx, "createWidget", { body: { data: { name: "Gear" } } })));
    assert.equal(write.requests.length, 1, "a write that must not be sent twice is not");

    const narrowed = setup(failingOnce());
    await assert.rejects(narrowed.clock.run(widgets.call(narrowed.ctx, "countWidgets", { params: { widgetId: "7" }, idempotent: false })));
    assert.equal(narrowed.requests.length, 1, "a call may say it must not be sent twice");
  });

  it("knows the service's table by id, and refuses an id it lacks", async () => {
    const { ctx, requests } = setup(() => answer(200, { data: [{ type: "Usage", id: "u", attributes: { usage: [] } }] }));
    const usage = await callOperation(ctx, "usage");
    assert.equal(requests[0]!.url, `${BASE}/data/v1/users/usage`);
    assert.ok(Array.isArray(usage.data));
    assert.equal(operationLabel("getAudience"), "GET /v1/audiences/{audienceId}", "messages name an operation by its entry");
    // @ts-expect-error: no entry of the table is called so
    await assert.rejects(callOperation(ctx, "enrichWidgets"), RangeError);
    // @ts-expect-error: nor of the test's table
    await assert.rejects(widgets.call(ctx, "usage"), RangeError);
  });
});
