// Building blocks for filter schemas. Each filter carries a human label, a form group
// and, where its permitted values come from the lookup operation, the lookup field name,
// so the task pane form, the validator's messages and the sandbox read one definition.
import {
  Type,
  type TArray,
  type TBoolean,
  type TInteger,
  type TLiteral,
  type TObject,
  type TOptional,
  type TSchema,
  type TString,
  type TUnion,
} from "@sinclair/typebox";
import { LIMITS } from "./common.js";

export type FilterGroup = "company" | "location" | "industry" | "size" | "growth" | "funding" | "engagement" | "structure" | "person" | "signal";

export type FilterKind =
  | "text" // free text
  | "list" // comma-separated text
  | "array" // JSON array of strings
  | "integer"
  | "boolean"
  | "date" // YYYY-MM-DD
  | "choice"; // one of a fixed set

/** `S` keeps the value's schema type, so the filters object's static type has every key typed. */
export interface FilterSpec<S extends TSchema = TSchema> {
  /** What a person calls the field. */
  label: string;
  group: FilterGroup;
  kind: FilterKind;
  schema: S;
  /** Lookup field name whose values are the permitted choices. */
  lookup?: string;
  /** The lookup attribute the filter takes, when not the item's id (tech products: their dotted tag). */
  lookupValue?: "attribute";
  /** Fixed permitted values (for choice, list or array kinds). */
  values?: readonly (string | number)[];
  /** Shown under the field. */
  hint?: string;
  /** Shown expanded in the form by default. */
  common?: boolean;
}

const S = LIMITS.maxStringLength;

const DATE_PATTERN = "^\\d{4}-\\d{2}-\\d{2}$";

type Extra<S extends TSchema> = Partial<FilterSpec<S>>;

export function text(label: string, group: FilterGroup, extra: Extra<TString> = {}): FilterSpec<TString> {
  return { label, group, kind: "text", schema: Type.String({ maxLength: S }), ...extra };
}

export function list(label: string, group: FilterGroup, extra: Extra<TString> = {}): FilterSpec<TString> {
  return { label, group, kind: "list", schema: Type.String({ maxLength: S }), ...extra };
}

/** A comma-separated list whose items must come from a fixed set (case-insensitive when asked). */
export function choiceList(
  label: string,
  group: FilterGroup,
  values: readonly string[],
  caseInsensitive: boolean,
  extra: Extra<TString> = {},
): FilterSpec<TString> {
  const item = caseInsensitive ? ciItem(values) : `\\s*(?:${values.map(escapeRegExp).join("|")})\\s*`;
  const pattern = `^${item}(?:,${item})*$`;
  return {
    label,
    group,
    kind: "list",
    values,
    schema: Type.String({ maxLength: S, pattern, "x-rule": "choiceList" }),
    ...extra,
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** One item of a case-insensitive list, as a JavaScript pattern (no inline flags in JSON Schema). */
function ciItem(values: readonly string[]): string {
  const alts = values.map((v) =>
    [...v]
      .map((ch) => {
        const lower = ch.toLowerCase();
        const upper = ch.toUpperCase();
        if (lower !== upper) return `[${lower}${upper}]`;
        return escapeRegExp(ch);
      })
      .join(""),
  );
  return `\\s*(?:${alts.join("|")})\\s*`;
}

export function array(label: string, group: FilterGroup, extra: Extra<TArray<TString>> = {}): FilterSpec<TArray<TString>> {
  // Items from a fixed set are checked as literals; their static type stays string.
  const itemSchema = extra.values ? (Type.Union(extra.values.map((v) => Type.Literal(v as string))) as unknown as TString) : Type.String({ maxLength: S });
  return {
    label,
    group,
    kind: "array",
    schema: Type.Array(itemSchema, { maxItems: LIMITS.maxArrayItems }),
    ...extra,
  };
}

export function integer(
  label: string,
  group: FilterGroup,
  minimum: number,
  maximum: number = LIMITS.maxInt32,
  extra: Extra<TInteger> = {},
): FilterSpec<TInteger> {
  return { label, group, kind: "integer", schema: Type.Integer({ minimum, maximum }), ...extra };
}

/** A whole number carried as a string (the service types several bounds as strings). */
export function numericText(label: string, group: FilterGroup, extra: Extra<TString> = {}): FilterSpec<TString> {
  return {
    label,
    group,
    kind: "text",
    schema: Type.String({ maxLength: S, pattern: "^\\s*-?\\d+(\\.\\d+)?\\s*$", "x-rule": "number" }),
    ...extra,
  };
}

export function boolean(label: string, group: FilterGroup, extra: Extra<TBoolean> = {}): FilterSpec<TBoolean> {
  return { label, group, kind: "boolean", schema: Type.Boolean(), ...extra };
}

export function date(label: string, group: FilterGroup, extra: Extra<TString> = {}): FilterSpec<TString> {
  return { label, group, kind: "date", schema: Type.String({ format: "date", pattern: DATE_PATTERN }), ...extra };
}

export function choice<const V extends readonly (string | number)[]>(
  label: string,
  group: FilterGroup,
  values: V,
  extra: Extra<TUnion<TLiteral<V[number]>[]>> = {},
): FilterSpec<TUnion<TLiteral<V[number]>[]>> {
  return {
    label,
    group,
    kind: "choice",
    values,
    schema: Type.Union(values.map((v) => Type.Literal(v as V[number]))),
    ...extra,
  };
}

/** Turns a map of filter specs into a closed TypeBox object (unknown filters are errors). */
export function filtersObject<T extends Record<string, FilterSpec>>(specs: T): TObject<{ [K in keyof T]: TOptional<T[K]["schema"]> }> {
  const props: Record<string, TSchema> = {};
  for (const [name, spec] of Object.entries(specs)) props[name] = Type.Optional(spec.schema);
  // Built from the entries at run time; the mapped type above is the same shape, key by key.
  return Type.Object(props, { additionalProperties: false }) as TObject<{ [K in keyof T]: TOptional<T[K]["schema"]> }>;
}

/** A pair of bounds that must not be inverted (min greater than max is invalid). */
export interface RangePair {
  min: string;
  max: string;
}
