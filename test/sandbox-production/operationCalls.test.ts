// The production profile's handlers call the specification's operations as functions, not as
// requests to a second server: its routes answer on an app that serves no specification path,
// and the steps a request on a specification route passes (here a simulated fault) apply to the
// call all the same.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import Fastify, { type FastifyInstance, type FastifyRequest } from "fastify";
import { OPERATIONS } from "../../src/core/contract/index.js";
import { buildApp, defaultSandboxOptions, type BuiltApp } from "../../src/sandbox/app.js";
import { mintDevToken } from "../../src/sandbox/auth.js";
import { productionDataRoutes } from "../../src/sandbox/production/data.js";

// The calls are many and quick: the rate limit is not what these tests are about.
const SMALL = { companies: 100, contacts: 200, rateLimit: { perSecond: 10_000 } };

async function tokenFor(built: BuiltApp): Promise<string> {
  const { ctx } = built;
  return (await mintDevToken(ctx.keys, ctx.options.publicUrl, ctx.apiAudience, {})).token;
}

describe("the production profile's operation calls", () => {
  let built: BuiltApp;
  let gateway: FastifyInstance;
  let token: string;

  before(async () => {
    built = await buildApp(defaultSandboxOptions(SMALL));
    token = await tokenFor(built);
    // An app with production's data routes only: the specification's paths are not on it.
    gateway = Fastify();
    await productionDataRoutes(gateway, built.operations);
  });
  after(async () => {
    await gateway.close();
    await built.app.close();
  });

  it("answers production's routes from the specification's handlers on an app without the specification's routes", async () => {
    assert.equal(gateway.hasRoute({ method: "POST", url: "/data/v1/companies/search" }), false);
    const authorization = `Bearer ${token}`;
    const usage = await gateway.inject({ method: "GET", url: "/gtm/data/v1/users/usage", headers: { authorization } });
    assert.equal(usage.statusCode, 200, usage.body);
    assert.equal(usage.json().data[0].type, "UserUsage");
    assert.match(String(usage.headers["x-ratelimit-remaining-second"]), /^\d+$/);

    const search = await gateway.inject({
      method: "POST",
      url: "/gtm/data/v1/companies/search?page[size]=2",
      headers: { authorization, "content-type": "application/json" },
      payload: { data: { type: "CompanySearch", attributes: {} } },
    });
    assert.equal(search.statusCode, 200, search.body);
    assert.equal(search.json().data.length, 2);
    // The specification's validation still runs on the call: a page size above its cap is its 400.
    const tooLarge = await gateway.inject({
      method: "POST",
      url: "/gtm/data/v1/companies/search?page[size]=5000",
      headers: { authorization, "content-type": "application/json" },
      payload: { data: { type: "CompanySearch", attributes: {} } },
    });
    assert.equal(tooLarge.statusCode, 400, tooLarge.body);
    assert.equal(tooLarge.json().errors[0].source.parameter, "page[size]");
  });
});

describe("a simulated fault on the production profile", () => {
  let built: BuiltApp;

  before(async () => {
    built = await buildApp(defaultSandboxOptions({ ...SMALL, profile: "production", faults: { failRate: 1 } }));
  });
  after(async () => built.app.close());

  it("fails the operation the production route calls with the specification's 503", async () => {
    const res = await built.app.inject({ method: "GET", url: "/gtm/data/v1/users/usage", headers: { authorization: `Bearer ${await tokenFor(built)}` } });
    assert.equal(res.statusCode, 503, res.body);
    assert.match(res.json().errors[0].detail, /simulated fault/);
  });
});

describe("the operations a production handler can call", () => {
  let built: BuiltApp;
  let request: FastifyRequest;

  before(async () => {
    built = await buildApp(defaultSandboxOptions(SMALL));
    request = { headers: { authorization: `Bearer ${await tokenFor(built)}` } } as FastifyRequest;
  });
  after(async () => built.app.close());

  it("are every operation of the table the specification declares, each served the same way", async () => {
    for (const op of OPERATIONS.filter((o) => o.specification)) {
      // An operation served as a plain route would not be in the table: the call would throw.
      const answer = await built.operations.call(op.id, request);
      assert.ok(answer.status >= 200 && answer.status < 600, op.id);
    }
  });

  it("answers a lookup called directly as its route answers it: the values, a signal lookup, the search fields, the enrich lookup", async () => {
    const asks = [
      ["lookup", "/data/v1/lookup/country", { params: { fieldName: "country" } }],
      ["lookup", "/data/v1/lookup/intent-topics", { params: { fieldName: "intent-topics" } }],
      [
        "lookup",
        "/data/v1/lookup/search?filter[entity]=company&filter[fieldType]=input",
        { params: { fieldName: "search" }, query: { "filter[entity]": "company", "filter[fieldType]": "input" } },
      ],
      ["lookup", "/data/v1/lookup/nothing", { params: { fieldName: "nothing" } }],
      ["lookupEnrich", "/data/v1/lookup/enrich?filter[entity]=orgChart", { query: { "filter[entity]": "orgChart" } }],
    ] as const;
    for (const [id, url, input] of asks) {
      const called = await built.operations.call(id, request, input);
      const routed = await built.app.inject({ method: "GET", url, headers: { authorization: request.headers.authorization } });
      assert.equal(called.status, routed.statusCode, url);
      const body = routed.json();
      if (called.status === 200) assert.deepEqual(called.body, body, url);
      else assert.equal((called.body as { errors: { detail: string }[] }).errors[0]!.detail, body.errors[0].detail, url);
    }
  });
});
