// The insert's column list: decided by what the search answer carries (not by the enrichment
// entitlements), searchable by name, and a contact insert keeps the Company ID by default.
import { test } from "node:test";
import assert from "node:assert/strict";
import { defaultColumnKeys, searchColumns } from "../../src/core/sheet/index.js";
import type { CompanyItem } from "../../src/core/contract/index.js";
import { columnsEmptyInAnswer, columnsMatching } from "../../src/taskpane/insert/answerColumns.js";

const company = (attributes: Record<string, unknown>): CompanyItem => ({ id: "1", type: "Company", attributes }) as CompanyItem;

test("a contact insert includes the Company ID by default, to enrich or join on later", () => {
  assert.ok(defaultColumnKeys("contact").includes("companyId"));
});

test("a column the answer carries is offered as it is; one no previewed record carries says so", () => {
  const answer = [company({ name: "A", revenue: "10" }), company({ name: "B", revenue: "20", website: "b.com" })];
  const empty = columnsEmptyInAnswer("company", answer);
  assert.equal(empty.has("revenue"), false, "revenue is in the answer: the insert offers it as the preview shows it");
  assert.equal(empty.has("website"), false, "one record carrying it is enough");
  assert.equal(empty.has("id"), false);
  assert.equal(empty.has("logo"), true);
  assert.equal(columnsEmptyInAnswer("company", undefined).size, 0, "before a preview nothing is marked");
  assert.equal(columnsEmptyInAnswer("company", []).size, 0, "no records: nothing is known");
});

test("the column list is searchable by words of the header, in any case", () => {
  const all = searchColumns("company");
  const found = columnsMatching(all, "REVENUE");
  assert.ok(found.length >= 1 && found.every((c) => /revenue/i.test(c.header)), found.map((c) => c.header).join(", "));
  assert.equal(columnsMatching(all, "").length, all.length);
  assert.equal(columnsMatching(all, "no such column").length, 0);
});
