// Production's names on the wire (the table is the contract's, core/contract/production.ts). The
// sandbox's core speaks the specification's names; this profile translates at its edge, both
// ways, and refuses the specification's names (as the production service does not know them).
import {
  CONTACT_SEARCH_REMOVED,
  ERROR_CODES,
  PRODUCTION_FILTER_NAMES,
  PRODUCTION_OUTPUT_FIELD_NAMES,
  fromProductionName,
  isProductionTextFilter,
  toProductionName,
  type RecordKind,
  type ValidationIssue,
} from "../../core/contract/index.js";

const REMOVED_FROM_CONTACT_SEARCH: ReadonlySet<string> = new Set(CONTACT_SEARCH_REMOVED);
const has = (table: object, name: string) => Object.hasOwn(table, name);

export const toWireField = toProductionName;

function unknownName(pointer: string, name: string, kind: string): ValidationIssue {
  return { pointer, label: name, rule: "unknownName", code: ERROR_CODES.validation, message: `"${name}" is not a ${kind} of this service.` };
}

/**
 * Search filters from the wire to the specification's names (and numbers where production sends
 * a number as text). Returns the translated
 * attributes, or issues when a name this profile does not accept is present.
 */
export function searchFiltersFromWire(
  attributes: Record<string, unknown>,
  kind: RecordKind,
): { attributes: Record<string, unknown>; issues: ValidationIssue[] } {
  const out: Record<string, unknown> = {};
  const issues: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(attributes)) {
    const pointer = `/data/attributes/${name}`;
    if (has(PRODUCTION_FILTER_NAMES, name) || (kind === "contact" && REMOVED_FROM_CONTACT_SEARCH.has(name))) {
      issues.push(unknownName(pointer, name, `${kind} search filter`));
      continue;
    }
    out[fromProductionName(name)] = isProductionTextFilter(name) && typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  }
  return { attributes: out, issues };
}

/** Output fields from the wire; the specification's names are refused. */
export function outputFieldsFromWire(fields: unknown, pointer: string): { fields: unknown; issues: ValidationIssue[] } {
  if (!Array.isArray(fields)) return { fields, issues: [] };
  const issues: ValidationIssue[] = [];
  fields.forEach((name, i) => {
    if (typeof name === "string" && has(PRODUCTION_OUTPUT_FIELD_NAMES, name)) {
      issues.push({ ...unknownName(`${pointer}/${i}`, name, "output field"), code: ERROR_CODES.invalidOutputFields });
    }
  });
  return { fields: fields.map((name) => (typeof name === "string" ? fromProductionName(name) : name)), issues };
}

/** Record attributes to the wire: renamed keys, everything else as it was. */
export function attributesToWire(attributes: unknown): unknown {
  if (!attributes || typeof attributes !== "object" || Array.isArray(attributes)) return attributes;
  return Object.fromEntries(Object.entries(attributes as Record<string, unknown>).map(([k, v]) => [toWireField(k), v]));
}
