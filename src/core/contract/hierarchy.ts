// Accounts as they are structured (issue 42): corporate families (the data API's corporate-hierarchy
// enrich: up to 25 companies a request, each with its parentage and its family tree), and the
// enrich lookup's entities for it and for the org chart (orgChart.ts). Requests are checked
// strictly (an unknown member is a 400, as everywhere); answers are read openly, in the shapes the
// service publishes (both profiles answer in them).
import { Type, type Static } from "@sinclair/typebox";
import { LIMITS } from "./common.js";
import { SUB_UNIT_TYPES } from "./search.js";
import { validateAgainst, type ValidationIssue } from "./validate.js";

export const CORPORATE_HIERARCHY_PATH = "/data/v1/companies/corporate-hierarchy/enrich";
/** GET with filter[entity] and filter[fieldType]: the fields an enrich operation takes and gives. */
export const LOOKUP_ENRICH_PATH = "/data/v1/lookup/enrich";

/** Companies in one hierarchy request (the service's maxItems). */
export const HIERARCHY_MAX_INPUTS = LIMITS.maxEnrichInputs;

export interface FieldDescription {
  description: string;
}

/** The hierarchy's input and output fields, as the enrich lookup lists them. */
export const HIERARCHY_INPUT_FIELDS = {
  companyId: { description: "The company's id." },
  companyName: { description: "The company's name." },
  companyWebsite: { description: "The company's website or domain." },
} as const satisfies Record<string, FieldDescription>;
export const HIERARCHY_OUTPUT_FIELDS = {
  companyId: { description: "The matched company's id." },
  parentage: { description: "The company's parents, from its direct parent up to the ultimate parent." },
  familyTree: { description: "The family from the ultimate parent down: subsidiaries, acquisitions, former names and locations." },
} as const satisfies Record<string, FieldDescription>;
export type HierarchyOutputField = keyof typeof HIERARCHY_OUTPUT_FIELDS;
export const HIERARCHY_OUTPUT_FIELD_NAMES = Object.keys(HIERARCHY_OUTPUT_FIELDS) as HierarchyOutputField[];

/** The enrich lookup's entities of these operations, and the item type of each field list. */
export const ACCOUNT_LOOKUP_ENTITIES = {
  "corporate-hierarchy": { input: "CorporateHierarchyEnrichInput", output: "CorporateHierarchyEnrichOutput" },
  orgChart: { input: "OrgChartEnrichInput", output: "OrgChartEnrichOutput" },
} as const;
export type AccountLookupEntity = keyof typeof ACCOUNT_LOOKUP_ENTITIES;

/**
 * A family member's relationship to its parent, as a family node's `subUnitTypeInfo`. The service
 * publishes Subsidiary = 4 and Acquisition = 5 in its example; the other ids are ours.
 */
export const SUB_UNIT_TYPE_INFO = {
  UNSPECIFIED: { typeId: 0, typeDescription: "Unspecified" },
  LOCATION: { typeId: 1, typeDescription: "Location" },
  DIVISION: { typeId: 2, typeDescription: "Division" },
  FORMER_NEW_NAME: { typeId: 3, typeDescription: "Former Name" },
  SUBSIDIARY: { typeId: 4, typeDescription: "Subsidiary" },
  ACQUISITION: { typeId: 5, typeDescription: "Acquisition" },
} as const satisfies Record<(typeof SUB_UNIT_TYPES)[number], { typeId: number; typeDescription: string }>;

const S = LIMITS.maxStringLength;
const strict = { additionalProperties: false } as const;
const Open = { additionalProperties: true } as const;
const opt = Type.Optional;

// ---- Corporate hierarchy: request ----

export const HierarchyMatchInput = Type.Object(
  {
    companyId: opt(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
    companyName: opt(Type.String({ maxLength: S })),
    companyWebsite: opt(Type.String({ maxLength: S })),
  },
  { ...strict, minProperties: 1 },
);
export type HierarchyMatchInput = Static<typeof HierarchyMatchInput>;

const hierarchyFieldName = Type.Union(
  HIERARCHY_OUTPUT_FIELD_NAMES.map((f) => Type.Literal(f)),
  { "x-rule": "outputField" },
);

export const CorporateHierarchyEnrichRequest = Type.Object(
  {
    data: Type.Object(
      {
        type: Type.Literal("CorporateHierarchyEnrich"),
        attributes: Type.Object(
          {
            matchCompanyInput: Type.Array(HierarchyMatchInput, { minItems: 1, maxItems: HIERARCHY_MAX_INPUTS }),
            outputFields: Type.Array(hierarchyFieldName, { minItems: 1, maxItems: HIERARCHY_OUTPUT_FIELD_NAMES.length }),
          },
          strict,
        ),
      },
      strict,
    ),
  },
  strict,
);
export type CorporateHierarchyEnrichRequest = Static<typeof CorporateHierarchyEnrichRequest>;

export function hierarchyBody(
  inputs: HierarchyMatchInput[],
  outputFields: readonly HierarchyOutputField[] = HIERARCHY_OUTPUT_FIELD_NAMES,
): CorporateHierarchyEnrichRequest {
  return { data: { type: "CorporateHierarchyEnrich", attributes: { matchCompanyInput: inputs, outputFields: [...outputFields] } } };
}

export function validateHierarchyBody(body: unknown): ValidationIssue[] {
  return validateAgainst(CorporateHierarchyEnrichRequest, body);
}

// ---- Corporate hierarchy: answer ----

const SubUnitTypeInfo = Type.Object({ typeId: opt(Type.Integer()), typeDescription: Type.String() }, Open);

/** A company below the top of the family, and the companies below it. */
export const FamilyNode = Type.Recursive(
  (Self) =>
    Type.Object(
      {
        companyId: opt(Type.Integer()),
        name: opt(Type.String()),
        city: opt(Type.String()),
        state: opt(Type.String()),
        subUnitTypeInfo: SubUnitTypeInfo,
        familyNodes: opt(Type.Array(Self)),
      },
      Open,
    ),
  { $id: "FamilyNode" },
);
export type FamilyNode = Static<typeof FamilyNode>;

/** The top of a family (the ultimate parent) and its tree. */
export const FamilyTreeTop = Type.Object(
  {
    companyId: opt(Type.Integer()),
    name: opt(Type.String()),
    city: opt(Type.String()),
    state: opt(Type.String()),
    familyNodes: opt(Type.Array(FamilyNode)),
  },
  Open,
);
export type FamilyTreeTop = Static<typeof FamilyTreeTop>;

/** One parent of the matched company (the first its direct parent, the last the ultimate parent). */
export const ParentageItem = Type.Object(
  {
    companyId: opt(Type.String()),
    companyName: opt(Type.String()),
    city: opt(Type.String()),
    state: opt(Type.String()),
    subUnitType: opt(Type.String()),
    subUnitDesc: opt(Type.String()),
    acquiredByDate: opt(Type.String()),
  },
  Open,
);
export type ParentageItem = Static<typeof ParentageItem>;

const HierarchyMeta = Type.Object(
  { matchStatus: Type.String(), input: Type.Record(Type.String(), Type.Unknown()), warnings: opt(Type.Array(Type.Unknown())) },
  Open,
);

export const CorporateHierarchyItem = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal("CorporateHierarchy"),
    attributes: Type.Object({ companyId: opt(Type.Integer()), parentage: opt(Type.Array(ParentageItem)), familyTree: opt(Type.Array(FamilyTreeTop)) }, Open),
    meta: opt(HierarchyMeta),
  },
  Open,
);
export type CorporateHierarchyItem = Static<typeof CorporateHierarchyItem>;

export const HierarchyNoMatchItem = Type.Object({ id: Type.String(), type: Type.Literal("NoMatch"), meta: opt(HierarchyMeta) }, Open);
export type HierarchyNoMatchItem = Static<typeof HierarchyNoMatchItem>;

export const CorporateHierarchyDocument = Type.Object({ data: Type.Array(Type.Union([CorporateHierarchyItem, HierarchyNoMatchItem])) }, Open);
export type CorporateHierarchyDocument = Static<typeof CorporateHierarchyDocument>;

/** One company of a family tree as a row: what `=BIZ.FAMILY` spills and a roll-up reads. */
export interface FamilyRow {
  companyId: number | undefined;
  name: string;
  parentId: number | undefined;
  parentName: string;
  ultimateParentId: number | undefined;
  ultimateParentName: string;
  /** The relationship to its parent ("Subsidiary", "Acquisition", ...); "" for the ultimate parent. */
  relationship: string;
  /** 0 for the ultimate parent, 1 for the companies right below it, and so on. */
  level: number;
}

/** A family tree as rows, top first, each company before the companies below it. */
export function familyRows(top: FamilyTreeTop): FamilyRow[] {
  const ultimate = { id: top.companyId, name: top.name ?? "" };
  const rows: FamilyRow[] = [
    {
      companyId: ultimate.id,
      name: ultimate.name,
      parentId: undefined,
      parentName: "",
      ultimateParentId: ultimate.id,
      ultimateParentName: ultimate.name,
      relationship: "",
      level: 0,
    },
  ];
  const visit = (nodes: readonly FamilyNode[] | undefined, parent: { id: number | undefined; name: string }, level: number): void => {
    for (const node of nodes ?? []) {
      const name = node.name ?? "";
      rows.push({
        companyId: node.companyId,
        name,
        parentId: parent.id,
        parentName: parent.name,
        ultimateParentId: ultimate.id,
        ultimateParentName: ultimate.name,
        relationship: node.subUnitTypeInfo.typeDescription,
        level,
      });
      visit(node.familyNodes, { id: node.companyId, name }, level + 1);
    }
  };
  visit(top.familyNodes, ultimate, 1);
  return rows;
}

/** The enrich lookup's answer: one item per field. */
export const EnrichLookupDocument = Type.Object(
  {
    data: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          type: Type.String(),
          attributes: Type.Object(
            { fieldName: Type.String(), description: Type.String(), fieldType: opt(Type.String()), accessGranted: opt(Type.Boolean()) },
            Open,
          ),
        },
        Open,
      ),
    ),
  },
  Open,
);
export type EnrichLookupDocument = Static<typeof EnrichLookupDocument>;
