// The client's families and committees against the twin's routes over HTTP, on both profiles
// (test/helpers/accountsTwin.ts): the designed family read from any of its companies, and
// committees fetched at the floor of pages, each person in a department asked, tiers by seniority.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { createServiceClient, type ServiceClient } from "../../../src/core/api/index.js";
import { createCommitteeStore, fetchCommittees, hierarchyAttributes } from "../../../src/core/accounts/index.js";
import { CORPORATE_HIERARCHY_PATH, familyRows, ORG_CHART_PATH } from "../../../src/core/contract/index.js";
import { memoryKeyValueStorage } from "../../../src/core/storage/keyValue.js";
import { DESIGNED_FAMILY } from "../../../src/sandbox/accounts/seed.js";
import { accountsTwinOn, type AccountsTwin } from "../../helpers/accountsTwin.js";
import { useSandbox } from "../../helpers/sandbox.js";

for (const profile of ["specification", "production"] as const) {
  describe(`the client on the twin's families and org charts (${profile} profile)`, () => {
    const sandbox = useSandbox({ companies: 200, contacts: 2000, ...(profile === "production" ? { profile } : {}) });
    let twin: AccountsTwin;
    let client: ServiceClient;
    before(async () => {
      twin = await accountsTwinOn(sandbox, { profile });
      client = createServiceClient({ ...twin.clientOptions, rateLimit: { perSecond: 100_000 } });
    });

    it("reads the designed family from each of its companies, in one request", async () => {
      const ids = [DESIGNED_FAMILY.top, ...DESIGNED_FAMILY.members.map((m) => m.id)];
      const answers = await client.enrichHierarchy(ids.map((companyId) => ({ companyId })));
      assert.equal(twin.count(CORPORATE_HIERARCHY_PATH), 1);
      for (const answer of answers) {
        const attributes = hierarchyAttributes(answer);
        assert.equal(attributes.ultimateParentId, 30, `company ${answer.companyId}`);
        assert.equal(attributes.familySize, familyRows(answer.familyTree[0]!).length);
        assert.equal(attributes.level, answer.parentage.length);
      }
      const deepest = hierarchyAttributes(answers.find((a) => a.companyId === 33)!);
      assert.deepEqual([deepest.parentId, deepest.relationship, deepest.level], [32, "Acquisition", 3]);
    });

    it("fetches committees one request per account at the floor of pages, each person in a department asked", async () => {
      const store = createCommitteeStore(memoryKeyValueStorage(), () => `${profile}|twin`);
      const accounts = [30, 31, 32, 40, 41];
      const departments = ["Sales", "Finance", "C-Suite"];
      const result = await fetchCommittees(client, store, accounts, departments);
      let floor = 0;
      let everyone = 0;
      for (const account of accounts) {
        const outcome = result.outcomes.get(account);
        assert.equal(outcome?.status, "done", `account ${account}`);
        const people = outcome.status === "done" ? outcome.value : [];
        floor += Math.max(1, Math.ceil(people.length / 100));
        everyone += people.length;
        assert.ok(
          people.every((p) => departments.includes(p.department)),
          `account ${account}: ${[...new Set(people.map((p) => p.department))].join(", ")}`,
        );
        const kept = (await Promise.all(departments.map((d) => store.get(account, d)))).reduce((n, c) => n + (c?.people.length ?? 0), 0);
        assert.equal(kept, people.length);
      }
      assert.ok(everyone > 0, "the twin's accounts have people in these departments");
      assert.equal(twin.count(ORG_CHART_PATH), floor);
    });
  });
}
