// A cell asking for something the account's plan lacks answers at once with the error factory's
// "not in your plan" sentence, and sends nothing (the scripted transport counts the requests);
// with no plan (a token without the entitlement scope) the same cell asks the service as before.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { createEnrichmentEngine } from "../../src/core/enrich/index.js";
import { createPlanSource, type PlanSource } from "../../src/core/plan/index.js";
import type { ResearchCells } from "../../src/functions/config.js";
import { harness } from "../core/api/harness.js";
import { answer, type RecordedRequest } from "../core/api/scripted.js";
import { entitlementsDocument, USERS } from "../core/plan/planFixtures.js";
import { cellOutcome, invocation, loadFunctions } from "./fakeCustomFunctions.js";

const fns = await loadFunctions();
afterEach(() => fns.configureFunctions(undefined));

/** The platform API for the basic user (or a 403 without the scope); every other request is refused with a 404. */
const handler = (scope: boolean) => (request: RecordedRequest) => {
  if (request.path === "/platform/v1/entitlements") {
    return scope
      ? answer(200, entitlementsDocument(USERS.basic, request.query.get("filter[roleType]") ?? ""))
      : answer(403, { errors: [{ status: "403", title: "Forbidden" }] });
  }
  return answer(404, { errors: [{ status: "404", title: "Not found" }] });
};

async function cells(scope: boolean) {
  const h = harness(handler(scope));
  const plan: PlanSource = createPlanSource({ client: h.client, user: () => "user-basic" });
  await h.clock.run(plan.refresh());
  const research = { asked: 0 };
  const researchCells: ResearchCells = {
    lookalikesOf: async () => [],
    storedBriefing: async () => {
      research.asked += 1;
      return undefined;
    },
  };
  const engine = createEnrichmentEngine({ client: h.client, windowMs: 0, planRefusal: (kind) => plan.kindRefusal(kind) });
  fns.configureFunctions({ engine, isSignedIn: () => true, research: researchCells, plan });
  return { h, research, sent: () => h.requests.filter((r) => r.path !== "/platform/v1/entitlements" && !r.path.includes("/lookup/")).length };
}

describe("cells and the plan", () => {
  it("an intent cell and a briefing cell outside the plan answer at once and send nothing", async () => {
    const { research, sent } = await cells(true);
    const intent = await cellOutcome(fns.intent(12, "Cloud Security", invocation()));
    assert.deepEqual(intent, { error: "#N/A", message: "Intent signals are not in your account's plan. Ask your administrator to add them" });
    const topics = await cellOutcome(fns.intentTopics("acme.example", "Cloud Security, Email", 2, invocation()));
    assert.equal(topics.error, "#N/A");
    const briefing = await cellOutcome(fns.briefing(12));
    assert.deepEqual(briefing, { error: "#N/A", message: "Briefings are not in your account's plan. Ask your administrator to add them" });
    assert.equal(sent(), 0, "no request for a refused kind");
    assert.equal(research.asked, 0);
  });

  it("without the entitlement scope there is no plan: the same cell asks the service", async () => {
    const { h, sent } = await cells(false);
    const intent = await h.clock.run(cellOutcome(fns.intent(12, "Cloud Security", invocation())));
    assert.equal(intent.error, "#N/A");
    assert.notEqual(intent.message, "Intent signals are not in your account's plan. Ask your administrator to add them");
    assert.ok(sent() >= 1, "the service decided");
  });
});
