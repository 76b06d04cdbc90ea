// A list rolled up by corporate family (core/accounts/rollUp.ts): rows grouped by their ultimate
// parent, counted and summed over the columns picked, the rows with no family found last.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { familySummaries, familySummaryTable, NO_FAMILY } from "../../../src/core/accounts/index.js";

describe("rolling a list up by family", () => {
  const rows = [
    { ultimateParentId: 101, ultimateParentName: "ACME", values: [1000, "2"] },
    { ultimateParentId: "101", ultimateParentName: "ACME", values: ["1,500", 3] },
    { ultimateParentId: 7, ultimateParentName: "Beta", values: [250, "n/a"] },
    { ultimateParentId: "", ultimateParentName: "", values: [40, 1] },
    { ultimateParentId: 101, ultimateParentName: "ACME", values: [null, 5] },
  ];

  it("counts and sums each family, most rows first, the rows with no family last", () => {
    const summaries = familySummaries(rows, 2);
    assert.deepEqual(
      summaries.map((s) => [s.ultimateParentId, s.ultimateParentName, s.rows, s.sums]),
      [
        [101, "ACME", 3, [2500, 10]],
        [7, "Beta", 1, [250, 0]],
        [undefined, NO_FAMILY, 1, [40, 1]],
      ],
    );
  });

  it("lays the summary out as a table with a header per summed column", () => {
    const table = familySummaryTable(familySummaries(rows, 2), ["Amount", "Seats"]);
    assert.deepEqual(table.headers, ["Ultimate parent id", "Ultimate parent", "Rows", "Sum of Amount", "Sum of Seats"]);
    assert.deepEqual(table.rows[2], ["", NO_FAMILY, 1, 40, 1]);
  });
});
