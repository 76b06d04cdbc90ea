// The Accounts tab's family summary from the user's own table: the table read around the selected
// cell (a column with no header ends it), the ultimate parent's columns found by the headers
// Enrich selection gives them, the number columns offered to sum, and a row per family with the
// rows whose company has no family last.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { SelectionSource } from "../../../src/core/enrich/index.js";
import { familyColumns, familySummaryRows, numericColumns, readTableAround } from "../../../src/taskpane/accounts/familyTable.js";

const TABLE = [
  ["Lead", "Website", "Deal size", "Seats", "Ultimate parent id", "Ultimate parent", "Relationship to parent"],
  ["Ann", "a.com", 100, "3", 30, "Top Corp", "Subsidiary"],
  [42, "b.com", "1,200", "x", 30, "Top Corp", "Division"],
  ["Cy", "c.com", 50, "2", 7, "Seven Inc", ""],
  ["Di", "d.com", 5, "", "", "", ""],
];

/** The table as a selection source: `selected` is the selected column; beside it, one empty column on each side. */
function sourceOf(selected: number): SelectionSource & { reads: number[] } {
  const column = (c: number) => (c < 0 || c >= TABLE[0]!.length ? ["", "", "", "", ""] : TABLE.map((row) => row[c]));
  const reads: number[] = [];
  return {
    reads,
    readIds: async () => ({ ok: true, selection: { address: "Sheet1!E1:E5", values: column(selected) } }),
    readColumnBeside: async (_address, offset) => {
      reads.push(offset);
      return column(selected + offset);
    },
    writeColumns: async () => {
      throw new Error("not written");
    },
  };
}

describe("account family summary", () => {
  it("reads the whole table around the selected cell and finds the family columns and the number columns", async () => {
    const source = sourceOf(4);
    const read = await readTableAround(source);
    assert.ok(read.ok);
    assert.deepEqual(
      read.columns.map((c) => c.header),
      TABLE[0],
    );
    assert.deepEqual(source.reads, [-1, -2, -3, -4, -5, 1, 2, 3]);
    const family = familyColumns(read.columns);
    assert.deepEqual(family, { id: 4, name: 5 });
    assert.deepEqual(numericColumns(read.columns, [4, 5]), [2, 3]);
  });

  it("sums the picked columns per family, most rows first, the rows with no family last", async () => {
    const read = await readTableAround(sourceOf(0));
    assert.ok(read.ok);
    const summary = familySummaryRows(read.columns, familyColumns(read.columns)!, [2]);
    assert.deepEqual(
      summary.columns.map((c) => c.header),
      ["Ultimate parent id", "Ultimate parent", "Rows", "Sum of Deal size"],
    );
    assert.deepEqual(summary.rows, [
      [30, "Top Corp", 2, 1300],
      [7, "Seven Inc", 1, 50],
      ["", "No family found", 1, 5],
    ]);
    assert.equal(summary.columns[1]?.type, "text");
  });

  it("finds no family without the ultimate parent id column", () => {
    assert.equal(familyColumns([{ header: "Website", values: ["a.com"] }]), undefined);
  });
});
