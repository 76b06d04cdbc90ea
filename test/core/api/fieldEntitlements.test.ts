// What the account may enrich: learnt from answers that refuse a field, hinted by the
// output-field lookup, which goes through the client like every request.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createFieldEntitlements } from "../../../src/core/api/index.js";
import { harness } from "./harness.js";
import { answer, TOKEN } from "./scripted.js";

const item = (fieldName: string, accessGranted?: boolean) => ({
  id: fieldName,
  type: "CompanyEnrichOutput",
  attributes: { fieldName, fieldType: "output", ...(accessGranted === undefined ? {} : { accessGranted }) },
});

describe("field entitlements", () => {
  it("knows nothing refused while the lookup lists every field; an answer's refusal is remembered until another user signs in", async () => {
    const entitlements = createFieldEntitlements(async () => [item("name"), item("revenue")]);
    assert.equal(await entitlements.entitled("company"), undefined, "the list is not the entitlement");
    entitlements.learn("company", ["revenue"]);
    const known = await entitlements.entitled("company");
    assert.ok(known && !known.has("revenue") && known.has("name") && known.has("website"), "every other field stays");
    assert.equal(await entitlements.entitled("contact"), undefined, "per entity");
    entitlements.clear();
    assert.equal(await entitlements.entitled("company"), undefined);
  });

  it("takes accessGranted: false in the lookup as a hint not to ask", async () => {
    const entitlements = createFieldEntitlements(async () => [item("name", true), item("phone", false)]);
    const known = await entitlements.entitled("company");
    assert.ok(known && !known.has("phone") && known.has("name"));
  });

  it("asks the lookup once per entity, and again after a failure", async () => {
    let calls = 0;
    let fail = true;
    const entitlements = createFieldEntitlements(async () => {
      calls += 1;
      if (fail) throw new Error("offline");
      return [item("fax", false)];
    });
    assert.equal(await entitlements.entitled("company"), undefined);
    fail = false;
    assert.ok(!(await entitlements.entitled("company"))?.has("fax"));
    await entitlements.entitled("company");
    assert.equal(calls, 2);
  });

  it("the lookup is a client request: its sign-in renewal, retry and hooks apply", async () => {
    const seen: string[] = [];
    const h = harness((request, index) => {
      seen.push(`${request.method} ${request.path}?${request.query.toString()} ${request.headers.authorization ?? ""}`);
      if (index === 0) return answer(401, { error: { code: "ZI0001", message: "expired" } });
      return answer(200, { data: [item("revenue", false)] });
    });
    const entitlements = createFieldEntitlements((kind) => h.client.outputFields(kind));
    const known = await h.clock.run(entitlements.entitled("company"));
    assert.ok(known && !known.has("revenue"));
    assert.equal(seen.length, 2, "refused once, renewed, asked again");
    assert.match(seen[0]!, /^GET \/data\/v1\/lookup\/enrich\?filter%5Bentity%5D=company&filter%5BfieldType%5D=output Bearer /);
    assert.ok(seen[1]!.endsWith(`Bearer ${TOKEN}-refreshed`));
  });
});
