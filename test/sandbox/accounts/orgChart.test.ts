// Org charts of the twin: each company's people by department (the departments lookup's), in
// tiers by seniority with one head per tier, whether an email or a direct phone is known as
// contact enrichment has them, filtered by department and accuracy, sorted as asked.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type Database from "better-sqlite3";
import { openDatabase } from "../../../src/sandbox/store/database.js";
import { createRecordStore } from "../../../src/sandbox/records.js";
import { lookupValues } from "../../../src/sandbox/lookup.js";
import { accountData, type AccountData } from "../../../src/sandbox/accounts/store.js";
import { departmentIds, orgChartPerson, selectPeople, serviceDateTime, type OrgChartEntry } from "../../../src/sandbox/accounts/orgChart.js";
import { TEST_COMPANIES, TEST_CONTACTS } from "../../helpers/sandbox.js";

const TIER_OF_LEVEL: Record<string, number> = { "C-Level": 1, "Board Member": 1, "VP-Level": 2, Director: 3, Manager: 4, "Non-Manager": 5 };

describe("twin: org charts", () => {
  let db: Database.Database;
  let data: AccountData;
  /** The company with the most contacts. */
  let busiest = 0;
  let chart: OrgChartEntry[] = [];
  /** The org charts of the 200 companies with the most contacts. */
  let charts: OrgChartEntry[][] = [];

  before(() => {
    db = openDatabase(undefined, { seed: 1, companies: TEST_COMPANIES, contacts: TEST_CONTACTS }).db;
    data = accountData(db);
    busiest = (db.prepare("SELECT company_id AS id FROM contacts GROUP BY company_id ORDER BY COUNT(*) DESC, company_id LIMIT 1").get() as { id: number }).id;
    chart = data.orgChartOf(busiest)!;
    const ids = db.prepare("SELECT company_id AS id FROM contacts GROUP BY company_id ORDER BY COUNT(*) DESC, company_id LIMIT 200").all() as { id: number }[];
    charts = ids.map((row) => data.orgChartOf(row.id)!);
  });

  it("places every contact of a company once, in a department of the departments lookup", () => {
    const ids = (db.prepare("SELECT id FROM contacts WHERE company_id = ? ORDER BY id").all(busiest) as { id: number }[]).map((r) => r.id);
    assert.ok(ids.length >= 10, `${ids.length} people`);
    assert.deepEqual(
      chart.map((e) => e.contact.id).sort((a, b) => a - b),
      ids,
    );
    const departments = new Set(lookupValues("departments")!.map((d) => d.attributes.name));
    for (const entry of chart) assert.ok(departments.has(orgChartPerson(entry).attributes.department!), orgChartPerson(entry).attributes.department);
    assert.equal(data.orgChartOf(TEST_COMPANIES + 1), undefined);
  });

  it("puts each person in the tier of their seniority, with one head (sub-tier 1) per department and tier, the most senior", () => {
    let shared = 0;
    for (const entries of charts) {
      const groups = new Map<string, OrgChartEntry[]>();
      for (const entry of entries) {
        assert.equal(entry.tier, TIER_OF_LEVEL[entry.contact.management_level ?? ""], `tier of ${entry.contact.management_level}`);
        const key = `${entry.contact.company_id}:${entry.departmentId}:${entry.tier}`;
        groups.set(key, [...(groups.get(key) ?? []), entry]);
      }
      for (const [key, people] of groups) {
        const heads = people.filter((p) => p.subTier === 1);
        assert.equal(heads.length, 1, `one head in ${key}`);
        const head = heads[0]!;
        for (const other of people)
          if (other.contact.management_level === head.contact.management_level) assert.ok(head.contact.relevance >= other.contact.relevance, key);
        if (people.length > 1) shared += 1;
      }
    }
    assert.ok(shared > 10, `${shared} tiers of more than one person`);
  });

  it("says an email or a direct phone is known exactly when contact enrichment gives one, and gives neither", () => {
    const entries = charts.flat();
    const enriched = createRecordStore(db).contactAttributes(
      entries.map((e) => e.contact.id),
      ["email", "phone"],
    );
    const seen = { email: new Set<boolean>(), phone: new Set<boolean>() };
    for (const entry of entries) {
      const person = orgChartPerson(entry);
      const known = enriched.get(entry.contact.id)!;
      assert.equal(person.attributes.hasEmail, "email" in known);
      assert.equal(person.attributes.hasDirectPhone, "phone" in known);
      seen.email.add(person.attributes.hasEmail!);
      assert.ok(!JSON.stringify(person).includes("@"), "no email address in the org chart");
    }
    assert.equal(seen.email.size, 2, "people with and without a known email");
  });

  it("keeps the departments and accuracy scores asked, and sorts by accuracy or last name, ties in the chart's order", () => {
    const { ids, unknown } = departmentIds(["sales", "c-suite", "Nowhere"]);
    assert.deepEqual([[...ids], unknown], [["sales", "executive"], ["Nowhere"]]);
    const kept = selectPeople(chart, { departments: ids, accuracyMin: 80, accuracyMax: 95 }, []);
    assert.deepEqual(
      kept.map((e) => e.contact.id),
      chart.filter((e) => ids.has(e.departmentId) && e.contact.accuracy >= 80 && e.contact.accuracy <= 95).map((e) => e.contact.id),
    );
    const byAccuracy = selectPeople(chart, {}, [{ field: "contactAccuracyScore", descending: true }]).map((e) => e.contact.accuracy);
    assert.deepEqual(
      byAccuracy,
      [...byAccuracy].sort((a, b) => b - a),
    );
    const byName = selectPeople(chart, {}, [{ field: "lastName", descending: false }]).map((e) => e.contact.last_name);
    assert.deepEqual(
      byName,
      [...byName].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })),
    );
  });

  it("writes the day and time as the service does", () => {
    assert.equal(serviceDateTime("2024-06-19T12:05:00Z"), "6/19/2024 12:05 PM");
    assert.equal(serviceDateTime("2026-01-02T00:30:00Z"), "1/2/2026 12:30 AM");
  });
});
