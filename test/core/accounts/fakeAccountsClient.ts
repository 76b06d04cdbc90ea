// A scripted client for the account cells and Enrich selection's family columns: the match
// client's companies (test/core/enrich/fakeMatchClient.ts) and a corporate family among them, by
// id, counting its hierarchy requests and the org charts it is asked for (none, from a cell).
import type { HierarchyAnswer, OrgChartMember } from "../../../src/core/api/index.js";
import type { FamilyTreeTop, HierarchyMatchInput, ParentageItem } from "../../../src/core/contract/index.js";
import { FakeMatchClient } from "../enrich/fakeMatchClient.js";

// acme (101) tops the family; contoso (102) is its subsidiary; c1.example (10001) was acquired by contoso.
const TREE: FamilyTreeTop = {
  companyId: 101,
  name: "ACME",
  city: "Boston",
  familyNodes: [
    {
      companyId: 102,
      name: "CONTOSO",
      subUnitTypeInfo: { typeId: 4, typeDescription: "Subsidiary" },
      familyNodes: [{ companyId: 10001, name: "C1", subUnitTypeInfo: { typeId: 5, typeDescription: "Acquisition" } }],
    },
  ],
};
const up = (id: number, name: string, type: string): ParentageItem => ({ companyId: String(id), companyName: name, subUnitType: type, subUnitDesc: type });
const PARENTAGE: Record<number, ParentageItem[]> = {
  101: [],
  102: [up(101, "ACME", "Subsidiary")],
  10001: [up(102, "CONTOSO", "Acquisition"), up(101, "ACME", "Subsidiary")],
};

/** The match client, plus corporate hierarchy by id (a family of its own for any other generated id) and an org chart it must never be asked for. */
export class AccountsClient extends FakeMatchClient {
  readonly hierarchyCalls: number[][] = [];
  orgChartCalls = 0;

  async enrichHierarchy(inputs: HierarchyMatchInput[]): Promise<HierarchyAnswer[]> {
    if (inputs.length > 25) throw new Error("more than 25 companies in one request");
    this.hierarchyCalls.push(inputs.map((i) => i.companyId!));
    await Promise.resolve();
    return inputs.map((input) => {
      const id = input.companyId!;
      const parentage = PARENTAGE[id] ?? (id > 10001 ? [] : undefined);
      if (!parentage) return { input, matchStatus: "NO_MATCH", outcome: "noMatch", parentage: [], familyTree: [] };
      const familyTree = PARENTAGE[id] ? [TREE] : [{ companyId: id, name: `C${id - 10000}` }];
      return { input, matchStatus: "FULL_MATCH", outcome: "matched", companyId: id, parentage, familyTree };
    });
  }

  async orgChart(): Promise<OrgChartMember[]> {
    this.orgChartCalls += 1;
    return [];
  }
}
