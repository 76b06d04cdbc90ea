// toCellValue on its own, with literal expectations: what a cell holds for each field type
// (the sandbox cell-function tests compare against it, so it is pinned here by hand).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { toCellValue } from "../../../src/core/enrich/index.js";

describe("toCellValue", () => {
  test("a missing value is an empty cell, whatever the type", () => {
    for (const type of ["string", "integer", "boolean", "list", undefined] as const) {
      assert.equal(toCellValue(type, null), "");
      assert.equal(toCellValue(type, undefined), "");
    }
  });

  test("numbers stay numbers; numeric text becomes a number; anything else reads as text", () => {
    assert.equal(toCellValue("integer", 1200), 1200);
    assert.equal(toCellValue("number", 3.5), 3.5);
    assert.equal(toCellValue("integer", "42"), 42);
    assert.equal(toCellValue("number", " 7.25 "), 7.25);
    assert.equal(toCellValue("integer", ""), "");
    assert.equal(toCellValue("integer", "n/a"), "n/a");
    assert.equal(toCellValue("number", Number.NaN), "NaN");
  });

  test("booleans stay booleans; their text becomes one; other values read as text", () => {
    assert.equal(toCellValue("boolean", true), true);
    assert.equal(toCellValue("boolean", false), false);
    assert.equal(toCellValue("boolean", "true"), true);
    assert.equal(toCellValue("boolean", "false"), false);
    assert.equal(toCellValue("boolean", "yes"), "yes");
    assert.equal(toCellValue("boolean", 1), "1");
  });

  test("strings are kept as they are, formula-like ones too (writing them as text is the sheet's job)", () => {
    assert.equal(toCellValue("string", "Acme Inc."), "Acme Inc.");
    assert.equal(toCellValue("url", "https://acme.example/about"), "https://acme.example/about");
    assert.equal(toCellValue("string", '=HYPERLINK("x")'), '=HYPERLINK("x")');
    assert.equal(toCellValue("date", "2024-05-01"), "2024-05-01");
    assert.equal(toCellValue(undefined, 12), "12");
    assert.equal(toCellValue("string", false), "false");
  });

  test("lists become one line: social links with their followers, lookup items by name, others by their fields", () => {
    assert.equal(
      toCellValue("list", [
        { type: "LINKED_IN", url: "https://linkedin.example/acme", followerCount: 1200 },
        { url: "https://x.example/acme", followerCount: null },
      ]),
      "LINKED_IN: https://linkedin.example/acme (1200 followers); https://x.example/acme",
    );
    assert.equal(
      toCellValue("list", [
        { id: 7, name: "Software" },
        { code: "US", name: "United States" },
      ]),
      "Software; United States",
    );
    assert.equal(toCellValue("list", ["a", "", null, 3]), "a; 3");
    assert.equal(
      toCellValue("list", [{ round: "Series A", amount: 5, investors: ["Ann", "Bo"], lead: { name: "Cy" }, note: "" }]),
      "round: Series A, amount: 5, investors: [Ann; Bo], lead: {name: Cy}",
    );
    assert.equal(toCellValue("list", []), "");
  });

  test("an object reads as its non-empty fields", () => {
    assert.equal(toCellValue("object", { street: "1 Main St", city: "Springfield", zip: null, state: "" }), "street: 1 Main St, city: Springfield");
  });
});
