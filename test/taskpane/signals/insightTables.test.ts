// The morning list's refresh in place (taskpane/signals/insightTables.ts) on the browser workbook:
// the first table marks nothing; the next day's refresh asks the accounts again (not from the
// cache), marks New exactly the insights not seen before, keeps the user's own column on the same
// insights (by signal id), and the list then remembers what it has seen.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MemoryCacheStore } from "../../../src/core/enrich/index.js";
import { createInsights, INSIGHT_COLUMNS } from "../../../src/core/insights/index.js";
import { BrowserWorkbook } from "../../../src/office/browserWorkbook.js";
import { insightOutcomeText, morningList, refreshMorningList, writeInsightTable } from "../../../src/taskpane/signals/insightTables.js";
import { InsightsClient } from "../../core/insights/fakeInsightsClient.js";

const DAY_MS = 24 * 60 * 60 * 1000;
const ask = async () => true;

describe("the morning list", () => {
  it("is refreshed in place the next day: new insights marked, the user's notes kept on their insights", async () => {
    const client = new InsightsClient();
    client.renewals = true;
    const store = new MemoryCacheStore();
    const insights = createInsights({ client, cache: () => store, now: () => client.today });
    const workbook = new BrowserWorkbook();
    const accounts = ["1", "2"];
    const first = await insights.forCompanies({ companies: accounts, types: [] });
    const table = await writeInsightTable(workbook, { kind: "newSheet" }, first, undefined, ask);
    const column = (name: string) => INSIGHT_COLUMNS.findIndex((c) => c.header === name);
    const shown = () => workbook.table(table.tableName)!.rows;
    assert.equal(shown().length, 6);
    assert.ok(shown().every((row) => row[column("New")] === ""));
    // The user writes a note beside each insight, in a column of their own.
    workbook.setColumns(
      table.tableName,
      INSIGHT_COLUMNS.length,
      ["Notes"],
      shown().map((row) => [`note on ${String(row[column("Signal id")])}`]),
    );
    const saved = { ...morningList(accounts, [], table.tableName, first), id: "list", savedAt: "" };

    client.today += DAY_MS;
    const refreshed = await refreshMorningList(insights, workbook, saved, {}, ask);
    assert.equal(client.insightCalls.length, 2, "a refresh asks again, whatever the cache holds");
    const rows = shown();
    const marked = rows.filter((row) => row[column("New")] === "New").map((row) => String(row[column("Signal id")]));
    assert.deepEqual(marked.sort(), ["cxo-1-2026-11-29", "cxo-2-2026-11-29", "funding-1-2026-11-29", "funding-2-2026-11-29"]);
    assert.equal(refreshed.fresh, 4);
    const notes = new Map(rows.map((row) => [String(row[column("Signal id")]), row[INSIGHT_COLUMNS.length]]));
    assert.equal(notes.get("renewal-1"), "note on renewal-1");
    assert.equal(notes.get("renewal-2"), "note on renewal-2");
    assert.equal(notes.get("funding-1-2026-11-29"), "");
    assert.deepEqual(refreshed.insights.seen.sort(), [...marked, "renewal-1", "renewal-2"].sort());
    assert.match(
      insightOutcomeText(refreshed.result, refreshed.table, refreshed.fresh),
      /^6 insights for 2 companies, in table Insights on sheet Insights\. 4 are new since the last refresh\.$/,
    );
  });
});
