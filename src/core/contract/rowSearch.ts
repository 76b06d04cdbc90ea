// Reading an audience's rows: POST .../rows/actions/search with an optional RowSearch document
// (docs/service-production.md, "Audiences"): a filter group (AND/OR of column filters) and/or
// the row ids to read. The client sends it, the sandbox's routes check it with the same schema.
import { Type, type Static } from "@sinclair/typebox";
import { LIMITS } from "./common.js";
import { validateAgainst, type ValidationIssue } from "./validate.js";

/** Filter operators a row filter may use (GET .../filter-metadata tells which a column takes). */
export const ROW_FILTER_OPERATORS = [
  "EQUALS",
  "NOT_EQUALS",
  "CONTAINS",
  "DOES_NOT_CONTAINS",
  "EMPTY",
  "NOT_EMPTY",
  "GREATER_THAN",
  "LESS_THAN",
  "IN_RANGE",
  "HAS_ONE_OF",
] as const;
export type RowFilterOperator = (typeof ROW_FILTER_OPERATORS)[number];

/** Rows pages go up to 500 (searches stop at 100). */
export const MAX_ROWS_PAGE_SIZE = 500;

const Text = Type.String({ maxLength: LIMITS.maxStringLength });

export const RowFilter = Type.Object(
  {
    type: Type.Literal("Filter"),
    columnId: Type.String({ minLength: 1, maxLength: LIMITS.maxStringLength }),
    values: Type.Array(Type.Union([Text, Type.Number()]), { maxItems: 500 }),
    filterOperator: Type.Union(ROW_FILTER_OPERATORS.map((o) => Type.Literal(o))),
  },
  { additionalProperties: false },
);
export type RowFilter = Static<typeof RowFilter>;

export const RowFilterGroup = Type.Object(
  {
    operator: Type.Union([Type.Literal("AND"), Type.Literal("OR")]),
    filters: Type.Array(RowFilter, { minItems: 1, maxItems: 50 }),
  },
  { additionalProperties: false },
);
export type RowFilterGroup = Static<typeof RowFilterGroup>;

export const RowSearchAttributes = Type.Object(
  {
    filter: Type.Optional(RowFilterGroup),
    ids: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 20000 })),
  },
  { additionalProperties: false },
);
export type RowSearchAttributes = Static<typeof RowSearchAttributes>;

export const RowSearchDocument = Type.Object(
  {
    data: Type.Object({ type: Type.Literal("RowSearch"), attributes: Type.Optional(RowSearchAttributes) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
export type RowSearchDocument = Static<typeof RowSearchDocument>;

/** The document for a row search (undefined when there is nothing to narrow: the body is optional). */
export function rowSearchDocument(search: RowSearchAttributes = {}): RowSearchDocument | undefined {
  const attributes: RowSearchAttributes = {};
  if (search.filter) attributes.filter = search.filter;
  if (search.ids) attributes.ids = search.ids;
  return Object.keys(attributes).length > 0 ? { data: { type: "RowSearch", attributes } } : undefined;
}

/** Issues of a row search body (none for an absent body). */
export function validateRowSearch(body: unknown): ValidationIssue[] {
  if (body === undefined || body === null || (typeof body === "object" && Object.keys(body).length === 0)) return [];
  return validateAgainst(RowSearchDocument, body);
}

/** Whether a row's value for one column passes a filter (text compared without case; numbers as numbers). */
export function rowFilterMatches(filter: RowFilter, value: unknown): boolean {
  const text = value === undefined || value === null ? "" : String(value);
  const lower = text.toLowerCase();
  const wanted = filter.values.map((v) => String(v).toLowerCase());
  const number = Number(text);
  const first = Number(filter.values[0]);
  switch (filter.filterOperator) {
    case "EQUALS":
      return wanted.includes(lower);
    case "NOT_EQUALS":
      return !wanted.includes(lower);
    case "CONTAINS":
      return wanted.some((w) => lower.includes(w));
    case "DOES_NOT_CONTAINS":
      return !wanted.some((w) => lower.includes(w));
    case "EMPTY":
      return text === "";
    case "NOT_EMPTY":
      return text !== "";
    case "HAS_ONE_OF":
      return wanted.includes(lower);
    case "GREATER_THAN":
      return text !== "" && number > first;
    case "LESS_THAN":
      return text !== "" && number < first;
    case "IN_RANGE":
      return text !== "" && number >= first && number <= Number(filter.values[1]);
  }
}

/** Whether a row passes the group: every filter (AND) or any (OR). */
export function rowGroupMatches(group: RowFilterGroup, valueOf: (columnId: string) => unknown): boolean {
  const hit = (f: RowFilter) => rowFilterMatches(f, valueOf(f.columnId));
  return group.operator === "AND" ? group.filters.every(hit) : group.filters.some(hit);
}
