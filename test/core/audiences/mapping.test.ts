// The mapping a table suggests: identifying columns as match criteria (by header and by values),
// the rest typed from their cells; the plan's rows and requests; cells as the service takes them.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import {
  cellForService,
  inferDataType,
  inferMapping,
  mappingForKind,
  mappingProblems,
  planSend,
  planSummary,
  formatLink,
  parseLink,
  type SheetTable,
} from "../../../src/core/audiences/index.js";

const table = (headers: string[], rows: unknown[][], formats?: (string | undefined)[]): SheetTable => ({
  address: "T",
  headers,
  rows,
  ...(formats ? { formats } : {}),
});

describe("inferMapping", () => {
  it("makes identifying columns match criteria and types the rest from their cells", () => {
    const t = table(
      ["Company", "Web", "Employees", "Score", "Met on", "Contact", "Newsletter", "Notes"],
      [
        ["Acme Inc.", "acme.com", 120, 0.5, 45200, "jane@acme.com", "yes", "Hot lead"],
        ["Globex", "https://www.globex.com/", 40, 1.25, 45201, "bob@globex.com", "no", "Follow up"],
      ],
      [undefined, undefined, "#,##0", "0.00", "yyyy-mm-dd", undefined, undefined, undefined],
    );
    const m = inferMapping(t, { kind: "COMPANY" });
    const roles = Object.fromEntries(m.columns.map((c) => [c.header, c.role]));
    assert.deepEqual(roles["Company"], { kind: "criterion", criterion: "COMPANY_NAME" });
    // "Web" says nothing; its values are websites' home addresses.
    assert.deepEqual(roles["Web"], { kind: "criterion", criterion: "COMPANY_WEBSITE" });
    assert.deepEqual(roles["Employees"], { kind: "column", dataType: "INTEGER" });
    assert.deepEqual(roles["Score"], { kind: "column", dataType: "DECIMAL" });
    assert.deepEqual(roles["Met on"], { kind: "column", dataType: "DATE" });
    // A company audience does not match on emails: the column is an email column.
    assert.deepEqual(roles["Contact"], { kind: "column", dataType: "EMAIL" });
    assert.deepEqual(roles["Newsletter"], { kind: "column", dataType: "BOOLEAN" });
    assert.deepEqual(roles["Notes"], { kind: "column", dataType: "TEXT" });
    assert.deepEqual(mappingProblems(m), []);
  });

  it("guesses a contact audience from an email column, and leaves out the add-in's own columns", () => {
    const t = table(
      ["Email", "Company name", "Company ID", "Audience row", "Audience send status"],
      [
        ["a@x.com", "X", 12, "aud/row-1", "Created"],
        ["b@y.com", "Y", "13", "", ""],
      ],
    );
    const m = inferMapping(t);
    assert.equal(m.kind, "CONTACT");
    assert.deepEqual(
      m.columns.map((c) => (c.role.kind === "criterion" ? c.role.criterion : c.role.kind)),
      ["CONTACT_EMAIL", "COMPANY_NAME", "column", "skip", "skip"],
    );
  });

  it("leaves out the columns right of the link column (results brought back), which the service fills", () => {
    const t = table(
      ["Website", "Audience row", "Audience send status", "Match", "Company name (enriched)"],
      [["acme.com", "A/r1", "Created", 11, "Acme, Inc."]],
    );
    assert.deepEqual(
      inferMapping(t, { kind: "COMPANY" }).columns.map((c) => c.role.kind),
      ["criterion", "skip", "skip", "skip", "skip"],
    );
  });

  it("takes an id column as a criterion only when it holds whole numbers", () => {
    const ids = inferMapping(table(["Company ID", "Name"], [[344589814], ["12"]]), { kind: "COMPANY" });
    assert.deepEqual(ids.columns[0]?.role, { kind: "criterion", criterion: "ZOOMINFO_COMPANY_ID" });
    const notIds = inferMapping(table(["Company ID", "Name"], [["ACME-1"], ["12"]]), { kind: "COMPANY" });
    assert.equal(notIds.columns[0]?.role.kind, "column");
  });

  it("says what to fix when nothing identifies a record, or a criterion is used twice", () => {
    const none = inferMapping(table(["Notes"], [["x"]]), { kind: "COMPANY" });
    assert.match(mappingProblems(none)[0] ?? "", /Choose at least one column that identifies each company \(company website, company name, company id\)/);
    const twice = inferMapping(table(["Website", "Domain"], [["a.com", "b.com"]]), { kind: "COMPANY" });
    twice.columns[1]!.role = { kind: "criterion", criterion: "COMPANY_WEBSITE" };
    assert.deepEqual(mappingProblems(twice), ["Domain and Website are both marked Company website; keep one."]);
  });

  it("types cells: URLs, phones, ISO dates, long text", () => {
    assert.equal(inferDataType(["https://acme.com/about", "globex.com/x"]), "URL");
    assert.equal(inferDataType(["+1 617 555 0100", "(617) 555-0101"]), "PHONE");
    assert.equal(inferDataType(["2024-05-01", ""]), "DATE");
    assert.equal(inferDataType(["x".repeat(300)]), "LARGE_TEXT");
    assert.equal(inferDataType([1, "two"]), "TEXT");
    assert.equal(inferDataType([]), "TEXT");
  });
});

describe("cells as the service takes them", () => {
  it("sends dates as ISO text, number text as numbers, numbers in text columns as text, and a refused value as it is", () => {
    assert.equal(cellForService(45200, { kind: "column", dataType: "DATE" }, "yyyy-mm-dd"), "2023-10-01");
    assert.equal(cellForService("42", { kind: "column", dataType: "INTEGER" }), 42);
    assert.equal(cellForService("many", { kind: "column", dataType: "INTEGER" }), "many");
    assert.equal(cellForService(2139, { kind: "column", dataType: "TEXT" }), "2139");
    assert.equal(cellForService(344589814, { kind: "criterion", criterion: "ZOOMINFO_COMPANY_ID" }), "344589814");
    assert.equal(cellForService("Yes", { kind: "column", dataType: "BOOLEAN" }), true);
    assert.equal(cellForService("  ", { kind: "column", dataType: "TEXT" }), null);
  });
});

describe("planSend", () => {
  it("plans one request per 500 rows, counts linked rows as updates and leaves empty rows out", () => {
    const rows: unknown[][] = Array.from({ length: 1201 }, (_, i) => [`c${i}.com`, i < 10 ? formatLink({ audienceId: "A", rowId: `r${i}` }) : ""]);
    rows.push(["", ""]);
    rows[10]![1] = formatLink({ audienceId: "A", key: "run-11" });
    rows[11]![1] = formatLink({ audienceId: "OTHER", rowId: "r" });
    const t = table(["Website", "Audience row"], rows);
    const plan = planSend(t, inferMapping(t, { kind: "COMPANY" }), "A");
    assert.equal(plan.rows.length, 1201);
    assert.equal(plan.requests, 3);
    assert.equal(plan.updates, 10);
    assert.equal(plan.unconfirmed, 1);
    assert.equal(plan.creates, 1190);
    assert.deepEqual(plan.emptyRows, [1201]);
    assert.equal(
      planSummary(plan),
      "1,201 rows in 3 requests: 1,190 new, 10 updated, 1 checked first (an earlier send was not confirmed); 1 empty rows left out.",
    );
    // A new audience: no link counts.
    assert.equal(planSend(t, inferMapping(t, { kind: "COMPANY" })).creates, 1201);
  });

  it("reads links back as written", () => {
    assert.deepEqual(parseLink("a-1/row-9"), { audienceId: "a-1", rowId: "row-9" });
    assert.deepEqual(parseLink("a-1/key:r-3"), { audienceId: "a-1", key: "r-3" });
    assert.equal(parseLink("typed by hand"), undefined);
    assert.equal(parseLink(42), undefined);
  });
});

describe("mappingForKind", () => {
  const leads = table(
    ["Company", "Website", "Email", "Employees", "Notes"],
    [
      ["Acme Inc.", "acme.com", "jo@acme.com", 120, "Hot"],
      ["Globex", "globex.com", "al@globex.com", 40, "Cold"],
    ],
  );
  const role = (m: ReturnType<typeof inferMapping>, header: string) => m.columns.find((c) => c.header === header)?.role;

  it("keeps the roles the user chose when the kind changes, and infers the others for the new kind", () => {
    const first = inferMapping(leads);
    assert.equal(first.kind, "CONTACT");
    const set = { ...first, columns: first.columns.map((c) => (c.header === "Notes" ? { ...c, role: { kind: "skip" as const } } : c)) };
    const companies = mappingForKind(leads, set, "COMPANY", new Set([4]));
    assert.equal(companies.kind, "COMPANY");
    assert.deepEqual(role(companies, "Notes"), { kind: "skip" }, "the user's choice stays");
    assert.deepEqual(role(companies, "Email"), { kind: "column", dataType: "EMAIL" }, "a company audience does not match on email");
    assert.deepEqual(role(companies, "Website"), { kind: "criterion", criterion: "COMPANY_WEBSITE" });
  });

  it("drops a chosen criterion the new kind cannot match on; a criterion the user moved stays on the column they chose", () => {
    const contacts = inferMapping(leads, { kind: "CONTACT" });
    const moved = {
      ...contacts,
      columns: contacts.columns.map((c) => (c.header === "Notes" ? { ...c, role: { kind: "criterion" as const, criterion: "COMPANY_NAME" as const } } : c)),
    };
    const companies = mappingForKind(leads, moved, "COMPANY", new Set([2, 4]));
    assert.deepEqual(role(companies, "Notes"), { kind: "criterion", criterion: "COMPANY_NAME" });
    assert.deepEqual(role(companies, "Company"), { kind: "column", dataType: "TEXT" });
    assert.deepEqual(role(companies, "Email"), { kind: "column", dataType: "EMAIL" });
    assert.deepEqual(mappingProblems(companies), []);
  });
});
