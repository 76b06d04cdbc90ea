import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  columnIndex,
  columnLetter,
  firstColumnOf,
  firstRowOf,
  formatAddress,
  parseAddress,
  readAddress,
  sheetNameOf,
  shiftColumns,
} from "../../../src/core/sheet/index.js";

describe("A1 addresses", () => {
  it("reads column letters both ways, past Z", () => {
    assert.deepEqual(["A", "Z", "AA", "AZ", "BA", "ZZ", "AAA"].map(columnIndex), [0, 25, 26, 51, 52, 701, 702]);
    assert.deepEqual([0, 25, 26, 51, 52, 701, 702].map(columnLetter), ["A", "Z", "AA", "AZ", "BA", "ZZ", "AAA"]);
    assert.equal(columnIndex("ab"), 27);
  });

  it("reads a range with $ signs and a plain sheet name", () => {
    assert.deepEqual(parseAddress("Sheet1!$B$2:$D$9"), { sheet: "Sheet1", row: 1, col: 1, rows: 8, cols: 3 });
    assert.deepEqual(parseAddress("Sheet1!AA10"), { sheet: "Sheet1", row: 9, col: 26, rows: 1, cols: 1 });
    assert.deepEqual(parseAddress("Sheet1!b$2:C3"), { sheet: "Sheet1", row: 1, col: 1, rows: 2, cols: 2 });
  });

  it("unquotes sheet names with spaces, quotes and an exclamation mark", () => {
    assert.deepEqual(parseAddress("'My leads'!B2:D9"), { sheet: "My leads", row: 1, col: 1, rows: 8, cols: 3 });
    assert.deepEqual(parseAddress("'Q3 ''leads'''!$C$5:$C$9"), { sheet: "Q3 'leads'", row: 4, col: 2, rows: 5, cols: 1 });
    assert.equal(parseAddress("'Hot! leads'!A1").sheet, "Hot! leads");
    assert.equal(sheetNameOf("'Bob''s list'!A1"), "Bob's list");
    assert.equal(sheetNameOf("A1"), undefined);
  });

  it("refuses what is not a worksheet range, naming which", () => {
    assert.throws(() => parseAddress("B2:C3"), /Not a worksheet address/);
    assert.throws(() => parseAddress("Sheet1!B:B"), /Not a cell range/);
    assert.throws(() => parseAddress("Sheet1!B2:C"), /Not a cell range/);
    assert.equal(readAddress("Sheet1!R1C1"), undefined);
    assert.equal(readAddress("no address"), undefined);
  });

  it("writes addresses Excel reads back, quoting names that need it", () => {
    const area = { sheet: "Q3 'leads'", row: 4, col: 26, rows: 5, cols: 2 };
    assert.equal(formatAddress(area), "'Q3 ''leads'''!AA5:AB9");
    assert.deepEqual(parseAddress(formatAddress(area)), area);
    assert.equal(formatAddress({ sheet: "Sheet_1", row: 0, col: 0, rows: 1, cols: 1 }), "Sheet_1!A1:A1");
    assert.equal(formatAddress({ sheet: "Sheet_1", row: 0, col: 0, rows: 1, cols: 1 }, "cell"), "Sheet_1!A1");
  });

  it("finds the first row and column, and moves a range right", () => {
    assert.equal(firstRowOf("'My sheet'!$B$5:B9"), 5);
    assert.equal(firstRowOf("Sheet1!B:B"), 1);
    assert.equal(firstColumnOf("'My sheet'!$C$5:D9"), 2);
    assert.equal(firstColumnOf("Sheet1!C:C"), 2);
    assert.equal(firstColumnOf("nothing"), -1);
    assert.equal(shiftColumns("'My sheet'!$Z$2:$Z$9", 1), "'My sheet'!AA2:AA9");
    assert.equal(shiftColumns("Sheet1!A1:A20", 0), "Sheet1!A1:A20");
  });
});
