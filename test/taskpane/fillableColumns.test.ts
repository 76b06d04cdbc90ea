// The audience job form offers only the columns a job fills: not the sheet's own columns or its
// row key (CUSTOM), not the record id (INPUT), not the match column (always filled).
import assert from "node:assert/strict";
import { test } from "node:test";
import { fillableColumns } from "../../src/taskpane/jobs/fillableColumns.js";

const column = (id: string, name: string, columnType: string) => ({ id, type: "Column", attributes: { name, dataType: "TEXT", columnType } });

test("the columns to fill are the service's, never the sheet's own or its row key", () => {
  const columns = [
    column("1", "Company id", "INPUT"),
    column("2", "Website", "CUSTOM"),
    column("3", "Sheet row key", "CUSTOM"),
    column("4", "Match", "MATCH"),
    column("5", "ZoomInfo match", "ZOOMINFO_MATCH"),
    column("6", "Revenue", "ENRICHMENT"),
    column("7", "Employees", "ZOOMINFO_COMPANY"),
    column("8", "AI summary", "AI"),
    column("9", "Sheet row key", "ENRICHMENT"),
  ];
  assert.deepEqual(
    fillableColumns(columns as never).map((c) => c.attributes.name),
    ["Revenue", "Employees", "AI summary"],
  );
});
