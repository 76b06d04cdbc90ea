// The client's plan requests against the vendor's published descriptions (test/fixtures/vendor):
// each entitlements query and each search lookup the plan source sends names exactly the
// operation's query parameters, every required one, with values its schemas take.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createPlanSource, PLAN_ROLE_TYPES } from "../../src/core/plan/index.js";
import { harness } from "../core/api/harness.js";
import { answer } from "../core/api/scripted.js";
import { vendorOperation, vendorSchema, type VendorApi } from "./oracle.js";

/** Why a query is not one the vendor's operation takes (empty: it is). */
function queryErrors(api: VendorApi, operationId: string, query: URLSearchParams): string[] {
  const parameters = vendorOperation(api, operationId).parameters.filter((p) => p.in === "query");
  const errors: string[] = [];
  for (const p of parameters) if (p.required && !query.has(p.name)) errors.push(`${p.name} is required`);
  for (const [name, value] of query) {
    const p = parameters.find((x) => x.name === name);
    if (!p) {
      errors.push(`${name} is not a parameter`);
      continue;
    }
    const ref = typeof p.schema?.$ref === "string" ? p.schema.$ref.split("/").pop()! : undefined;
    const schema = ref ? vendorSchema(api, ref) : (p.schema ?? {});
    if (Array.isArray(schema.enum) && !schema.enum.includes(value)) errors.push(`${name}=${value} is not one of ${schema.enum.join(", ")}`);
    if (schema.type === "boolean" && value !== "true" && value !== "false") errors.push(`${name}=${value} is not a boolean`);
  }
  return errors;
}

describe("the plan's requests and the vendor's descriptions", () => {
  it("every entitlements query and search lookup the plan sends is one the service takes", async () => {
    const h = harness(() => answer(200, { data: [] }));
    const plan = createPlanSource({ client: h.client, user: () => "user-a" });
    await h.clock.run(plan.refresh());
    const entitlements = h.requests.filter((r) => r.path === vendorOperation("platform", "EntitlementsController_getEntitlements").path);
    const lookups = h.requests.filter((r) => r.path === vendorOperation("data", "LookupSearchInterface_lookupSearch").path);
    assert.equal(entitlements.length, PLAN_ROLE_TYPES.length);
    assert.equal(lookups.length, 2);
    for (const r of entitlements) assert.deepEqual(queryErrors("platform", "EntitlementsController_getEntitlements", r.query), [], r.url);
    for (const r of lookups) assert.deepEqual(queryErrors("data", "LookupSearchInterface_lookupSearch", r.query), [], r.url);
    assert.equal(h.requests.length, entitlements.length + lookups.length, "nothing else");
  });
});
