// The production profile's handlers call the specification's operations as functions, not as
// requests to a second server: its routes answer on an app that serves no specification path,
// and the steps a request on a specification route passes (here a simulated fault) apply to the
// call all the same.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import Fastify, { type FastifyInstance } from "fastify";
import { buildApp, defaultSandboxOptions, type BuiltApp } from "../../src/sandbox/app.js";
import { mintDevToken } from "../../src/sandbox/auth.js";
import { productionDataRoutes } from "../../src/sandbox/production/data.js";

const SMALL = { companies: 100, contacts: 200 };

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
