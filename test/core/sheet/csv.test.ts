import { test } from "node:test";
import assert from "node:assert/strict";
import { neutraliseFormula, toCsv, UTF8_BOM } from "../../../src/core/sheet/index.js";

test("CSV: BOM, CRLF, quoting per RFC 4180", () => {
  const csv = toCsv(
    [
      { header: "Name", type: "text" },
      { header: "Revenue", type: "integer" },
      { header: "Founded", type: "date" },
    ],
    [
      ['Acme, "the best"', 100, 45292],
      ["Line\nbreak", -5, ""],
    ],
  );
  assert.ok(csv.startsWith(UTF8_BOM));
  assert.equal(csv.slice(1), 'Name,Revenue,Founded\r\n"Acme, ""the best""",100,2024-01-01\r\n"Line\nbreak",-5,\r\n');
});

test("CSV: text that a spreadsheet would run as a formula is neutralised; numbers are not", () => {
  const csv = toCsv([{ header: "Name", type: "text" }, { header: "N", type: "integer" }], [
    ["=HYPERLINK(\"http://evil\",\"x\")", -3],
    ["+1 555", 1],
    ["-minus", 2],
    ["@SUM(A1)", 3],
    ["<img src=x onerror=alert(1)>", 4],
  ]);
  const lines = csv.slice(1).split("\r\n");
  assert.equal(lines[1], '"\'=HYPERLINK(""http://evil"",""x"")",-3');
  assert.equal(lines[2], "'+1 555,1");
  assert.equal(lines[3], "'-minus,2");
  assert.equal(lines[4], "'@SUM(A1),3");
  assert.equal(lines[5], "<img src=x onerror=alert(1)>,4");
  assert.equal(neutraliseFormula("\tx"), "'\tx");
  assert.equal(neutraliseFormula("plain"), "plain");
});
