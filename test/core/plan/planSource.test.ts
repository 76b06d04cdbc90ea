// The plan read through the client: one request set a refresh (the role types and the search
// lookups, in parallel), shared by concurrent callers, kept per user in memory and in the store
// (never a token); a 403 on the entitlements is no plan (everything allowed), a failed read keeps the last.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { memoryKeyValueStorage } from "../../../src/core/storage/keyValue.js";
import { createPlanSource, PLAN_ROLE_TYPES } from "../../../src/core/plan/index.js";
import { harness, rejection } from "../api/harness.js";
import { answer, TOKEN, type RecordedRequest } from "../api/scripted.js";
import { entitlementsDocument, searchFieldsDocument, USERS } from "./planFixtures.js";

/** A service answering as the platform and data APIs do for `rows`; `refuse` answers the entitlements 403. */
function service(rows: (typeof USERS)["basic"], state: { refuse?: boolean; down?: boolean } = {}) {
  return (request: RecordedRequest) => {
    if (state.down) return answer(503, { errors: [{ status: "503", title: "Unavailable" }] });
    if (request.path === "/platform/v1/entitlements") {
      if (state.refuse)
        return answer(403, { errors: [{ status: "403", code: "PFAPI0004", title: "Forbidden", detail: "Missing scope api:entitlement:read" }] });
      return answer(200, entitlementsDocument(rows, request.query.get("filter[roleType]") ?? ""));
    }
    if (request.path === "/data/v1/lookup/search")
      return answer(200, searchFieldsDocument(request.query.get("filter[entity]")!, ["revenueMin", "industryCodes"], ["revenueMin"]));
    return answer(404, { errors: [{ status: "404", title: "Not found" }] });
  };
}

describe("the plan source", () => {
  it("reads each role type and both search lookups once per refresh, shared by concurrent callers", async () => {
    const h = harness(service(USERS.basic));
    const plan = createPlanSource({ client: h.client, user: () => "user-a" });
    assert.equal(plan.allows("intent").allowed, true, "not read yet: everything allowed");
    await h.clock.run(Promise.all([plan.refresh(), plan.refresh()]));
    const asked = h.requests.map((r) => `${r.path}?${r.query.toString()}`).sort();
    assert.deepEqual(asked, [
      "/data/v1/lookup/search?filter%5Bentity%5D=company&filter%5BfieldType%5D=input",
      "/data/v1/lookup/search?filter%5Bentity%5D=contact&filter%5BfieldType%5D=input",
      ...PLAN_ROLE_TYPES.map((t) => `/platform/v1/entitlements?filter%5Badmin%5D=false&filter%5BroleType%5D=${t}`).sort(),
    ]);
    assert.equal(plan.allows("intent").allowed, false);
    assert.equal(plan.allows("filter:contact:revenueMin").allowed, false);
    assert.equal(plan.allows("scoops").allowed, true);
  });

  it("a 403 on the entitlements (no scope) is no plan: everything allowed, as before", async () => {
    const h = harness(service(USERS.basic, { refuse: true }));
    const plan = createPlanSource({ client: h.client, user: () => "user-a" });
    await h.clock.run(plan.refresh());
    assert.equal(plan.current(), undefined);
    assert.equal(plan.allows("intent").allowed, true);
  });

  it("a failed read keeps the last plan; the plan is per user and kept in the store without a token", async () => {
    const state = { down: false };
    const h = harness(service(USERS.basic, state));
    const store = memoryKeyValueStorage();
    let user: string | undefined = "user-a";
    const plan = createPlanSource({ client: h.client, store, user: () => user });
    let told = 0;
    plan.subscribe(() => (told += 1));
    await h.clock.run(plan.refresh());
    state.down = true;
    await h.clock.run(plan.refresh());
    assert.equal(plan.allows("briefing").allowed, false, "kept after a failed read");
    assert.ok(told >= 1, "listeners hear of the plan");
    user = "user-b";
    assert.equal(plan.allows("briefing").allowed, true, "another user's plan is not known yet");
    const saved = [...(await store.getKeys())];
    assert.deepEqual(saved, ["plan|user-a"]);
    assert.ok(!(await store.getItem("plan|user-a"))!.includes(TOKEN));
    // A new page (a new source) shows the stored plan before any request.
    user = "user-a";
    const later = createPlanSource({ client: h.client, store, user: () => user });
    const before = h.requests.length;
    await h.clock.run(later.userChanged());
    assert.equal(later.allows("briefing").allowed, false);
    assert.ok(h.requests.length > before, "and reads it again");
  });

  it("refuses a role type the contract does not know before sending", async () => {
    const h = harness(service(USERS.basic));
    const error = (await rejection(h.client.getEntitlements("nonsense" as "feature"))) as { kind?: string };
    assert.equal(error.kind, "validation");
    assert.equal(h.requests.length, 0);
  });
});
