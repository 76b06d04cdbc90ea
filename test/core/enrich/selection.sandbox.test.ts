// "Enrich selection" with the real client and the real sandbox: the plan's figures match what
// the run then costs, requests go in 25s, and a second plan finds everything cached.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServiceClient } from "../../../src/core/api/index.js";
import { createEnrichmentEngine, planSelectionEnrichment, runSelectionEnrichment, STATUS_HEADER } from "../../../src/core/enrich/index.js";
import { useSandbox } from "../../helpers/sandbox.js";

const sandbox = useSandbox();

async function credits(account: string): Promise<number> {
  const summary = (await (await fetch(`${sandbox.url}/__sandbox/accounts/${account}`)).json()) as { credits: number; initialCredits: number };
  return summary.initialCredits - summary.credits;
}

describe("enrich selection against the sandbox", () => {
  it("costs what the plan said, in requests of 25, and is cached afterwards", async () => {
    await sandbox.setAccount("selection", 10_000);
    const token = await sandbox.token({ account: "selection" });
    const client = createServiceClient({ baseUrl: sandbox.url, getAccessToken: async () => token, retry: { baseDelayMs: 5 } });
    const engine = createEnrichmentEngine({ client, windowMs: 2 });
    const page = await client.searchCompanies({}, { size: 100, sort: "name" });
    const ids = page.items.map((item) => Number(item.id));
    // 20 of them were enriched before (under management: free).
    await client.enrichCompanies(
      ids.slice(0, 20).map((companyId) => ({ companyId })),
      ["id"],
    );
    engine.markUnderManagement("company", ids.slice(0, 20));
    const before = await credits("selection");

    const values = ["Company id", ...ids, ids[3]!, 987654321];
    const planned = await planSelectionEnrichment(engine, "company", { address: "Sheet1!A1:A103", values }, ["name", "revenue"]);
    assert.equal(planned.plan.ids.length, 101);
    assert.equal(planned.plan.underManagementCount, 20);
    assert.equal(planned.plan.maxCredits, 81);
    assert.equal(planned.plan.requests, 5);

    sandbox.resetStats();
    const { output } = await runSelectionEnrichment(engine, planned);
    assert.equal(sandbox.requests("POST /data/v1/companies/enrich"), 5);
    const spent = (await credits("selection")) - before;
    assert.equal(spent, 80, "80 new records charged; the unknown id costs nothing");
    assert.ok(spent <= planned.plan.maxCredits);
    const truth = sandbox.ctx.records.companyAttributes(ids, ["name"]);
    assert.equal(output.rows[0]![0], truth.get(ids[0]!)?.name);
    assert.equal(output.headers.at(-1), STATUS_HEADER);
    assert.equal(output.rows.at(-1)!.at(-1), "No company with id 987654321");

    const again = await planSelectionEnrichment(engine, "company", { address: "Sheet1!A1:A103", values }, ["name", "revenue"]);
    assert.equal(again.plan.cachedCount, 101);
    assert.equal(again.plan.requests, 0);
  });

  it("writes the hashtags of a column of company ids, one free request a company, from the kind's declaration alone", async () => {
    const token = await sandbox.token();
    const client = createServiceClient({ baseUrl: sandbox.url, getAccessToken: async () => token, retry: { baseDelayMs: 5 } });
    const engine = createEnrichmentEngine({ client, windowMs: 2 });
    const ids = (
      sandbox.ctx.db.prepare("SELECT DISTINCT company_id FROM company_tags WHERE kind = 'hashtag' ORDER BY company_id LIMIT 8").all() as {
        company_id: number;
      }[]
    ).map((r) => r.company_id);
    const planned = await planSelectionEnrichment(engine, "hashtags", { address: "Sheet1!A1:A9", values: ["Company id", ...ids] }, ["hashtagLabels"]);
    assert.equal(planned.plan.maxCredits, 0, "hashtags spend no credit");
    assert.equal(planned.plan.requests, ids.length);
    sandbox.resetStats();
    const { output } = await runSelectionEnrichment(engine, planned);
    assert.equal(sandbox.requests("POST /data/v1/companies/hashtags/enrich"), ids.length);
    assert.deepEqual(output.headers.slice(0, 1), ["Hashtags"]);
    for (const [i, id] of ids.entries()) {
      const tags = sandbox.ctx.db.prepare("SELECT value FROM company_tags WHERE company_id = ? AND kind = 'hashtag'").all(id) as { value: string }[];
      assert.equal(String(output.rows[i]![0]).split(", ").length, tags.length, `company ${id}: ${String(output.rows[i]![0])}`);
    }
  });
});
