// How Research reads the companies it is given: typed or selected ids, websites and names, the
// header cell skipped, blanks and repeats dropped, what names no company said; the companies
// already in the page's tables (left out of lookalikes); and a lookalike table written through
// the workbook adapter with its ids as numbers.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { BrowserWorkbook } from "../../src/office/browserWorkbook.js";
import { browserSelectionSource } from "../../src/office/browserSelection.js";
import { COMPANY_SEARCH_COLUMNS } from "../../src/core/sheet/index.js";
import { lookalikeRows, LOOKALIKE_COLUMNS } from "../../src/core/research/index.js";
import { companyInputs, matchingText, selectedCompanies } from "../../src/taskpane/research/companyInputs.js";
import { browserCompanyIdsInTables as companyIdsInTables } from "../../src/office/companyIdsInTables.js";
import { insertResearchTable } from "../../src/taskpane/research/researchParts.js";

async function companiesTable(workbook: BrowserWorkbook, rows: (string | number)[][]) {
  const columns = COMPANY_SEARCH_COLUMNS.filter((c) => ["id", "name", "website"].includes(c.key));
  const writer = await workbook.createTable({
    target: { kind: "newSheet", sheetName: "Companies" },
    tableName: "Companies",
    columns,
    expectedRows: rows.length,
  });
  await writer.append(rows);
  await writer.finish();
}

describe("Research inputs", () => {
  it("sorts cells into ids, websites and names to match, and what names no company", () => {
    assert.deepEqual(companyInputs([" 42 ", 42, "acme.com", "https://www.globex.example/about", "Initech", "", null, -3, "acme.com"]), {
      ids: ["42"],
      toMatch: ["acme.com", "https://www.globex.example/about", "Initech"],
      invalid: ["-3"],
    });
  });

  it("says what matching websites and names costs before it starts, in whole words", () => {
    assert.equal(matchingText(0, 0), "");
    assert.equal(matchingText(1, 1), " Finding 1 company by website or name first: up to 1 credit.");
    assert.equal(matchingText(3, 0, "website"), " Finding 3 companies by website first: no credits.");
    assert.equal(matchingText(2, 2, "website or name", ["account", "accounts"]), " Finding 2 accounts by website or name first: up to 2 credits.");
  });

  it("reads the picked column of a table, its header skipped, and finds the company ids already on the page", async () => {
    const workbook = new BrowserWorkbook();
    await companiesTable(workbook, [
      [11, "Acme", "acme.com"],
      [12, "Globex", "globex.example"],
    ]);
    const source = browserSelectionSource(workbook);
    assert.deepEqual(await selectedCompanies(source), { ok: false, message: "Pick the column of ids first: click its header in a table below." });
    workbook.selectColumn("Companies", 0);
    assert.deepEqual(await selectedCompanies(source), { ok: true, inputs: { ids: ["11", "12"], toMatch: [], invalid: [] } });
    workbook.selectColumn("Companies", 2);
    const websites = await selectedCompanies(source);
    assert.ok(websites.ok && websites.inputs.toMatch.length === 2);
    assert.deepEqual(companyIdsInTables(workbook), ["11", "12"]);

    const table = await insertResearchTable({
      workbook,
      sheetName: "Lookalikes",
      tableName: "Lookalikes",
      columns: LOOKALIKE_COLUMNS,
      rows: lookalikeRows(
        [{ companyId: "77", companyName: "Umbrella", score: 0.9, rank: 1, seeds: ["11"], industry: "", revenueRange: "", employeeRange: "", country: "" }],
        LOOKALIKE_COLUMNS,
      ),
      ask: async () => false,
    });
    assert.equal(table.rowsWritten, 1);
    assert.deepEqual(companyIdsInTables(workbook), ["11", "12", "77"], "a lookalike table's companies count as in the sheet too");
  });
});
