// Which output fields the signed-in account may use (production's field entitlements). A cell
// asking a field outside the entitlement gets a clear message before any request is made, so
// the request for the other cells of its 25-record batch never carries it.
import { fieldNames, type EntityKind, type FieldResolution } from "./fields.js";
import { problems, type CellProblem } from "./problems.js";

/** The account's entitled output fields (contract names); undefined when every field may be asked. */
export type FieldEntitlements = (kind: EntityKind) => Promise<ReadonlySet<string> | undefined>;

/** The asked fields outside the entitlement (none when the lookup cannot tell: the service decides). */
export async function unentitledFields(
  entitlements: FieldEntitlements | undefined,
  kind: EntityKind,
  fields: readonly string[],
): Promise<string[]> {
  if (!entitlements) return [];
  let entitled: ReadonlySet<string> | undefined;
  try {
    entitled = await entitlements(kind);
  } catch {
    return [];
  }
  return entitled ? fields.filter((field) => !entitled.has(field)) : [];
}

/** The problem for asking fields outside the entitlement, or undefined when all may be asked. */
async function unentitledProblem(
  entitlements: FieldEntitlements | undefined,
  kind: EntityKind,
  fields: readonly string[],
): Promise<CellProblem | undefined> {
  const refused = await unentitledFields(entitlements, kind, fields);
  return refused.length > 0 ? problems.unentitled(refused) : undefined;
}

/** What is wrong with the fields a cell or a selection names: unknown, none, or not entitled. */
export async function fieldsProblem(
  entitlements: FieldEntitlements | undefined,
  kind: EntityKind,
  resolved: FieldResolution,
): Promise<CellProblem | undefined> {
  if (!resolved.ok) return problems.unknownField(kind, resolved.unknown, fieldNames(kind));
  if (resolved.fields.length === 0) return problems.noFields();
  return unentitledProblem(entitlements, kind, resolved.fields);
}

export interface SelectionFields {
  /** Every field named, in order. */
  named: string[];
  /** The fields to ask the service for. */
  asked: string[];
  /** Named fields the account may not use. */
  refused: string[];
  /** Set when nothing can be asked: unknown fields, none named, or none entitled. */
  problem?: CellProblem;
}

/** The fields of an Enrich selection: the entitled ones are asked for every row, the others only reported. */
export async function selectionFields(entitlements: FieldEntitlements | undefined, kind: EntityKind, resolved: FieldResolution): Promise<SelectionFields> {
  if (!resolved.ok) return { named: [], asked: [], refused: [], problem: (await fieldsProblem(entitlements, kind, resolved)) ?? problems.noFields() };
  const refused = await unentitledFields(entitlements, kind, resolved.fields);
  const asked = resolved.fields.filter((field) => !refused.includes(field));
  const named = [...resolved.fields];
  if (asked.length > 0) return { named, asked, refused };
  return { named, asked, refused, problem: refused.length > 0 ? problems.unentitled(refused) : problems.noFields() };
}
