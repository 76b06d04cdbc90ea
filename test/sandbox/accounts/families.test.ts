// Corporate families of the twin: from the seeded companies, every company in one family, each
// company's parentage the path to it in its ultimate parent's family tree, the parents the same as
// company enrichment gives, and families with sub-units two and three levels deep, acquisitions
// with dates, former names and locations.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { familyRows, type FamilyRow } from "../../../src/core/contract/index.js";
import { openDatabase } from "../../../src/sandbox/store/database.js";
import { createRecordStore } from "../../../src/sandbox/records.js";
import { accountData, type AccountData } from "../../../src/sandbox/accounts/store.js";
import { acquisitionDate, familyTree, parentage, type Family, type FamilyCompany } from "../../../src/sandbox/accounts/families.js";
import { DESIGNED_FAMILY } from "../../../src/sandbox/accounts/seed.js";
import { TEST_COMPANIES, TEST_CONTACTS } from "../../helpers/sandbox.js";

describe("twin: corporate families", () => {
  let data: AccountData;
  let companyIds: number[] = [];
  /** Every family tree as rows, by the id of its ultimate parent. */
  const trees = new Map<number, FamilyRow[]>();
  let enrichment: ReturnType<typeof createRecordStore>;
  /** Each company's family, as the twin's data gives it (read once). */
  const families = new Map<number, Family>();
  const familyOf = (id: number) => families.get(id)!;

  before(() => {
    const { db } = openDatabase(undefined, { seed: 1, companies: TEST_COMPANIES, contacts: TEST_CONTACTS });
    data = accountData(db);
    enrichment = createRecordStore(db);
    companyIds = (db.prepare("SELECT id FROM companies ORDER BY id").all() as { id: number }[]).map((r) => r.id);
    for (const id of companyIds) {
      const family = data.familyOf(id)!;
      families.set(id, family);
      if (!trees.has(family.top.id)) trees.set(family.top.id, familyRows(familyTree(family)));
    }
  });

  it("puts every company in exactly one family tree", () => {
    const seen = [...trees.values()].flatMap((rows) => rows.map((r) => r.companyId));
    assert.equal(seen.length, companyIds.length);
    assert.deepEqual(
      [...seen].sort((a, b) => a! - b!),
      companyIds,
    );
    for (const id of companyIds)
      assert.ok(
        trees.get(familyOf(id).top.id)!.some((r) => r.companyId === id),
        `company ${id} in its family's tree`,
      );
  });

  it("gives each company a parentage that is its path up its ultimate parent's tree, with the tree's relationships", () => {
    let checked = 0;
    for (const rows of trees.values()) {
      const byId = new Map(rows.map((r) => [r.companyId, r]));
      for (const row of rows) {
        const path: FamilyRow[] = [];
        for (let up = byId.get(row.parentId); up; up = byId.get(up.parentId)) path.push(up);
        const items = parentage(familyOf(row.companyId!), row.companyId!);
        assert.deepEqual(
          items.map((p) => Number(p.companyId)),
          path.map((p) => p.companyId),
          `parentage of ${row.companyId}`,
        );
        if (items[0]) assert.equal(items[0].subUnitDesc, row.relationship, `relationship of ${row.companyId}`);
        checked += 1;
      }
    }
    assert.equal(checked, companyIds.length);
  });

  it("names the parents company enrichment names (parentId, ultimateParentId)", () => {
    const enriched = enrichment.companyAttributes(companyIds, ["parentId", "ultimateParentId"]);
    for (const id of companyIds) {
      const items = parentage(familyOf(id), id);
      const attributes = enriched.get(id)!;
      assert.equal(
        items[0]?.companyId,
        attributes.parentId === undefined || attributes.parentId === 0 ? undefined : String(attributes.parentId),
        `parent of ${id}`,
      );
      assert.equal(items.at(-1)?.companyId, attributes.ultimateParentId ? String(attributes.ultimateParentId) : undefined, `ultimate parent of ${id}`);
    }
  });

  it("has families two and three levels deep, with subsidiaries, acquisitions, former names, divisions and locations", () => {
    const rows = [...trees.values()].flat();
    const deepest = Math.max(...[...trees.values()].map((family) => Math.max(...family.map((r) => r.level))));
    assert.ok(deepest >= 3, `deepest family: ${deepest} levels`);
    for (const level of [2, 3])
      assert.ok(
        rows.some((r) => r.level === level),
        `a company ${level} levels below its top`,
      );
    const relationships = new Set(rows.map((r) => r.relationship));
    for (const kind of ["Subsidiary", "Acquisition", "Former Name", "Division", "Location"]) assert.ok(relationships.has(kind), kind);
    assert.ok([...trees.values()].filter((family) => family.length > 1).length > 100, "many families of more than one company");
  });

  it("lays the designed family out at every size: three levels below its top, each member where it was placed", () => {
    const rows = trees.get(DESIGNED_FAMILY.top)!;
    for (const member of DESIGNED_FAMILY.members) {
      const row = rows.find((r) => r.companyId === member.id);
      assert.equal(row?.parentId, member.parent, `parent of ${member.id}`);
    }
    assert.deepEqual(
      parentage(familyOf(33), 33).map((p) => [p.companyId, p.subUnitType]),
      [
        ["32", "ACQUISITION"],
        ["31", "SUBSIDIARY"],
        ["30", "SUBSIDIARY"],
      ],
    );
    assert.equal(rows.find((r) => r.companyId === 38)?.level, 3);
  });

  it("dates each acquisition after both companies were founded and by the seed's reference day, the same on every call", () => {
    let acquisitions = 0;
    for (const id of companyIds) {
      const family = familyOf(id);
      const [first] = parentage(family, id);
      if (first?.subUnitType !== "ACQUISITION") {
        assert.equal(first?.acquiredByDate, undefined);
        continue;
      }
      const company = family.members.get(id)!;
      const parent = family.members.get(company.parent_id)!;
      const day = first.acquiredByDate!;
      assert.match(day, /^\d{4}-\d{2}-\d{2}$/);
      assert.ok(day <= "2026-06-30", day);
      for (const founded of [company.founded_year, parent.founded_year])
        if (founded !== null && founded < 2026) assert.ok(Number(day.slice(0, 4)) > founded, `${day} after ${founded}`);
      assert.equal(acquisitionDate(company, parent), day);
      acquisitions += 1;
    }
    assert.ok(acquisitions > 10, `${acquisitions} acquisitions`);
  });

  it("gives each family member its own city and state in the tree", () => {
    const some: FamilyCompany = familyOf(companyIds.find((id) => parentage(familyOf(id), id).length >= 2)!).top;
    const tree = familyTree(familyOf(some.id));
    assert.equal(tree.city ?? null, some.city);
    assert.equal(tree.state ?? null, some.state);
    for (const node of tree.familyNodes ?? []) {
      const member = familyOf(node.companyId!).members.get(node.companyId!)!;
      assert.deepEqual([node.name, node.city ?? null, node.state ?? null], [member.name, member.city, member.state]);
    }
  });
});
