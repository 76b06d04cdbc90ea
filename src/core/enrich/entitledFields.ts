// Which output fields the signed-in account may use (production's field entitlements). A cell
// asking a field outside the entitlement gets a clear message before any request is made, so
// the request for the other cells of its 25-record batch never carries it.
import { fieldNames, type EntityKind, type FieldResolution } from "./fields.js";
import { problems, type CellProblem } from "./problems.js";

/** The account's entitled output fields (contract names); undefined when every field may be asked. */
export type FieldEntitlements = (kind: EntityKind) => Promise<ReadonlySet<string> | undefined>;

/** The problem for asking fields outside the entitlement, or undefined when all may be asked. */
async function unentitledProblem(
  entitlements: FieldEntitlements | undefined,
  kind: EntityKind,
  fields: readonly string[],
): Promise<CellProblem | undefined> {
  if (!entitlements) return undefined;
  let entitled: ReadonlySet<string> | undefined;
  try {
    entitled = await entitlements(kind);
  } catch {
    // The lookup could not tell: the service decides.
    return undefined;
  }
  if (!entitled) return undefined;
  const refused = fields.filter((field) => !entitled.has(field));
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
