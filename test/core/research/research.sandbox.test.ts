// Research for many companies on the real client against the real sandbox over HTTP, both
// profiles: lookalikes of several seeds in one request per seed, merged; recommended contacts in
// one request per account; briefings paid once (the account's AI usage moves by one per company,
// never again), and a refusal when the daily AI limit is used up, before anything is sent.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServiceClient, fetchTransport, type ServiceClient } from "../../../src/core/api/index.js";
import { productionTransport } from "../../../src/core/api/production/index.js";
import { AiLimitError, createResearch } from "../../../src/core/research/index.js";
import { memoryKeyValueStorage } from "../../../src/core/storage/keyValue.js";
import { useSandbox, type TestSandbox } from "../../helpers/sandbox.js";

async function clientOf(sandbox: TestSandbox, production: boolean): Promise<ServiceClient> {
  const token = await sandbox.token();
  return createServiceClient({
    baseUrl: production ? `${sandbox.url}/gtm` : sandbox.url,
    getAccessToken: async () => token,
    rateLimit: { perSecond: 1000 },
    ...(production ? { profile: "production" as const, fetch: productionTransport(fetchTransport()) } : {}),
  });
}

/** Today's AI count is kept per UTC day: one fixed instant, so the count cannot start again at midnight mid-test. */
const clock = { now: () => Date.UTC(2030, 0, 1, 12) };

const routesMatching = (sandbox: TestSandbox, pattern: RegExp) =>
  [...sandbox.ctx.stats.requests].filter(([route]) => pattern.test(route)).reduce((n, [, c]) => n + c, 0);

for (const profile of ["default", "production"] as const) {
  describe(`research for many companies, ${profile} profile`, () => {
    const sandbox = useSandbox({ profile, companies: 400, contacts: 1500 });

    it("lookalikes: one request per seed, merged without the seeds; recommendations: one per account; a second run sends nothing", async () => {
      const client = await clientOf(sandbox, profile === "production");
      const research = createResearch({ client, storage: memoryKeyValueStorage(), scope: () => profile });
      const seeds = ["1", "2", "3", "4", "5"];
      sandbox.resetStats();
      const result = await research.lookalikes({ seeds, exclude: ["6"], limit: 60, perSeed: 20 });
      assert.equal(routesMatching(sandbox, /lookalikes/), 5);
      assert.equal(result.failures.length, 0);
      assert.ok(result.companies.length > 20 && result.companies.length <= 60);
      const ids = result.companies.map((c) => c.companyId);
      assert.equal(new Set(ids).size, ids.length);
      assert.ok(!ids.some((id) => seeds.includes(id) || id === "6"));
      assert.ok(result.companies.every((c) => c.seeds.length > 0 && c.seeds.every((s) => seeds.includes(s))));
      // Each company's score is the best any seed gave it.
      for (const seed of seeds) {
        for (const one of await client.companyLookalikes({ companyId: seed, size: 20 })) {
          const merged = result.companies.find((c) => c.companyId === one.companyId);
          if (merged) assert.ok(merged.score >= one.score && (merged.score > one.score || merged.seeds.includes(seed)));
        }
      }
      const recommended = await research.recommendations({ accounts: ["7", "8"], useCase: "PROSPECTING", size: 3 });
      assert.ok(recommended.contacts.length > 0);
      assert.deepEqual([...new Set(recommended.contacts.map((c) => c.accountId))].sort(), ["7", "8"]);
      sandbox.resetStats();
      await research.lookalikes({ seeds, exclude: ["6"], limit: 60, perSeed: 20 });
      await research.recommendations({ accounts: ["8", "7"], useCase: "PROSPECTING", size: 3 });
      assert.equal(sandbox.ctx.stats.requests.size, 0, "a second run sends nothing");
    });

    it("briefings cost one AI action credit each, once; the daily AI limit refuses before sending", async () => {
      const client = await clientOf(sandbox, profile === "production");
      const storage = memoryKeyValueStorage();
      const research = createResearch({ client, storage, scope: () => profile, dailyAiCap: 3, clock });
      const used = async () => (await client.usage()).aiActions!.used;
      const before = await used();
      const estimate = await research.estimateBriefings(["10", "11"]);
      assert.match(estimate.summary, new RegExp(`^2 briefings: 2 AI action credits; you have ${estimate.balance!.remaining}\\.$`));
      const run = await research.briefings(["10", "11"]);
      assert.equal(run.fetched, 2);
      assert.ok(run.briefings.every((b) => b.markdown.length > 40));
      assert.equal(await used(), before + 2);
      const again = await createResearch({ client, storage, scope: () => profile, dailyAiCap: 3, clock }).briefings(["11", "10"]);
      assert.equal(again.reused, 2);
      assert.equal(await used(), before + 2, "never paid twice");
      assert.match(await research.ask("10", "What does it sell?"), /\S/);
      assert.equal(await used(), before + 3);
      sandbox.resetStats();
      await assert.rejects(research.ask("10", "Who are its customers?"), AiLimitError);
      assert.equal(routesMatching(sandbox, /research|account-summary/), 0, "refused before sending");
      assert.equal(await used(), before + 3);
    });
  });
}
