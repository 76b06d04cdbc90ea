// Request hooks through the client's public interface: a wrap may rewrite the address before
// sending and the answer after it, sees a failure once after the client's own retries, and every
// request but a usage read tells usage listeners.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RequestHooks } from "../../../src/core/api/hooks.js";
import { usageChangesAfterRequests } from "../../../src/core/api/usageChanges.js";
import { BASE, harness, rejection } from "./harness.js";
import { answer } from "./scripted.js";
import { PATHS } from "../../../src/core/contract/index.js";

const usageDoc = { data: [{ id: "u", type: "Usage", attributes: { usage: [] } }] };
const enriched = (ids: number[]) => ({
  data: ids.map((id) => ({ id: String(id), type: "Company", attributes: { name: `C${id}` }, meta: { matchStatus: "FULL_MATCH", input: { companyId: id } } })),
});

describe("request hooks", () => {
  it("a wrap rewrites the address before sending and the answer after it", async () => {
    const hooks = new RequestHooks();
    const seen: number[] = [];
    hooks.wrap(async (send, spec) => {
      const response = await send({ ...spec, url: spec.url.replace(BASE, `${BASE}/relay`) });
      seen.push(response.status);
      return { ...response, body: JSON.stringify(usageDoc) };
    });
    const h = harness(() => answer(200, { data: [] }), { hooks });
    const usage = await h.clock.run(h.client.usage());
    assert.deepEqual(usage.entries, []);
    assert.equal(h.requests[0]!.path, `/relay${PATHS.usage}`);
    assert.deepEqual(seen, [200]);
  });

  it("a wrap sees a failure once, after the client's retries, and the caller still gets it", async () => {
    const hooks = new RequestHooks();
    const errors: string[] = [];
    hooks.wrap(async (send, spec) => {
      try {
        return await send(spec);
      } catch (error) {
        errors.push((error as { kind: string }).kind);
        throw error;
      }
    });
    const h = harness(() => answer(503, { errors: [{ id: "x", code: "E", status: "503" }] }), { hooks });
    const error = (await h.clock.run(rejection(h.client.usage()))) as { kind: string };
    assert.equal(error.kind, "server");
    assert.ok(h.requests.length > 1, "the client retried");
    assert.deepEqual(errors, ["server"]);
  });

  it("a removed hook no longer runs; wraps run outermost first", async () => {
    const hooks = new RequestHooks();
    const order: string[] = [];
    hooks.wrap(async (send, spec) => (order.push("outer"), send(spec)));
    const remove = hooks.wrap(async (send, spec) => (order.push("inner"), send(spec)));
    const h = harness(() => answer(200, usageDoc), { hooks });
    await h.clock.run(h.client.usage());
    remove();
    await h.clock.run(h.client.usage());
    assert.deepEqual(order, ["outer", "inner", "outer"]);
  });

  it("tells usage listeners after every request (searches too), never after reading the usage", async () => {
    const hooks = new RequestHooks();
    const usage = usageChangesAfterRequests(hooks);
    let notices = 0;
    usage.onUsageChanged(() => notices++);
    const h = harness(
      (request) => {
        if (request.path.endsWith("/enrich")) {
          const body = request.body as { data: { attributes: { matchCompanyInput: { companyId: number }[] } } };
          return answer(200, enriched(body.data.attributes.matchCompanyInput.map((i) => i.companyId)));
        }
        if (request.path.includes("/lookup/")) return answer(200, { data: [] });
        return answer(200, usageDoc);
      },
      { hooks },
    );
    await h.clock.run(h.client.usage());
    assert.equal(notices, 0);
    await h.clock.run(h.client.lookup("countries"));
    assert.equal(notices, 1, "a free request still counts against the request allowance");
    const ids = Array.from({ length: 60 }, (_, i) => i + 1);
    const burst = [0, 20, 40].map((start) =>
      h.client.enrichCompanies(
        ids.slice(start, start + 20).map((companyId) => ({ companyId })),
        ["name"],
      ),
    );
    await h.clock.run(Promise.all(burst));
    assert.equal(h.requests.filter((r) => r.path.endsWith("/enrich")).length, 3);
    assert.equal(notices, 4, "one notice per request: the gauge decides how often to read");
    await h.clock.run(h.client.usage());
    assert.equal(notices, 4, "reading the usage changes nothing shown");
  });
});
