// Sending to an audience that exists: the mapping takes the audience's kind and match criteria
// (found on the table's columns of the same name), not a guess from the table's columns.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { audienceKind, mappingForAudience, mappingProblems, type AudienceColumnInfo, type SheetTable } from "../../../src/core/audiences/index.js";

const leads: SheetTable = {
  address: "Leads!A1:F3",
  headers: ["Company", "Website", "Contact email", "Employees", "Audience row", "Audience send status"],
  rows: [
    ["Acme Inc.", "acme.com", "jane@acme.com", 120, "a/1", "Created"],
    ["Globex", "globex.com", "bob@globex.com", 40, "a/2", "Created"],
  ],
};

/** A company audience made from that table: matched on website and name, the email a custom column. */
const columns: AudienceColumnInfo[] = [
  { columnId: "c1", name: "Company", dataType: "TEXT", source: "custom" },
  { columnId: "c2", name: "Website", dataType: "URL", source: "custom" },
  { columnId: "c3", name: "Contact email", dataType: "EMAIL", source: "custom" },
  { columnId: "c4", name: "Employees", dataType: "INTEGER", source: "custom" },
  {
    columnId: "m",
    name: "Match",
    dataType: "",
    source: "match",
    matchCriteria: [
      { columnId: "c2", criterion: "COMPANY_WEBSITE" },
      { columnId: "c1", criterion: "COMPANY_NAME" },
    ],
  },
];

const roles = (t: SheetTable, a: Parameters<typeof mappingForAudience>[1]) =>
  Object.fromEntries(mappingForAudience(t, a).columns.map((c) => [c.header, c.role]));

describe("mappingForAudience", () => {
  it("keeps a company audience's kind and criteria though the table has an email column", () => {
    const mapping = mappingForAudience(leads, { kind: "COMPANY", columns });
    assert.equal(mapping.kind, "COMPANY");
    const r = roles(leads, { kind: "COMPANY", columns });
    assert.deepEqual(r["Website"], { kind: "criterion", criterion: "COMPANY_WEBSITE" });
    assert.deepEqual(r["Company"], { kind: "criterion", criterion: "COMPANY_NAME" });
    assert.deepEqual(r["Contact email"], { kind: "column", dataType: "EMAIL" });
    assert.deepEqual(r["Audience row"], { kind: "skip" });
    assert.deepEqual(mappingProblems(mapping), []);
  });

  it("finds the kind from the criteria when the audience is not listed", () => {
    assert.equal(audienceKind({ columns }), "COMPANY");
    assert.equal(mappingForAudience(leads, { columns }).kind, "COMPANY");
    const contacts = columns.map((c) => (c.source === "match" ? { ...c, matchCriteria: [{ columnId: "c3", criterion: "CONTACT_EMAIL" }] } : c));
    assert.equal(audienceKind({ columns: contacts }), "CONTACT");
    assert.equal(audienceKind({ columns: columns.slice(0, 4) }), undefined);
  });

  it("moves a criterion to the column the audience matches on, the other column becoming typed", () => {
    const t: SheetTable = { address: "T", headers: ["Domain", "Site"], rows: [["acme.com", "acme.com"]] };
    const audience = {
      kind: "COMPANY" as const,
      columns: [
        { columnId: "d", name: "Domain", dataType: "URL", source: "custom" },
        { columnId: "s", name: "Site", dataType: "URL", source: "custom" },
        { columnId: "m", name: "Match", dataType: "", source: "match", matchCriteria: [{ columnId: "s", criterion: "COMPANY_WEBSITE" }] },
      ],
    };
    const r = roles(t, audience);
    assert.deepEqual(r["Site"], { kind: "criterion", criterion: "COMPANY_WEBSITE" });
    assert.deepEqual(r["Domain"], { kind: "column", dataType: "URL" });
  });
});
