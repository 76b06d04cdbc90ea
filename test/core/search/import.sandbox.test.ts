// Partitioned imports against the real sandbox over HTTP: its SQL decides what a range filter
// matches, so these check that the parts are disjoint and covering there (bounds inclusive, no
// record without a value), and that imports finish under the sandbox's faults.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createServiceClient, type ServiceClient } from "../../../src/core/api/index.js";
import { prepareImport, splitPoint } from "../../../src/core/search/index.js";
import { columnsFor } from "../../../src/core/sheet/index.js";
import { BrowserWorkbook } from "../../../src/office/browserWorkbook.js";
import { insertSearch } from "../../../src/taskpane/insert/insertSearch.js";
import { startTestSandbox, TEST_COMPANIES, TEST_CONTACTS, type TestSandbox } from "../../helpers/sandbox.js";

let sb: TestSandbox;
let client: ServiceClient;

before(async () => {
  sb = await startTestSandbox();
  const token = await sb.token();
  client = createServiceClient({
    baseUrl: sb.url,
    getAccessToken: async () => token,
    rateLimit: { perSecond: 5000 },
    retry: { baseDelayMs: 1, maxDelayMs: 4 },
  });
});
after(async () => {
  await sb.close();
});

const total = async (filters: Record<string, unknown>, kind: "company" | "contact" = "company") =>
  (kind === "company" ? await client.searchCompanies(filters, { size: 1 }) : await client.searchContacts(filters, { size: 1 })).totalResults;

describe("range filters in the sandbox's SQL", () => {
  it("bounds are inclusive: a range of one value finds the records with exactly that value", async () => {
    const one = (await client.searchCompanies({}, { size: 1, sort: "employeeCount" })).items[0]!;
    const employees = Number(String(one.attributes.employeeCount).replace(/\D/g, ""));
    const exact = await total({ employeeRangeMin: String(employees), employeeRangeMax: String(employees) });
    assert.ok(exact >= 1);
    // Records at the bound are in [e, e], not in [e + 1, ...]: the two add up to [e, ...].
    const from = await total({ employeeRangeMin: String(employees) });
    assert.equal(exact + (await total({ employeeRangeMin: String(employees + 1) })), from);
    assert.equal(await total({ employeeRangeMax: String(employees - 1) }), TEST_COMPANIES - from);
  });

  it("[lo, mid] and [mid + 1, hi] split [lo, hi] exactly, at every split point the planner picks", async () => {
    for (const [min, max, key] of [
      ["employeeRangeMin", "employeeRangeMax", "text"],
      ["revenueMin", "revenueMax", "number"],
    ] as const) {
      let hi = 2_147_483_647;
      while (hi > 0) {
        const mid = splitPoint(0, hi);
        const v = (n: number) => (key === "text" ? String(n) : n);
        const whole = await total({ [min]: v(0), [max]: v(hi) });
        const low = await total({ [min]: v(0), [max]: v(mid) });
        const high = await total({ [min]: v(mid + 1), [max]: v(hi) });
        assert.equal(low + high, whole, `${min} split at ${mid}`);
        hi = mid;
      }
      // No company lacks the value: the full range counts every company.
      assert.equal(await total({ [min]: key === "text" ? "0" : 0, [max]: key === "text" ? "2147483647" : 2_147_483_647 }), TEST_COMPANIES);
    }
  });
});

describe("partitioned imports from the sandbox", () => {
  it("plans parts whose ids are disjoint and together every company, in the search's order within each part", async () => {
    const { plan } = await prepareImport(client, { kind: "company", filters: {}, sort: "-revenue" }, { reach: 300 });
    assert.ok(plan.parts.length >= 7);
    const seen = new Set<string>();
    for (const part of plan.parts) {
      const ids: string[] = [];
      for await (const page of client.iterateCompanies(part.filters, { sort: "-revenue" })) ids.push(...page.items.map((c) => c.id));
      assert.equal(ids.length, part.count);
      for (const id of ids) {
        assert.ok(!seen.has(id), `company ${id} in two parts`);
        seen.add(id);
      }
    }
    assert.equal(seen.size, TEST_COMPANIES);
  });

  it("contacts split too, and the import writes each contact once", async () => {
    const workbook = new BrowserWorkbook();
    const outcome = await insertSearch({
      client,
      workbook,
      search: { kind: "contact", filters: {} },
      columns: columnsFor("contact", ["id", "lastName"]),
      target: { kind: "newSheet", sheetName: "Contacts" },
      tableName: "Contacts",
      reach: 1000,
    });
    assert.equal(outcome.status, "complete", outcome.message);
    const ids = workbook.table(outcome.table!.tableName)!.rows.map((r) => r[0]);
    assert.equal(ids.length, TEST_CONTACTS);
    assert.equal(new Set(ids).size, TEST_CONTACTS);
  });

  it("chaos: 20 imports of 20 pages at 20% 503s and 2% dropped connections all complete, no row missing or repeated", async () => {
    await sb.setFaults({ failRate: 0.2, resetRate: 0.02, seed: 1512 });
    // Two attempts a request for a cell; the import's pages are bulk, with the client's bulk attempts.
    const token = await sb.token();
    const impatient = createServiceClient({
      baseUrl: sb.url,
      getAccessToken: async () => token,
      rateLimit: { perSecond: 5000 },
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 4 },
    });
    try {
      const outcomes = [];
      for (let batch = 0; batch < 4; batch++) {
        outcomes.push(
          ...(await Promise.all(
            Array.from({ length: 5 }, async () => {
              const workbook = new BrowserWorkbook();
              const outcome = await insertSearch({
                client: impatient,
                workbook,
                search: { kind: "company", filters: {}, sort: "name" },
                columns: columnsFor("company", ["id", "name"]),
                target: { kind: "newSheet", sheetName: "Chaos" },
                tableName: "Chaos",
              });
              const ids = workbook.table(outcome.table!.tableName)!.rows.map((r) => r[0]);
              return { outcome, ids };
            }),
          )),
        );
      }
      assert.equal(outcomes.length, 20);
      for (const { outcome, ids } of outcomes) {
        assert.equal(outcome.status, "complete", outcome.message);
        assert.equal(ids.length, TEST_COMPANIES);
        assert.equal(new Set(ids).size, TEST_COMPANIES);
      }
    } finally {
      await sb.setFaults({ failRate: 0, resetRate: 0 });
    }
  });
});
