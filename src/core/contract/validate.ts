// The one validator that both the client (before sending) and the sandbox (on receipt) use,
// so the two give the same verdict on the same input. Issues carry a JSON pointer into the
// request body (or a query parameter name), a human label, the rule, and a plain message.
// Search's own rules (cross-field rules, page and sort parameters) are in validateSearch.ts.
import { FormatRegistry, type TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { ValueErrorType, type ValueError } from "@sinclair/typebox/errors";
import { ERROR_CODES } from "./common.js";
import { CONTACT_FILTERS } from "./search.js";
import { CompanyEnrichBody, ContactEnrichBody } from "./enrich.js";
import { AudienceEnrichBody } from "./account.js";
import type { FilterSpec } from "./fields.js";

export interface ValidationIssue {
  /** RFC 6901 pointer into the request body, when the issue is in the body. */
  pointer?: string;
  /** Query or path parameter name, when the issue is in a parameter. */
  parameter?: string;
  /** What a person calls the field. */
  label: string;
  /** A short rule name, stable for tests and for mapping. */
  rule: string;
  /** The service's error code for this kind of issue. */
  code: string;
  /** A sentence a sales-ops user understands. */
  message: string;
}

function isValidDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
}
if (!FormatRegistry.Has("date")) FormatRegistry.Set("date", isValidDate);

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();
/** The compiled checker of a schema, compiled once (requests here, answers in the client). */
export function compiledCheck(schema: TSchema): TypeCheck<TSchema> {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

type Labels = Record<string, string>;

const BODY_LABELS: Labels = {
  "": "Request",
  "/data": "Request data",
  "/data/type": "Request type",
  "/data/attributes": "Filters",
  "/data/attributes/matchCompanyInput": "Companies to enrich",
  "/data/attributes/matchPersonInput": "Contacts to enrich",
  "/data/attributes/outputFields": "Fields",
  "/data/attributes/requiredFields": "Required fields",
  "/data/attributes/scope": "Scope",
  "/data/attributes/rows": "Rows",
  "/data/attributes/columns": "Columns",
};

function labelFor(pointer: string, filters: Record<string, FilterSpec> | undefined): string {
  if (BODY_LABELS[pointer]) return BODY_LABELS[pointer];
  const parts = pointer
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (filters && parts[0] === "data" && parts[1] === "attributes" && parts[2]) {
    // Own keys only: a member named "constructor" or "toString" is not a filter.
    const spec = Object.hasOwn(filters, parts[2]) ? filters[parts[2]] : undefined;
    if (spec) return spec.label;
    return `"${parts[2]}"`;
  }
  const inputIdx = parts.findIndex((p) => p === "matchCompanyInput" || p === "matchPersonInput");
  if (inputIdx >= 0 && parts[inputIdx + 1] !== undefined) {
    const n = Number(parts[inputIdx + 1]) + 1;
    const what = parts[inputIdx] === "matchCompanyInput" ? "Company" : "Contact";
    return parts[inputIdx + 2] ? `${what} ${n}: ${parts[inputIdx + 2]}` : `${what} ${n}`;
  }
  const last = parts[parts.length - 1];
  const parent = parts[parts.length - 2];
  if (parent && /^\d+$/.test(last ?? "")) return `${BODY_LABELS["/" + parts.slice(0, -1).join("/")] ?? parent} item ${Number(last) + 1}`;
  return last ?? "Request";
}

/**
 * The label the validator gives the field at `pointer` in a search, enrichment or audience
 * body, so a client reading the service's error objects (which carry no label) names the
 * field exactly as its own check would.
 */
export function labelForPointer(pointer: string): string {
  const member = pointer.split("/")[3];
  const notAFilter = member !== undefined && NON_FILTER_MEMBERS.has(member);
  return labelFor(pointer, notAFilter ? undefined : CONTACT_FILTERS);
}
const NON_FILTER_MEMBERS = new Set(["matchCompanyInput", "matchPersonInput", "outputFields", "requiredFields", "scope", "rows", "columns"]);

function typeName(schema: TSchema): string {
  const t = schema.type;
  if (t === "integer") return "a whole number";
  if (t === "number") return "a number";
  if (t === "boolean") return "true or false";
  if (t === "string") return "text";
  if (t === "array") return "a list";
  if (t === "object") return "an object";
  return "a valid value";
}

function literalValues(schema: TSchema): unknown[] | undefined {
  const anyOf = schema.anyOf as TSchema[] | undefined;
  if (!anyOf || !anyOf.every((s) => "const" in s)) return undefined;
  return anyOf.map((s) => s.const as unknown);
}

function describe(error: ValueError, label: string): { rule: string; message: string; code: string } {
  const s = error.schema;
  const v = ERROR_CODES.validation;
  switch (error.type) {
    case ValueErrorType.ObjectAdditionalProperties:
      return { rule: "unknown", code: v, message: `${label} is not a field this request accepts.` };
    case ValueErrorType.ObjectRequiredProperty:
      return { rule: "required", code: v, message: `${label} is required.` };
    case ValueErrorType.ObjectMinProperties:
      return { rule: "required", code: v, message: `${label} needs at least one value.` };
    case ValueErrorType.StringMaxLength:
      return { rule: "maxLength", code: v, message: `${label} must be at most ${s.maxLength} characters.` };
    case ValueErrorType.StringMinLength:
      return {
        rule: "minLength",
        code: v,
        message: Number(s.minLength) > 1 ? `${label} must be at least ${s.minLength} characters.` : `${label} must not be empty.`,
      };
    case ValueErrorType.ArrayMaxItems:
      return { rule: "maxItems", code: v, message: `${label} can have at most ${s.maxItems} items.` };
    case ValueErrorType.ArrayMinItems:
      return { rule: "minItems", code: v, message: `${label} needs at least ${s.minItems} item${s.minItems === 1 ? "" : "s"}.` };
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
      return { rule: "minimum", code: ERROR_CODES.invalidValue, message: `${label} must be ${s.minimum} or more.` };
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMaximum:
      return { rule: "maximum", code: ERROR_CODES.invalidValue, message: `${label} must be ${s.maximum} or less.` };
    case ValueErrorType.Integer:
      return { rule: "type", code: v, message: `${label} must be a whole number.` };
    case ValueErrorType.StringFormat:
      return { rule: "date", code: v, message: `${label} must be a real date written as YYYY-MM-DD.` };
    case ValueErrorType.StringPattern:
      return { ...patternMessage(s, label), code: ERROR_CODES.invalidValue };
    case ValueErrorType.Union: {
      const values = literalValues(s);
      if (values) {
        const rule = s["x-rule"] === "outputField" ? "outputField" : "oneOf";
        const code = rule === "outputField" ? ERROR_CODES.invalidOutputFields : ERROR_CODES.invalidValue;
        if (rule === "outputField") {
          return { rule, code, message: `${JSON.stringify(error.value)} is not a field the service returns. Valid fields: ${values.join(", ")}.` };
        }
        return { rule, code, message: `${label} must be one of: ${values.join(", ")}.` };
      }
      return { rule: "type", code: v, message: `${label} has a value of the wrong kind.` };
    }
    case ValueErrorType.Literal:
      return { rule: "oneOf", code: v, message: `${label} must be ${JSON.stringify(s.const)}.` };
    default:
      return { rule: "type", code: v, message: `${label} must be ${typeName(s)}.` };
  }
}

function patternMessage(schema: TSchema, label: string): { rule: string; message: string } {
  switch (schema["x-rule"]) {
    case "zipCode":
      return { rule: "zipCode", message: `${label} may contain only letters, digits, spaces, commas and hyphens.` };
    case "fourDigitCodes":
      return { rule: "fourDigitCodes", message: `${label} must be four-digit codes separated by commas.` };
    case "number":
      return { rule: "number", message: `${label} must be a number.` };
    case "uuid":
      return { rule: "uuid", message: `${label} must be an id like 3f2b1c9e-1234-4abc-9def-0123456789ab.` };
    case "choiceList":
      // schemaIssues names the permitted values from the filter's spec.
      return { rule: "oneOf", message: `${label} has a value that is not allowed.` };
    default:
      return { rule: "pattern", message: `${label} is not in the expected form.` };
  }
}

/** Schema issues, one per field (the first problem found for each pointer); any contract schema. */
export function validateAgainst(schema: TSchema, value: unknown, filters?: Record<string, FilterSpec>): ValidationIssue[] {
  const check = compiledCheck(schema);
  if (check.Check(value)) return [];
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const error of check.Errors(value)) {
    // A union reports its branches' failures at the same path; the first entry is enough.
    if (seen.has(error.path)) continue;
    seen.add(error.path);
    const label = labelFor(error.path, filters);
    const d = describe(error, label);
    const issue: ValidationIssue = { pointer: error.path, label, ...d };
    if (d.rule === "oneOf" && error.type === ValueErrorType.StringPattern) {
      const name = error.path.split("/")[3] ?? "";
      const spec = filters && Object.hasOwn(filters, name) ? filters[name] : undefined;
      if (spec?.values) issue.message = `${label} must be a comma-separated list of: ${spec.values.join(", ")}.`;
    }
    issues.push(issue);
  }
  return issues;
}

const ATTR = "/data/attributes";

export function validateCompanyEnrichBody(body: unknown): ValidationIssue[] {
  return validateAgainst(CompanyEnrichBody, body);
}

export function validateContactEnrichBody(body: unknown): ValidationIssue[] {
  return validateAgainst(ContactEnrichBody, body);
}

/** Audience enrichment (docs/service.md, "Audiences and jobs"): ROW needs at least one row; rows must not repeat. */
export function validateAudienceEnrichBody(body: unknown): ValidationIssue[] {
  const issues = validateAgainst(AudienceEnrichBody, body);
  const attrs = (body as { data?: { attributes?: { scope?: unknown; rows?: unknown } } } | null)?.data?.attributes;
  if (issues.length === 0 && attrs && attrs.scope === "ROW") {
    const rows = attrs.rows;
    if (!Array.isArray(rows) || rows.length === 0) {
      issues.push({
        pointer: `${ATTR}/rows`,
        label: "Rows",
        rule: "required",
        code: ERROR_CODES.validation,
        message: "Choose at least one row when the scope is ROW.",
      });
    }
  }
  return issues;
}

/** One sentence summing up a list of issues, for a status line or a Search button tooltip. */
export function summarizeIssues(issues: readonly ValidationIssue[]): string {
  if (issues.length === 0) return "";
  const first = issues[0]!;
  return issues.length === 1 ? first.message : `${first.message} (and ${issues.length - 1} more to fix)`;
}
