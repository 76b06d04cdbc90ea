// The search form's model, separate from its components: form values -> the filters object
// the contract validates and the client sends, and validation issues -> messages per field.
import {
  ERROR_CODES,
  type FilterName,
  companySearchBody,
  contactSearchBody,
  validateCompanySearchBody,
  validateContactSearchBody,
  type FilterSpec,
  type ValidationIssue,
} from "../../core/contract/index.js";
import type { SearchKind } from "../../core/sheet/index.js";

/** What a field holds while the user edits it. */
export type FormValue = string | string[] | boolean;
export type FormValues = Record<string, FormValue | undefined>;

function isBlank(value: FormValue | undefined): boolean {
  return value === undefined || value === false || (typeof value === "string" && value.trim() === "") || (Array.isArray(value) && value.length === 0);
}

/** The group and decimal separators of a locale (the user's by default). */
function separators(locale?: string): { group: string; decimal: string } {
  const parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
  return { group: parts.find((p) => p.type === "group")?.value ?? ",", decimal: parts.find((p) => p.type === "decimal")?.value ?? "." };
}

/**
 * A number as typed in the user's locale ("1,000", "1.000", "1 000,5") in the plain form the
 * service takes ("1000", "1000.5"); text that is not a well-formed number comes back unchanged,
 * so validation still names the problem.
 */
export function plainNumber(text: string, locale?: string): string {
  const t = text.trim();
  const { group, decimal } = separators(locale);
  // Grouping spaces may be typed as ordinary spaces where the locale uses a narrow no-break one.
  const groups = /\s/.test(group) ? "[\\s\u00a0\u202f]" : group.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const dec = decimal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const grouped = new RegExp(`^(-?)(\\d{1,3}(?:${groups}\\d{3})+|\\d+)(?:${dec}(\\d+))?$`).exec(t);
  if (!grouped) return t;
  const whole = (grouped[2] ?? "").replace(/\D/g, "");
  return `${grouped[1] ?? ""}${whole}${grouped[3] !== undefined ? `.${grouped[3]}` : ""}`;
}

/** Filters that count things: a negative number is a typing mistake, refused before sending. */
const NOT_NEGATIVE: ReadonlySet<string> = new Set<FilterName>(["employeeRangeMin", "employeeRangeMax"]);

const isNumeric = (spec: FilterSpec) => spec.kind === "integer" || (spec.schema as { "x-rule"?: unknown })["x-rule"] === "number";

/** The filters object for the form's values; blank fields are left out. */
export function filtersFromForm(specs: Record<string, FilterSpec>, values: FormValues): Record<string, unknown> {
  const filters: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const value = values[name];
    if (isBlank(value) || value === undefined) continue;
    const typed = Array.isArray(value) ? value.join(",") : String(value).trim();
    const text = isNumeric(spec) ? plainNumber(typed) : typed;
    switch (spec.kind) {
      case "boolean":
        filters[name] = value === true || value === "true";
        break;
      case "array":
        filters[name] = Array.isArray(value)
          ? value
          : text
              .split(",")
              .map((s) => s.trim())
              .filter(Boolean);
        break;
      case "integer":
        // Text that is not a whole number is sent as text, so the validator says what is wrong.
        filters[name] = /^\s*-?\d+\s*$/.test(text) ? Number(text) : text;
        break;
      case "choice": {
        const numeric = spec.values?.every((v) => typeof v === "number");
        filters[name] = numeric && /^-?\d+$/.test(text) ? Number(text) : text;
        break;
      }
      default:
        filters[name] = text;
    }
  }
  return filters;
}

/** Form values for saved filters (the inverse of filtersFromForm). */
export function formFromFilters(specs: Record<string, FilterSpec>, filters: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const [name, value] of Object.entries(filters)) {
    const spec = specs[name];
    if (!spec || value === undefined || value === null) continue;
    if (spec.kind === "boolean") values[name] = value === true;
    else if (Array.isArray(value)) values[name] = value.map(String);
    else if (spec.lookup && spec.kind === "list")
      values[name] = String(value)
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    else values[name] = String(value);
  }
  return values;
}

export function validateFilters(kind: SearchKind, filters: Record<string, unknown>, specs?: Record<string, FilterSpec>): ValidationIssue[] {
  const issues = kind === "company" ? validateCompanySearchBody(companySearchBody(filters)) : validateContactSearchBody(contactSearchBody(filters));
  for (const name of NOT_NEGATIVE) {
    const value = filters[name];
    const pointer = `${ATTRIBUTES}${name}`;
    if (typeof value === "string" && /^-\d/.test(value) && !issues.some((i) => i.pointer === pointer)) {
      const label = specs?.[name]?.label ?? name;
      issues.push({ pointer, label, rule: "minimum", code: ERROR_CODES.validation, message: `${label} must be 0 or more.` });
    }
  }
  return issues;
}

const ATTRIBUTES = "/data/attributes/";

/** The form field an issue belongs to (from its JSON pointer), or undefined for the form as a whole. */
export function fieldOfIssue(issue: Pick<ValidationIssue, "pointer">): string | undefined {
  if (!issue.pointer?.startsWith(ATTRIBUTES)) return undefined;
  const field = issue.pointer.slice(ATTRIBUTES.length).split("/")[0];
  return field ? field.replace(/~1/g, "/").replace(/~0/g, "~") : undefined;
}

/** One message per field (the first), plus the issues that belong to no field. */
export function messagesByField(issues: readonly ValidationIssue[]): { fields: Record<string, string>; general: string[] } {
  const fields: Record<string, string> = {};
  const general: string[] = [];
  for (const issue of issues) {
    const field = fieldOfIssue(issue);
    if (field === undefined) general.push(issue.message);
    else fields[field] ??= issue.message;
  }
  return { fields, general };
}

/** The service's issues of a refused request when they point at fields (a 400); undefined when none does. */
export function serverIssuesOf(error: unknown): ValidationIssue[] | undefined {
  const issues = (error as { issues?: ValidationIssue[] } | undefined)?.issues ?? [];
  return issues.some((i) => i.pointer) ? issues : undefined;
}

/** The form's own issues, then the service's where the form has none at the same pointer. */
export function withServerIssues(own: readonly ValidationIssue[], server: readonly ValidationIssue[]): ValidationIssue[] {
  return [...own, ...server.filter((s) => !own.some((i) => i.pointer === s.pointer))];
}

/** The service's issues still standing once the user edits a field: those of the other fields. */
export function withoutField(server: readonly ValidationIssue[], name: string): ValidationIssue[] {
  return server.filter((i) => fieldOfIssue(i) !== name);
}
