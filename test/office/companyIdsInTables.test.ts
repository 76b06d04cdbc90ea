// The company ids already in the workbook's tables, which lookalikes leave out, read from Excel
// (the office-addin-mock workbook of excelFake.ts): every table's "Company ID", "Account id" or
// "Id" column, nothing else (another table's contact ids, a column of other numbers, a header
// that only looks like one, text in an id column).
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { excelCompanyIdsInTables } from "../../src/office/companyIdsInTables.js";
import { FakeExcel, FakeSheet } from "./excelFake.js";

describe("company ids in the workbook's tables (Excel)", () => {
  it("reads every table's company id columns and only those", async () => {
    const excel = new FakeExcel();
    excel.sheets.push(new FakeSheet("Accounts"));
    excel.addTable("Sheet1", "Companies", 0, 0, [
      ["Company ID", "Company name", "Employees"],
      [11, "Acme", 500],
      ["12", "=Globex", 900],
      ["", "No id", 3],
    ]);
    excel.addTable("Sheet1", "Contacts", 0, 5, [
      ["Contact id", "Company id (parent)"],
      [7001, 13],
    ]);
    excel.addTable("Accounts", "Mine", 2, 1, [
      ["Name", " account ID "],
      ["Initech", 14],
      ["Hooli", "n/a"],
    ]);
    assert.deepEqual((await excelCompanyIdsInTables(excel.run)).sort(), ["11", "12", "14"]);
  });

  it("a workbook without tables, or without an id column, reads nothing more", async () => {
    const excel = new FakeExcel();
    assert.deepEqual(await excelCompanyIdsInTables(excel.run), []);
    assert.equal(excel.syncs, 1, "one round trip: no table");
    excel.addTable("Sheet1", "Notes", 0, 0, [["Note"], ["hello"]]);
    excel.syncs = 0;
    assert.deepEqual(await excelCompanyIdsInTables(excel.run), []);
    assert.equal(excel.syncs, 2, "the tables, then their headers; no id column, nothing more");
  });
});
