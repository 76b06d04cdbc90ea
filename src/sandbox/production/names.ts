// Production's names on the wire. The sandbox's core speaks the specification's names; this
// profile translates at its edge, both ways, and refuses the specification's names (as the
// production service does not know them).
import { ERROR_CODES, type RecordKind, type ValidationIssue } from "../../core/contract/index.js";

/** Search filters: specification name -> production name. */
const FILTER_NAMES: Readonly<Record<string, string>> = {
  serviceContactsMin: "zoominfoContactsMin",
  serviceContactsMax: "zoominfoContactsMax",
};

/** Company output fields: specification name -> production name. */
const OUTPUT_FIELD_NAMES: Readonly<Record<string, string>> = {
  numberOfContactsInService: "numberOfContactsInZoomInfo",
  siteRank: "alexaRank",
};

/** Contact search in production lacks these company-only filters. */
const CONTACT_SEARCH_REMOVED = new Set([
  "businessModel",
  "certified",
  "excludeDefunctCompanies",
  "marketingDepartmentBudgetMin",
  "marketingDepartmentBudgetMax",
  "financeDepartmentBudgetMin",
  "financeDepartmentBudgetMax",
  "itDepartmentBudgetMin",
  "itDepartmentBudgetMax",
  "hrDepartmentBudgetMin",
  "hrDepartmentBudgetMax",
]);

const invert = (table: Readonly<Record<string, string>>) => Object.fromEntries(Object.entries(table).map(([spec, prod]) => [prod, spec]));
const FILTERS_FROM_WIRE = invert(FILTER_NAMES);
const FIELDS_FROM_WIRE = invert(OUTPUT_FIELD_NAMES);

export const toWireField = (name: string): string => OUTPUT_FIELD_NAMES[name] ?? name;
const fromWireField = (name: string): string => FIELDS_FROM_WIRE[name] ?? name;

function unknownName(pointer: string, name: string, kind: string): ValidationIssue {
  return { pointer, label: name, rule: "unknownName", code: ERROR_CODES.validation, message: `"${name}" is not a ${kind} of this service.` };
}

/**
 * Search filters from the wire to the specification's names. Returns the translated
 * attributes, or issues when a name this profile does not accept is present.
 */
export function searchFiltersFromWire(attributes: Record<string, unknown>, kind: RecordKind): { attributes: Record<string, unknown>; issues: ValidationIssue[] } {
  const out: Record<string, unknown> = {};
  const issues: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(attributes)) {
    const pointer = `/data/attributes/${name}`;
    if (name in FILTER_NAMES || (kind === "contact" && CONTACT_SEARCH_REMOVED.has(name))) {
      issues.push(unknownName(pointer, name, `${kind} search filter`));
      continue;
    }
    out[FILTERS_FROM_WIRE[name] ?? name] = value;
  }
  return { attributes: out, issues };
}

/** Output fields from the wire; the specification's names are refused. */
export function outputFieldsFromWire(fields: unknown, pointer: string): { fields: unknown; issues: ValidationIssue[] } {
  if (!Array.isArray(fields)) return { fields, issues: [] };
  const issues: ValidationIssue[] = [];
  fields.forEach((name, i) => {
    if (typeof name === "string" && name in OUTPUT_FIELD_NAMES) {
      issues.push({ ...unknownName(`${pointer}/${i}`, name, "output field"), code: ERROR_CODES.invalidOutputFields });
    }
  });
  return { fields: fields.map((name) => (typeof name === "string" ? fromWireField(name) : name)), issues };
}

/** Record attributes to the wire: renamed keys, everything else as it was. */
export function attributesToWire(attributes: unknown): unknown {
  if (!attributes || typeof attributes !== "object" || Array.isArray(attributes)) return attributes;
  return Object.fromEntries(Object.entries(attributes as Record<string, unknown>).map(([k, v]) => [toWireField(k), v]));
}
