// Audience rows after a job: the failed count and the table written into a sheet.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { Audience, AudienceRow } from "../../../src/core/contract/index.js";
import { ExcelWorkbook } from "../../../src/office/excelWorkbook.js";
import { FakeExcel } from "../../office/excelFake.js";
import { audienceTable, countFailedRows, readAllRows, rowIdsFromCells, checkEnrichmentChoice } from "../../../src/core/jobs/index.js";

const audience: Audience = {
  id: "a",
  type: "Audience",
  attributes: {
    name: "T",
    recordCount: 3,
    type: "COMPANY",
    columns: [
      { id: "in", type: "Column", attributes: { name: "Company ID", dataType: "STRING", columnType: "INPUT" } },
      { id: "name", type: "Column", attributes: { name: "Company name", dataType: "STRING", columnType: "ENRICHMENT" } },
      { id: "rev", type: "Column", attributes: { name: "Revenue ($K)", dataType: "NUMBER", columnType: "ENRICHMENT" } },
    ],
  },
};

function row(
  id: string,
  ref: string,
  name: { value?: unknown; state: string; errorDetails?: { summary: string } },
  rev: { value?: unknown; state: string },
): AudienceRow {
  return {
    id,
    type: "Row",
    attributes: {
      values: [
        { columnId: "in", value: ref, state: "RESULT" },
        { columnId: "name", ...name },
        { columnId: "rev", ...rev },
      ],
    },
  };
}

const rows = [
  row("r1", "1", { value: '=HYPERLINK("http://x")', state: "RESULT" }, { value: 1200, state: "RESULT" }),
  row("r2", "999999", { state: "NO_RESULT", errorDetails: { summary: "No match" } }, { state: "NO_RESULT" }),
  row("r3", "N/A-1", { state: "ERROR", errorDetails: { summary: "Invalid reference" } }, { state: "ERROR" }),
];

describe("audience rows", () => {
  it("counts rows that ended in ERROR or NO_RESULT, among chosen rows when given", () => {
    assert.equal(countFailedRows(rows), 2);
    assert.equal(countFailedRows(rows, ["r1", "r3"]), 1);
  });

  it("makes a table: row id, every column, a status; numbers stay numbers, text stays text", () => {
    const table = audienceTable(audience, rows);
    assert.deepEqual(
      table.columns.map((c) => `${c.header}:${c.type}`),
      ["Row ID:text", "Company ID:text", "Company name:text", "Revenue ($K):number", "Status:text"],
    );
    assert.deepEqual(table.rows[0], ["r1", "1", '=HYPERLINK("http://x")', 1200, "Enriched"]);
    assert.deepEqual(table.rows[1], ["r2", "999999", "", "", "No match: No match"]);
    assert.deepEqual(table.rows[2], ["r3", "N/A-1", "", "", "Error: Invalid reference"]);
  });

  it("numbers keep a number format: whole amounts with thousands separators, fractions with up to two decimals", () => {
    const table = audienceTable(audience, rows);
    assert.equal(table.columns[3]!.numberFormat, "#,##0");
    const fractional = audienceTable(audience, [row("r4", "2", { value: "B", state: "RESULT" }, { value: 12.5, state: "RESULT" })]);
    assert.equal(fractional.columns[3]!.numberFormat, "#,##0.##");
    assert.equal(table.columns[1]!.numberFormat, undefined, "text columns are text");
  });

  it("the audience table's numbers keep their format in Excel", async () => {
    const excel = new FakeExcel();
    const table = audienceTable(audience, rows);
    const writer = await new ExcelWorkbook({ run: excel.run }).createTable({
      target: { kind: "newSheet", sheetName: "T" },
      tableName: "T",
      columns: table.columns,
      expectedRows: rows.length,
    });
    await writer.append(table.rows);
    await writer.finish();
    const sheet = excel.sheet("T");
    assert.equal(sheet.peek(1, 3)?.value, 1200);
    assert.equal(sheet.peek(1, 3)?.format, "#,##0");
    assert.equal(sheet.peek(1, 2)?.format, "@");
  });

  it("reads every page of rows", async () => {
    const pages = [rows.slice(0, 2), rows.slice(2)];
    const asked: number[] = [];
    const client = {
      getAudienceRows: async (_id: string, o?: { page?: number; size?: number }) => {
        asked.push(o?.page ?? 1);
        return { rows: pages[(o?.page ?? 1) - 1] ?? [], totalResults: 3, pageNumber: o?.page ?? 1, totalPages: 2 };
      },
    };
    assert.deepEqual(
      (await readAllRows(client, "a")).map((r) => r.id),
      ["r1", "r2", "r3"],
    );
    assert.deepEqual(asked, [1, 2]);
  });

  it("takes row ids from selected cells: trimmed, non-empty, each once", () => {
    assert.deepEqual(
      rowIdsFromCells([
        [" a ", ""],
        [null, "b"],
        ["a", 7],
      ]),
      ["a", "b", "7"],
    );
  });

  it("checks a choice before it is sent, pointing at the bad row", () => {
    assert.deepEqual(checkEnrichmentChoice({ scope: "AUDIENCE" }), []);
    assert.equal(checkEnrichmentChoice({ scope: "ROW", rows: [] })[0]?.pointer, "/data/attributes/rows");
    assert.equal(checkEnrichmentChoice({ scope: "ROW", rows: ["3f2b1c9e-1234-4abc-9def-0123456789ab", "x"] })[0]?.pointer, "/data/attributes/rows/1");
  });
});
