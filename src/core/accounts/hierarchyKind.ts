// A company's corporate family as a kind of enrichment (docs/accounts.md): keyed by the company id
// (a website or name is matched first, in the same pass), 25 companies a request, a credit per
// company new to the account (so the daily cap and the plan count it), cached like every record,
// so a recalculation sends nothing. The record is flat fields about the company's parent, its
// ultimate parent and its place in the family, and the family itself as rows (familyRows).
import { familyRows, HIERARCHY_MAX_INPUTS, type FamilyRow, type OutputFieldSpec, type ParentageItem } from "../contract/index.js";
import type { HierarchyAnswer } from "../api/hierarchyTypes.js";
import type { EnrichRecord } from "../api/types.js";
import { callOptions, COMPANY_KEYED, companyIdOf, type EnrichClient, type EnrichmentKind } from "../enrich/kindDeclaration.js";

export const HIERARCHY_KIND = "hierarchy";

/** The fields of a company's family record (what Enrich selection offers and the cells read). */
export const HIERARCHY_OUTPUT_FIELDS = {
  parentId: { label: "Parent id", type: "integer" },
  parentName: { label: "Parent", type: "string" },
  parentCity: { label: "Parent city", type: "string" },
  parentState: { label: "Parent state", type: "string" },
  relationship: { label: "Relationship to parent", type: "string" },
  acquiredDate: { label: "Acquired on", type: "date" },
  ultimateParentId: { label: "Ultimate parent id", type: "integer" },
  ultimateParentName: { label: "Ultimate parent", type: "string" },
  ultimateParentCity: { label: "Ultimate parent city", type: "string" },
  ultimateParentState: { label: "Ultimate parent state", type: "string" },
  level: { label: "Level in family", type: "integer" },
  familySize: { label: "Companies in family", type: "integer" },
  family: { label: "Family (rows)", type: "list" },
} as const satisfies Record<string, OutputFieldSpec>;

const idNumber = (value: unknown): number | undefined => {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  return /^[0-9]{1,15}$/.test(text) ? Number(text) : undefined;
};

const place = (
  prefix: "parent" | "ultimateParent",
  item: ParentageItem | undefined,
  fallback: { id?: number; name?: string; city?: string; state?: string },
) => ({
  [`${prefix}Id`]: idNumber(item?.companyId) ?? fallback.id ?? "",
  [`${prefix}Name`]: item?.companyName ?? fallback.name ?? "",
  [`${prefix}City`]: item?.city ?? fallback.city ?? "",
  [`${prefix}State`]: item?.state ?? fallback.state ?? "",
});

/**
 * A matched company's family record. A company at the top of its family has no parent (empty
 * fields) and is its own ultimate parent, at level 0.
 */
export function hierarchyAttributes(answer: HierarchyAnswer): Record<string, unknown> {
  const top = answer.familyTree[0];
  const rows: FamilyRow[] = top ? familyRows(top) : [];
  const self = rows.find((row) => row.companyId !== undefined && row.companyId === answer.companyId);
  const direct = answer.parentage[0];
  const atTop = answer.parentage.length === 0;
  const topPlace = atTop ? { ...(answer.companyId !== undefined ? { id: answer.companyId } : {}), ...(top ?? {}) } : {};
  return {
    ...place("parent", direct, {}),
    relationship: self?.relationship ?? direct?.subUnitDesc ?? direct?.subUnitType ?? "",
    acquiredDate: direct?.acquiredByDate ?? "",
    ...place("ultimateParent", answer.parentage[answer.parentage.length - 1], { ...topPlace, ...(top?.companyId !== undefined ? { id: top.companyId } : {}) }),
    level: self?.level ?? answer.parentage.length,
    familySize: rows.length,
    family: rows,
  };
}

function hierarchyClient(client: EnrichClient): Required<Pick<EnrichClient, "enrichHierarchy">> {
  if (!client.enrichHierarchy) throw new Error("This client has no corporate-hierarchy operation.");
  return client as Required<Pick<EnrichClient, "enrichHierarchy">>;
}

/** The hierarchy kind: one corporate-hierarchy request for up to 25 company ids. */
export const hierarchyKind: EnrichmentKind = {
  kind: HIERARCHY_KIND,
  label: "Corporate family",
  outputFields: HIERARCHY_OUTPUT_FIELDS,
  defaultFields: ["ultimateParentId", "ultimateParentName", "relationship"],
  matchDefaultFields: ["ultimateParentId", "ultimateParentName", "relationship"],
  minimalFields: Object.keys(HIERARCHY_OUTPUT_FIELDS),
  companions: false,
  maxInputs: HIERARCHY_MAX_INPUTS,
  spends: true,
  ...COMPANY_KEYED,
  async send(client, seal, options) {
    const { inputs } = seal();
    const request = callOptions(options);
    const answers = await hierarchyClient(client).enrichHierarchy(
      inputs.map((input) => ({ companyId: companyIdOf(input) })),
      request,
    );
    return answers.map((answer, i): EnrichRecord<object> => ({
      input: inputs[i]!,
      matchStatus: answer.matchStatus,
      outcome: answer.outcome,
      ...(answer.outcome === "matched" ? { id: String(answer.companyId ?? companyIdOf(inputs[i]!)) } : {}),
      attributes: answer.outcome === "matched" ? hierarchyAttributes(answer) : {},
    }));
  },
  cached: (attributes) => attributes,
};
