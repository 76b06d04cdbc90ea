// Corporate families from the seeded companies (issue 42). The seed gives each sub-unit a parent
// (an earlier company), its ultimate parent and its relationship (sub-unit type); a family is an
// ultimate parent and every company whose ultimate parent it is, so a company is in one family
// only, and the parents that company enrichment gives (parentId, ultimateParentId) are the ones
// the hierarchy gives. Everything here is a pure function of those rows: a company's parentage
// is the path from it up its family's tree, so the two always agree.
//
// What the answers hold (the service's published shapes):
//   familyTree  [the ultimate parent, its familyNodes: each child with its relationship
//               (subUnitTypeInfo: subsidiary, division, acquisition, location, former name) and
//               its own familyNodes], children by id;
//   parentage   one item per parent, the direct parent first and the ultimate parent last; each
//               item's subUnitType is how the company below it relates to it, and an acquisition
//               carries the day the parent acquired it (acquiredByDate).
import { SUB_UNIT_TYPE_INFO, type FamilyNode, type FamilyTreeTop, type ParentageItem } from "../../core/contract/index.js";

/** A company as its family needs it (the companies table's columns). */
export interface FamilyCompany {
  id: number;
  name: string;
  /** 0 for an ultimate parent. */
  parent_id: number;
  /** 0 for an ultimate parent. */
  ultimate_parent_id: number;
  sub_unit_type: string | null;
  city: string | null;
  state: string | null;
  founded_year: number | null;
}

export interface Family {
  top: FamilyCompany;
  members: ReadonlyMap<number, FamilyCompany>;
  /** Each member's children, by id. */
  children: ReadonlyMap<number, readonly FamilyCompany[]>;
}

type SubUnitType = keyof typeof SUB_UNIT_TYPE_INFO;

/** Seeded dates are relative to this day (sandbox/data/seed.ts), so a seed gives the same data on any day. */
const REFERENCE_DAY = Date.UTC(2026, 5, 30);
const DAY_MS = 86_400_000;
const FIRST_ACQUISITION_YEAR = 1990;

/** The family of `top` from its members' rows (the top and the companies whose ultimate parent it is). */
export function buildFamily(top: FamilyCompany, rows: readonly FamilyCompany[]): Family {
  const members = new Map<number, FamilyCompany>([[top.id, top]]);
  for (const row of rows) if (row.id !== top.id && row.ultimate_parent_id === top.id) members.set(row.id, row);
  const children = new Map<number, FamilyCompany[]>();
  for (const row of [...members.values()].sort((a, b) => a.id - b.id)) {
    if (row.id === top.id) continue;
    const siblings = children.get(row.parent_id) ?? [];
    siblings.push(row);
    children.set(row.parent_id, siblings);
  }
  return { top, members, children };
}

/** How a company relates to its parent (a sub-unit with no type counts as a subsidiary). */
export function relationshipOf(company: FamilyCompany): SubUnitType {
  const type = company.sub_unit_type;
  return type !== null && Object.hasOwn(SUB_UNIT_TYPE_INFO, type) && type !== "UNSPECIFIED" ? (type as SubUnitType) : "SUBSIDIARY";
}

/** City and state when known (the answers omit what has no value). */
function place(company: FamilyCompany): { city?: string; state?: string } {
  return { ...(company.city ? { city: company.city } : {}), ...(company.state ? { state: company.state } : {}) };
}

function nodeOf(family: Family, company: FamilyCompany): FamilyNode {
  const below = family.children.get(company.id) ?? [];
  return {
    companyId: company.id,
    name: company.name,
    ...place(company),
    subUnitTypeInfo: { ...SUB_UNIT_TYPE_INFO[relationshipOf(company)] },
    ...(below.length > 0 ? { familyNodes: below.map((child) => nodeOf(family, child)) } : {}),
  };
}

/** The family tree from the ultimate parent down. */
export function familyTree(family: Family): FamilyTreeTop {
  const below = family.children.get(family.top.id) ?? [];
  return {
    companyId: family.top.id,
    name: family.top.name,
    ...place(family.top),
    ...(below.length > 0 ? { familyNodes: below.map((child) => nodeOf(family, child)) } : {}),
  };
}

/** The chain from a member up to the ultimate parent: the member first, the top last. */
export function chainOf(family: Family, id: number): FamilyCompany[] {
  const chain: FamilyCompany[] = [];
  for (let company = family.members.get(id); company; company = company.parent_id ? family.members.get(company.parent_id) : undefined) {
    chain.push(company);
    if (chain.length > family.members.size) throw new Error(`The family of ${family.top.id} has a loop at ${id}.`);
  }
  return chain;
}

/** A member's parents, the direct parent first and the ultimate parent last (empty for the top). */
export function parentage(family: Family, id: number): ParentageItem[] {
  const chain = chainOf(family, id);
  return chain.slice(1).map((parent, i) => {
    const below = chain[i]!;
    const type = relationshipOf(below);
    return {
      companyId: String(parent.id),
      companyName: parent.name,
      ...place(parent),
      subUnitType: type,
      subUnitDesc: SUB_UNIT_TYPE_INFO[type].typeDescription,
      ...(type === "ACQUISITION" ? { acquiredByDate: acquisitionDate(below, parent) } : {}),
    };
  });
}

/**
 * The day `parent` acquired `company`: after both were founded (and not before 1990), at the
 * latest the seed's reference day; a pure function of the two, so every answer gives the same day.
 */
export function acquisitionDate(company: FamilyCompany, parent: FamilyCompany): string {
  const year = Math.max(FIRST_ACQUISITION_YEAR, (company.founded_year ?? 0) + 1, (parent.founded_year ?? 0) + 1);
  const first = Math.min(Date.UTC(year, 0, 1), REFERENCE_DAY);
  const days = Math.floor((REFERENCE_DAY - first) / DAY_MS) + 1;
  const offset = Math.imul(company.id ^ 0x5bd1e995, 2654435761) >>> 0;
  return new Date(first + (offset % days) * DAY_MS).toISOString().slice(0, 10);
}
