// The operation table (core/contract/operations.ts), the relay's allow-list and the sandbox's
// routes agree: every operation is served by each profile that declares a path for it, by a
// route that names the operation (its scopes are the table's); every API route of either profile is an operation of the table; the
// relay forwards exactly the operations the client calls.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { GATEWAY_CODES, OPERATIONS, SCOPES, type Operation, type OperationProfileName } from "../../src/core/contract/index.js";
import { RELAY_OPERATIONS } from "../../src/broker/relayOperations.js";
import { buildApp, defaultSandboxOptions, type BuiltApp, type ServedRoute } from "../../src/sandbox/app.js";
import { mintDevToken } from "../../src/sandbox/auth.js";
import { ALL_ROLES } from "../../src/sandbox/plan/roles.js";

/** Where each profile serves the API: the specification at the root, production under /gtm. */
const BASE: Record<OperationProfileName, string> = { specification: "", production: "/gtm" };
/** The sandbox's API routes (sign-in, development endpoints and the gateway's catch-all aside). */
const API_ROUTE = /^\/(data|v1|platform|copilot)\/|^\/gtm\/(data|studio|copilot|platform)\//;

/** A route URL or a table path as a pattern of segments, every parameter alike. */
const shape = (path: string) => path.replace(/\{[^}/]+\}|:[^/]+/g, "{}");

/** Whether a served route is an operation's place: the same path, or a fixed value where the table has a parameter. */
function serves(route: ServedRoute, path: string): boolean {
  const pattern = new RegExp(
    `^${path
      .split(/\{[^}/]+\}/)
      .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
      .join("[^/]+")}$`,
  );
  return shape(route.url) === shape(path) || (!route.url.includes(":") && pattern.test(route.url));
}

const placesOf = (op: Operation) => (["specification", "production"] as const).flatMap((profile) => (op[profile] ? [{ profile, place: op[profile] }] : []));

describe("the operation table", () => {
  const built: Partial<Record<OperationProfileName, BuiltApp>> = {};
  before(async () => {
    const options = { companies: 100, contacts: 200, rateLimit: { perSecond: 1_000_000, perHour: 1_000_000 } };
    built.specification = await buildApp(defaultSandboxOptions(options));
    built.production = await buildApp(defaultSandboxOptions({ ...options, profile: "production" }));
  });
  after(async () => {
    await built.specification?.app.close();
    await built.production?.app.close();
  });

  it("names each operation once", () => {
    const ids = OPERATIONS.map((op) => op.id);
    assert.deepEqual(ids, [...new Set(ids)]);
    const places = OPERATIONS.flatMap((op) => placesOf(op).map(({ profile, place }) => `${profile} ${op.method} ${shape(place.path)}`));
    assert.deepEqual(places, [...new Set(places)], "two operations share a method and path");
  });

  it("is served by each profile that declares a path, by a route that names the operation", () => {
    for (const op of OPERATIONS) {
      for (const { profile, place } of placesOf(op)) {
        const url = `${BASE[profile]}${place.path}`;
        const route = built[profile]!.routes.find((r) => r.method === op.method && shape(r.url) === shape(url));
        assert.ok(route, `${profile} serves ${op.id} (${op.method} ${url})`);
        // The route declares its operation: the API hook (the gateway's on production) takes its scopes from the table.
        assert.equal(route.operation, op.id, `${url} declares the operation ${op.id}`);
      }
    }
  });

  it("has an entry for every API route of either profile, served only where the table says", () => {
    for (const profile of ["specification", "production"] as const) {
      // Only the production profile's /gtm routes are its API (it registers no specification route: see above).
      const own = built[profile]!.routes.filter((r) => API_ROUTE.test(r.url) && (profile === "specification" || r.url.startsWith("/gtm/")));
      for (const route of own) {
        const entry = OPERATIONS.find((op) => op.method === route.method && op[profile] && serves(route, `${BASE[profile]}${op[profile].path}`));
        assert.ok(entry, `${profile}: ${route.method} ${route.url} has an entry in OPERATIONS`);
        assert.equal(route.operation, entry.id, `${profile}: ${route.method} ${route.url} declares its operation`);
      }
    }
  });

  it("registers no specification route on the production profile: its handlers call the operations, and their paths are the gateway's 404", async () => {
    const foreign = built.production!.routes.filter((r) => !r.url.startsWith("/gtm/") && !r.url.startsWith("/__sandbox/"));
    assert.deepEqual(foreign, []);
    assert.ok(built.specification!.routes.some((r) => r.url === "/data/v1/lookup/:fieldName"));
    const { app, ctx } = built.production!;
    const { token } = await mintDevToken(ctx.keys, ctx.options.publicUrl, ctx.apiAudience, {});
    for (const [method, url] of [
      ["GET", "/data/v1/users/usage"],
      ["POST", "/data/v1/companies/search"],
      ["GET", "/v1/audiences"],
      ["GET", "/oauth/.well-known/openid-configuration"],
    ] as const) {
      for (const headers of [{}, { authorization: `Bearer ${token}` }]) {
        const res = await app.inject({
          method,
          url,
          headers: { ...headers, "content-type": "application/json" },
          payload: method === "POST" ? "{not json" : undefined,
        });
        assert.equal(res.statusCode, 404, `${method} ${url}`);
        assert.equal(res.json().error.code, GATEWAY_CODES.notFound, `${method} ${url}: the gateway's 404, before the body is read`);
      }
    }
  });

  it("is refused (403) to a token holding every scope but the operation's, and not to one holding one of them", async () => {
    const everyScope = [...Object.values(SCOPES), "api:audience:read", "api:audience:manage"];
    for (const op of OPERATIONS) {
      for (const { profile, place } of placesOf(op)) {
        if (place.scopes.length === 0) continue;
        const { app, ctx } = built[profile]!;
        const url = `${BASE[profile]}${place.path.replace(/\{[^}/]+\}/g, "1")}`;
        const ask = async (scopes: string[]) => {
          const { token } = await mintDevToken(ctx.keys, ctx.options.publicUrl, ctx.apiAudience, { scopes });
          return app.inject({ method: op.method, url, headers: { authorization: `Bearer ${token}` } });
        };
        const refused = await ask(everyScope.filter((scope) => !place.scopes.includes(scope)));
        assert.equal(refused.statusCode, 403, `${profile} ${op.id} without its scopes`);
        if (profile === "production") assert.equal(refused.json().error.code, GATEWAY_CODES.missingScope, `${op.id}: the gateway's refusal`);
        assert.notEqual((await ask([place.scopes.at(-1)!])).statusCode, 403, `${profile} ${op.id} with ${place.scopes.at(-1)}`);
      }
    }
  });

  it("is refused (403, each profile's shape) to a token holding every role but the operation's, and not to one holding one of them", async () => {
    const withRoles = OPERATIONS.filter((op) => (op.roles ?? []).length > 0);
    assert.ok(withRoles.some((op) => op.id === "intentSearch") && withRoles.some((op) => op.id === "companyInsights"), "signals and insights name their roles");
    for (const op of withRoles) {
      for (const { profile, place } of placesOf(op)) {
        const { app, ctx } = built[profile]!;
        const url = `${BASE[profile]}${place.path.replace(/\{[^}/]+\}/g, "1")}`;
        const ask = async (roles: string[]) => {
          const { token } = await mintDevToken(ctx.keys, ctx.options.publicUrl, ctx.apiAudience, { roles, scopes: [...place.scopes] });
          return app.inject({ method: op.method, url, headers: { authorization: `Bearer ${token}` } });
        };
        const refused = await ask(ALL_ROLES.filter((role) => !op.roles!.includes(role)));
        assert.equal(refused.statusCode, 403, `${profile} ${op.id} without its role`);
        if (profile === "production") assert.equal(refused.json().error.code, GATEWAY_CODES.noAccess, `${op.id}: the gateway's refusal`);
        else assert.match(refused.json().errors[0].detail, new RegExp(op.roles![0]!), `${op.id}: the refusal names the role`);
        assert.notEqual((await ask(["fea:api", op.roles!.at(-1)!])).statusCode, 403, `${profile} ${op.id} with ${op.roles!.at(-1)}`);
      }
    }
  });

  it("gives the relay exactly the operations the client calls, on production's paths and the specification's data paths", () => {
    const relayed = RELAY_OPERATIONS.map((op) => `${op.method} ${shape(op.path)}`);
    const relayedPaths = (op: Operation) =>
      [op.production?.path, op.specification?.path].filter((path): path is string => path !== undefined && /^\/(data|copilot|studio|platform)\//.test(path));
    const expected = OPERATIONS.filter((op) => op.client).flatMap((op) => relayedPaths(op).map((path) => `${op.method} ${shape(path)}`));
    assert.deepEqual([...new Set(relayed)].sort(), [...new Set(expected)].sort());
    for (const op of OPERATIONS.filter((o) => !o.client))
      for (const path of relayedPaths(op)) assert.ok(!relayed.includes(`${op.method} ${shape(path)}`), `${op.id} is not relayed`);
  });
});
