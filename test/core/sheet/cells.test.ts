import { test } from "node:test";
import assert from "node:assert/strict";
import { httpUrl } from "../../../src/core/sheet/httpUrl.js";
import {
  cellValue,
  columnsFor,
  CONTACT_SEARCH_COLUMNS,
  defaultColumnKeys,
  displayText,
  excelDateSerial,
  hyperlinkAddress,
  itemsToRows,
  rowsPerBlock,
  serialToIso,
  uniqueHeaders,
  uniqueSheetName,
  uniqueTableName,
} from "../../../src/core/sheet/index.js";

test("numbers from the service's strings become numbers; text that is not a number stays text", () => {
  assert.equal(cellValue("100000", "integer"), 100000);
  assert.equal(cellValue(250, "integer"), 250);
  assert.equal(cellValue("12.5", "integer"), "12.5");
  assert.equal(cellValue("12.5", "number"), 12.5);
  assert.equal(cellValue("about 40", "integer"), "about 40");
  assert.equal(cellValue(undefined, "integer"), "");
  assert.equal(cellValue(null, "text"), "");
});

test("dates become Excel date serials; invalid dates stay text", () => {
  assert.equal(excelDateSerial("1900-03-01", false), 61);
  assert.equal(excelDateSerial("2024-01-01", false), 45292);
  assert.equal(cellValue("2024-01-01", "date"), 45292);
  assert.equal(cellValue("2024-01-01T12:00:00Z", "datetime"), 45292.5);
  assert.equal(cellValue("2024-02-30", "date"), "2024-02-30");
  assert.equal(serialToIso(45292, false), "2024-01-01");
  assert.equal(serialToIso(45292.5, true), "2024-01-01 12:00");
  assert.equal(displayText(45292, "date"), "2024-01-01");
});

test("booleans, lists and objects", () => {
  assert.equal(cellValue(true, "boolean"), true);
  assert.equal(cellValue("false", "boolean"), false);
  assert.equal(cellValue(["a", "b"], "text"), "a; b");
  assert.equal(cellValue({ a: 1 }, "text"), '{"a":1}');
  assert.equal(displayText(true, "boolean"), "TRUE");
});

test("formula-like and HTML-like service strings are kept exactly as text", () => {
  for (const s of ['=HYPERLINK("x")', "+1 555", "-2", "@SUM(A1)", "<img src=x onerror=alert(1)>"]) {
    assert.equal(cellValue(s, "text"), s);
  }
});

test("contact rows read nested company fields and management status", () => {
  const columns = columnsFor("contact", ["id", "firstName", "companyName", "companyId", "underManagement", "lastUpdatedDate"]);
  const [row] = itemsToRows(
    [
      {
        id: "77",
        attributes: {
          firstName: "Ana",
          company: { id: 5, name: "Acme" },
          managementStatus: { underManagement: true },
          lastUpdatedDate: "2025-06-01T00:00:00Z",
        },
      },
    ],
    columns,
  );
  assert.deepEqual(row, [77, "Ana", "Acme", 5, excelDateSerial("2025-06-01T00:00:00Z", true), true]);
  assert.ok(CONTACT_SEARCH_COLUMNS.every((c) => c.header.length > 0));
});

test("column choice: saved keys in sheet order, unknown keys dropped, empty falls back to defaults", () => {
  assert.deepEqual(
    columnsFor("company", ["revenue", "name", "nope"]).map((c) => c.key),
    ["name", "revenue"],
  );
  assert.deepEqual(
    columnsFor("company", []).map((c) => c.key),
    defaultColumnKeys("company"),
  );
});

test("hyperlinks only for web addresses", () => {
  assert.equal(hyperlinkAddress("www.acme.com"), "http://www.acme.com/");
  assert.equal(hyperlinkAddress("https://acme.com/x"), "https://acme.com/x");
  assert.equal(hyperlinkAddress("javascript:alert(1)"), undefined);
  assert.equal(hyperlinkAddress("=cmd|' /C calc'!A0"), undefined);
  assert.equal(hyperlinkAddress("not a site"), undefined);
  assert.equal(hyperlinkAddress(42), undefined);
});

test("http addresses: http and https only, nothing for other schemes or text that is no address", () => {
  assert.equal(httpUrl("http://127.0.0.1:4010/x")?.origin, "http://127.0.0.1:4010");
  assert.equal(httpUrl("https://acme.com")?.href, "https://acme.com/");
  for (const text of ["javascript:alert(1)", "data:text/html,hi", "file:///etc/passwd", "acme.com", ""]) assert.equal(httpUrl(text), undefined, text);
});

test("names: legal, unique sheet and table names, distinct headers, bounded block sizes", () => {
  assert.equal(uniqueSheetName("a/b:c*d?[e]", []), "a b c d e");
  assert.equal(uniqueSheetName("Results", ["results"]), "Results (2)");
  assert.equal(uniqueSheetName("x".repeat(40), []).length, 31);
  assert.equal(uniqueTableName("2024 search!", []), "T_2024_search");
  assert.equal(uniqueTableName("A1", []), "T_A1");
  assert.equal(uniqueTableName("Search", ["search"]), "Search_2");
  assert.deepEqual(uniqueHeaders(["Phone", "phone", "Phone"]), ["Phone", "phone 2", "Phone 3"]);
  assert.equal(rowsPerBlock(12), 2000);
  assert.equal(rowsPerBlock(60), 400);
  assert.equal(rowsPerBlock(0), 2000);
});
