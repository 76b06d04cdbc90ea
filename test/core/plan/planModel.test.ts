// The plan read from entitlement documents: what it allows, why it refuses (in words), its limits,
// and no plan (not read, or no scope) allowing everything as before.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { allows, kindCapability, planFromEntitlements, planLimits, planRefusal, type Capability } from "../../../src/core/plan/index.js";
import { USERS } from "./planFixtures.js";
import { ENTITLEMENT_SCOPES } from "../../../src/core/contract/index.js";
import { sandboxEnvironment } from "../../../src/core/settings/environment.js";

const basic = planFromEntitlements(USERS.basic, {
  company: [
    { fieldName: "revenueMin", accessGranted: false },
    { fieldName: "industryCodes", accessGranted: true },
  ],
});
const analyst = planFromEntitlements(USERS.analyst);

const EVERY: Capability[] = [
  "company",
  "contact",
  "intent",
  "scoops",
  "news",
  "technologies",
  "briefing",
  "questions",
  "lookalikes",
  "insights",
  "audienceWrites",
  "bulkCredits",
  "aiCredits",
  "filter:company:revenueMin",
];

describe("the plan model", () => {
  it("a basic plan refuses intent, research and insights with the reason in words, and allows the rest", () => {
    const refused = EVERY.filter((c) => !allows(basic, c).allowed);
    assert.deepEqual(refused, ["intent", "briefing", "questions", "insights", "filter:company:revenueMin"]);
    const intent = allows(basic, "intent");
    assert.equal(intent.allowed, false);
    assert.equal(!intent.allowed && intent.reason, "Intent signals are not in your account's plan. Ask your administrator to add them.");
    const filter = allows(basic, "filter:company:revenueMin");
    assert.match(!filter.allowed ? filter.reason : "", /^This filter is not in your account's plan\./);
    assert.equal(allows(basic, "filter:company:industryCodes").allowed, true);
    assert.equal(allows(basic, "filter:contact:revenueMin").allowed, true, "per record kind");
  });

  it("a plan with every role allows everything", () => {
    assert.deepEqual(
      EVERY.filter((c) => !allows(analyst, c).allowed),
      [],
    );
  });

  it("no plan (not read yet, or the token may not read entitlements) allows everything", () => {
    assert.deepEqual(
      EVERY.filter((c) => !allows(undefined, c).allowed),
      [],
    );
    assert.equal(planRefusal(undefined, "intent"), undefined);
  });

  it("a plan without data roles refuses records; a limit of 0 refuses, an unlisted credit limit does not", () => {
    const plan = planFromEntitlements([
      { roleCode: "lim:wkb", roleName: "Audiences", roleType: "limit", value: "0" },
      { roleCode: "lim:ai", roleName: "AI", roleType: "limit", value: "0" },
    ]);
    assert.equal(allows(plan, "company").allowed, false);
    assert.equal(allows(plan, "audienceWrites").allowed, false);
    assert.equal(allows(plan, "aiCredits").allowed, false);
    assert.equal(allows(plan, "bulkCredits").allowed, true, "the service need not list the credit limit");
  });

  it("signal kinds are judged by their role codes only in a plan that lists one (the service does not publish them)", () => {
    // A plan in the published codes only, as the real service's may be: no signal kind is refused up front.
    const published = planFromEntitlements([
      { roleCode: "fea:api", roleName: "API", roleType: "feature", value: "Y" },
      { roleCode: "fea:asu", roleName: "Account summary", roleType: "feature", value: "Y" },
    ]);
    assert.deepEqual(
      (["intent", "scoops", "news", "technologies"] as const).filter((c) => !allows(published, c).allowed),
      [],
    );
    // A plan that speaks the codes (the twin's): the one it lacks is refused.
    const speaking = planFromEntitlements([
      { roleCode: "fea:api", roleName: "API", roleType: "feature", value: "Y" },
      { roleCode: "sig:news", roleName: "News", roleType: "signal", value: "Y" },
    ]);
    assert.deepEqual(
      (["intent", "scoops", "news", "technologies"] as const).filter((c) => !allows(speaking, c).allowed),
      ["intent", "scoops", "technologies"],
    );
  });

  it("the refusal for a cell is the error factory's, one sentence per place", () => {
    const refusal = planRefusal(basic, "briefing");
    assert.equal(refusal?.reason, "notInPlan");
    assert.equal(refusal?.short, "Briefings are not in your account's plan. Ask your administrator to add them");
    assert.equal(refusal?.code, "#N/A");
    assert.equal(planRefusal(basic, "scoops"), undefined);
  });

  it("names the capability each enrichment kind needs; a kind it does not govern is not refused", () => {
    assert.deepEqual(["company", "contact", "hashtags", "intent", "scoops", "news", "technologies", "insights", "hierarchy"].map(kindCapability), [
      "company",
      "contact",
      "company",
      "intent",
      "scoops",
      "news",
      "technologies",
      "insights",
      undefined,
    ]);
  });

  it("lists the plan's limits that are numbers", () => {
    assert.deepEqual(planLimits(basic), { bulkCredits: 10000, aiCredits: 500, audiences: 25 });
    assert.deepEqual(planLimits(undefined), {});
  });
});

describe("signing in to the sandbox", () => {
  it("asks the scope that reads the plan, besides the data scopes", () => {
    assert.ok(sandboxEnvironment().signIn.scopes.includes(ENTITLEMENT_SCOPES[0]));
  });
});
