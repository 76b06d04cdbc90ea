// The plan read from the twin on both profiles (production through its transport edge, under
// /gtm): the basic plan (no intent, no research, no insights) is read as such from the service's
// own answers, every role's plan allows everything, and a token without the scope is no plan.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createServiceClient, fetchTransport } from "../../../src/core/api/index.js";
import { productionTransport } from "../../../src/core/api/production/index.js";
import { ROLES, SCOPES } from "../../../src/core/contract/index.js";
import { createPlanSource, planLimits, type Capability } from "../../../src/core/plan/index.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";

const BASIC = [ROLES.dataApi, ROLES.scoops, ROLES.news, ROLES.technologies, ROLES.audiences, ROLES.bulkCredits, ROLES.aiCredits];
const CHECKED: Capability[] = ["company", "contact", "intent", "scoops", "news", "technologies", "briefing", "questions", "insights", "audienceWrites"];

for (const profile of ["specification", "production"] as const) {
  describe(`the plan from the twin (${profile})`, () => {
    let sandbox: TestSandbox;
    before(async () => {
      sandbox = await startTestSandbox({ ...(profile === "production" ? { profile } : {}), companies: 50, contacts: 50, rateLimit: { perSecond: 10_000 } });
    });
    after(async () => {
      await sandbox.close();
    });

    async function planFor(claims: Parameters<TestSandbox["token"]>[0]) {
      const token = await sandbox.token(claims);
      const production = profile === "production";
      const client = createServiceClient({
        baseUrl: production ? `${sandbox.url}/gtm` : sandbox.url,
        getAccessToken: async () => token,
        rateLimit: { perSecond: 1000 },
        ...(production ? { fetch: productionTransport(fetchTransport()) } : {}),
      });
      const plan = createPlanSource({ client, user: () => "user" });
      await plan.refresh();
      return plan;
    }

    it("reads the basic plan: intent, research and insights refused, the rest allowed, the limits as numbers", async () => {
      const plan = await planFor({ roles: BASIC });
      assert.ok(plan.current(), "a plan was read");
      assert.deepEqual(
        CHECKED.filter((c) => !plan.allows(c).allowed),
        ["intent", "briefing", "questions", "insights"],
      );
      const limits = planLimits(plan.current());
      assert.ok((limits.bulkCredits ?? 0) > 0 && (limits.audiences ?? 0) > 0, JSON.stringify(limits));
    });

    it("every role: everything allowed; without the scope: no plan", async () => {
      const all = await planFor({});
      assert.deepEqual(
        CHECKED.filter((c) => !all.allows(c).allowed),
        [],
      );
      const unscoped = await planFor({ scopes: [SCOPES.company, SCOPES.contact], roles: BASIC });
      assert.equal(unscoped.current(), undefined);
      assert.equal(unscoped.allows("intent").allowed, true);
    });
  });
}
