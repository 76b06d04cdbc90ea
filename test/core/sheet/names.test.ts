import assert from "node:assert/strict";
import { test } from "node:test";
import { uniqueSheetName, uniqueTableName } from "../../../src/core/sheet/index.js";
import { cutWhole, readsAsReference } from "../../../src/core/sheet/names.js";

/** Half a surrogate pair anywhere in the text. */
const halfPair = (text: string) => /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

test("table names Excel reads as a reference or a value get a prefix: R, C, r, c, TRUE, FALSE, A1, R1C1", () => {
  for (const [wanted, made] of [
    ["R", "T_R"],
    ["C", "T_C"],
    ["r", "T_r"],
    ["c", "T_c"],
    ["TRUE", "T_TRUE"],
    ["false", "T_false"],
    ["A1", "T_A1"],
    ["xfd1048576", "T_xfd1048576"],
    ["R1C1", "T_R1C1"],
    ["RC", "T_RC"],
    ["R2C", "T_R2C"],
    ["C12", "T_C12"],
  ]) {
    assert.equal(uniqueTableName(wanted!, []), made, wanted);
  }
  for (const fine of ["Results", "Rc_list", "TRUEST", "Companies", "ABCD1"]) assert.equal(uniqueTableName(fine, []), fine);
  assert.equal(readsAsReference("Companies"), false);
});

test("table names: no spaces, a letter or underscore first, letters of any script kept, at most 255 characters", () => {
  assert.equal(uniqueTableName("2024 search!", []), "T_2024_search");
  assert.equal(uniqueTableName("Société générale", []), "Société_générale");
  assert.equal(uniqueTableName("Leads 😀 list", []), "Leads_list");
  assert.equal(uniqueTableName(".hidden", []), "T_.hidden");
  const long = uniqueTableName("a".repeat(300), []);
  assert.equal(long.length, 255);
  const next = uniqueTableName("a".repeat(300), [long]);
  assert.equal(next.length, 255);
  assert.ok(next.endsWith("_2"));
});

test("table names are unique among the workbook's tables and defined names (one namespace, any case)", () => {
  assert.equal(uniqueTableName("Leads", ["Companies", "LEADS"]), "Leads_2");
  assert.equal(uniqueTableName("Leads", ["leads", "Leads_2"]), "Leads_3");
  assert.equal(uniqueTableName("TRUE", ["T_TRUE"]), "T_TRUE_2");
});

test("sheet names: forbidden characters, apostrophes at either end, History, uniqueness", () => {
  assert.equal(uniqueSheetName("a/b:c*d?[e]\\f", []), "a b c d e f");
  assert.equal(uniqueSheetName("'Leads'", []), "Leads");
  assert.equal(uniqueSheetName("'''", []), "Results");
  assert.equal(uniqueSheetName("History", []), "History (2)");
  assert.equal(uniqueSheetName("history", []), "history (2)");
  assert.equal(uniqueSheetName("Results", ["results"]), "Results (2)");
  assert.equal(uniqueSheetName("O'Brien deals", []), "O'Brien deals", "an apostrophe inside stays");
});

test("a sheet name cut at 31 characters never ends in an apostrophe", () => {
  const wanted = `${"a".repeat(30)}'bc`;
  assert.equal(uniqueSheetName(wanted, []), "a".repeat(30));
  // The cut that makes room for " (2)" lands just after an apostrophe.
  const base = `${"a".repeat(26)}'bbbb`;
  assert.equal(uniqueSheetName(base, [base]), `${"a".repeat(26)} (2)`);
});

test("a sheet name cut at 31 characters never splits an emoji", () => {
  assert.equal(uniqueSheetName(`${"a".repeat(30)}😀`, []), "a".repeat(30));
  const family = "👨‍👩‍👧";
  assert.equal(uniqueSheetName(`${"a".repeat(25)}${family}`, []), "a".repeat(25), "a joined emoji goes whole or not at all");
  const emojis = "😀".repeat(20);
  const made = uniqueSheetName(emojis, []);
  assert.equal(made, "😀".repeat(15));
  const second = uniqueSheetName(emojis, [made]);
  assert.equal(second, `${"😀".repeat(13)} (2)`);
  for (const name of [made, second]) {
    assert.ok(name.length <= 31);
    assert.ok(!halfPair(name));
  }
  assert.equal(cutWhole("ab😀", 3), "ab");
});
