// Production's dialect of the service, written once (docs/service-production.md): the wire
// names, the contact filters and sorts that differ, the error catalog, the gateway's error shape,
// the "Disallowed field" answer and the output-field lookup. The client's production edge
// (core/api/production) and the sandbox's production profile (sandbox/production) both read
// this module, so the two cannot drift.
import { Type, type Static } from "@sinclair/typebox";
import type { GatewayErrorDocument, RecordKind } from "./common.js";
import { CONTACT_SORT_FIELDS, type COMPANY_FILTERS, type CONTACT_FILTERS } from "./search.js";
import type { CompanyOutputField } from "./enrich.js";

/** Search filters: contract name -> production name. */
export const PRODUCTION_FILTER_NAMES = {
  serviceContactsMin: "zoominfoContactsMin",
  serviceContactsMax: "zoominfoContactsMax",
} as const satisfies Partial<Record<keyof typeof CONTACT_FILTERS, string>>;

/** Company output fields: contract name -> production name. */
export const PRODUCTION_OUTPUT_FIELD_NAMES = {
  numberOfContactsInService: "numberOfContactsInZoomInfo",
  siteRank: "alexaRank",
} as const satisfies Partial<Record<CompanyOutputField, string>>;

/** Every renamed name (filters and fields), contract -> production. */
export const PRODUCTION_WIRE_NAMES: Readonly<Record<string, string>> = { ...PRODUCTION_FILTER_NAMES, ...PRODUCTION_OUTPUT_FIELD_NAMES };
const FROM_WIRE: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(PRODUCTION_WIRE_NAMES).map(([contract, wire]) => [wire, contract]));

/** A contract name as production spells it (unchanged when the two agree). */
export const toProductionName = (name: string): string => (Object.hasOwn(PRODUCTION_WIRE_NAMES, name) ? PRODUCTION_WIRE_NAMES[name]! : name);
/** A production name as the contract spells it (unchanged when the two agree). */
export const fromProductionName = (name: string): string => (Object.hasOwn(FROM_WIRE, name) ? FROM_WIRE[name]! : name);
/** Whether `name` is one of the contract's names production does not know. */
export const isRenamedInProduction = (name: string): boolean => Object.hasOwn(PRODUCTION_WIRE_NAMES, name);

/** Contact search in production has none of these company-only filters. */
export const CONTACT_SEARCH_REMOVED: readonly (keyof typeof COMPANY_FILTERS)[] = [
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
];

/** Search filters production takes as text where the contract has numbers (its published contact search schema). */
export const PRODUCTION_TEXT_FILTERS: readonly string[] = ["contactAccuracyScoreMin", "contactAccuracyScoreMax"];
export const isProductionTextFilter = (name: string): boolean => PRODUCTION_TEXT_FILTERS.includes(name);

/** Contact sorts production takes: the contract's and three more. */
export const PRODUCTION_CONTACT_SORT_FIELDS = [...CONTACT_SORT_FIELDS, "hierarchy", "sourceCount", "lastMentioned"] as const;

/**
 * The error catalog (code -> status, meaning, whether repeating can help). `retryable` here is
 * the catalog's; an answer's own `retryable` member wins when present.
 */
export const PRODUCTION_ERROR_CATALOG = {
  PFAPI0001: { status: 400, retryable: false, meaning: "an output field the account is not entitled to (named)" },
  PFAPI0002: { status: 400, retryable: false, meaning: "validation errors, a missing parameter, or a page number above 100" },
  PFAPI0003: { status: 400, retryable: false, meaning: "an invalid body, field or field type" },
  PFAPI0004: { status: 400, retryable: false, meaning: "not enough input: at least one of some fields is needed" },
  PFAPI0005: { status: 400, retryable: false, meaning: "an invalid field" },
  PFAPI0006: { status: 400, retryable: false, meaning: "an invalid input value, or a minimum above its maximum" },
  PFAPI0007: { status: 500, retryable: true, meaning: "a service error" },
  PFAPI0008: { status: 400, retryable: false, meaning: "an invalid field type" },
  PFAPI0009: { status: 400, retryable: false, meaning: "invalid or disallowed output fields" },
  PFAPI0010: { status: 504, retryable: true, meaning: "the service timed out" },
  PFAPI0011: { status: 400, retryable: false, meaning: "the credit limit is reached" },
  ZI0001: { status: 401, retryable: false, meaning: "an invalid, missing or expired token" },
  ZI0002: { status: 403, retryable: false, meaning: "the app lacks the scope (the message names the resource)" },
  ZI0003: { status: 403, retryable: false, meaning: "no access to the operation in this subscription" },
  ZI0004: { status: 429, retryable: true, meaning: "the rate limit is used up" },
  ZI9998: { status: 404, retryable: false, meaning: "a wrong method or path" },
} as const;
export type ProductionErrorCode = keyof typeof PRODUCTION_ERROR_CATALOG;
export const PRODUCTION_ERROR_CODES = Object.keys(PRODUCTION_ERROR_CATALOG) as ProductionErrorCode[];

export function isProductionErrorCode(code: string | undefined): code is ProductionErrorCode {
  return code !== undefined && Object.hasOwn(PRODUCTION_ERROR_CATALOG, code);
}

/** The gateway's codes by what they answer. */
export const GATEWAY_CODES = {
  unauthorized: "ZI0001",
  missingScope: "ZI0002",
  noAccess: "ZI0003",
  rateLimited: "ZI0004",
  notFound: "ZI9998",
} as const satisfies Record<string, ProductionErrorCode>;

/** The gateway's code for a status it answers itself (401, 403, 404, 429). */
export function gatewayCodeFor(status: number): ProductionErrorCode | undefined {
  if (status === 401) return GATEWAY_CODES.unauthorized;
  if (status === 403) return GATEWAY_CODES.noAccess;
  if (status === 404) return GATEWAY_CODES.notFound;
  if (status === 429) return GATEWAY_CODES.rateLimited;
  return undefined;
}

/** The gateway's error document: {"error": {code, message, status, requestId, retryable}}. */
export function gatewayErrorBody(status: number, code: string, message: string, requestId: string): GatewayErrorDocument {
  const retryable = isProductionErrorCode(code) ? PRODUCTION_ERROR_CATALOG[code].retryable : status === 429 || status >= 500;
  return { error: { code, message, status: String(status), requestId, retryable } };
}

/** The code of an answer refusing an unentitled output field (it names the field). */
export const DISALLOWED_FIELD_CODE = "PFAPI0001" satisfies ProductionErrorCode;

/** Production's message for an unentitled output field (`name` as production spells it). */
export const disallowedFieldMessage = (wireName: string): string => `Disallowed field '${wireName}' requested in query`;

/** "Disallowed field 'revenue' …", "Disallowed fields: revenue, phone", "disallowed field revenue". */
const DISALLOWED = /disallowed fields?\s*:?\s*((?:['"`]?[A-Za-z][A-Za-z0-9_]*['"`]?(?:\s*,\s*|\s+and\s+)?)+)/i;
const QUOTED = /['"`]([A-Za-z][A-Za-z0-9_]*)['"`]/g;
const FIELD_CODES: readonly string[] = ["PFAPI0001", "PFAPI0009"];

/** The output fields (contract names) an answer refuses as unentitled, from PFAPI0001/PFAPI0009 error objects. */
export function disallowedFieldsOf(errors: readonly { code?: string; detail?: string; title?: string }[]): string[] {
  const names = new Set<string>();
  for (const error of errors) {
    if (!error.code || !FIELD_CODES.includes(error.code)) continue;
    const text = error.detail ?? error.title ?? "";
    const named = DISALLOWED.exec(text)?.[1];
    if (!named) continue;
    const quoted = [...named.matchAll(QUOTED)].map((m) => m[1]!);
    // Quoted names are the fields; unquoted, the words of the list up to the first that is not one.
    const words = quoted.length > 0 ? quoted : named.split(/\s*,\s*|\s+and\s+|\s+/).slice(0, named.includes(",") ? undefined : 1);
    for (const word of words) if (/^[A-Za-z][A-Za-z0-9_]*$/.test(word)) names.add(fromProductionName(word));
  }
  return [...names];
}

/** The output-field lookup of one entity (a hint: accessGranted is documented for input fields). */
export function outputFieldLookupPath(entity: RecordKind): string {
  return `/data/v1/lookup/enrich?filter[entity]=${entity}&filter[fieldType]=output`;
}

export const OutputFieldLookupDocument = Type.Object(
  {
    data: Type.Array(
      Type.Object(
        {
          id: Type.Optional(Type.String()),
          type: Type.Optional(Type.String()),
          attributes: Type.Object(
            {
              fieldName: Type.String(),
              description: Type.Optional(Type.String()),
              fieldType: Type.Optional(Type.String()),
              accessGranted: Type.Optional(Type.Boolean()),
            },
            { additionalProperties: true },
          ),
        },
        { additionalProperties: true },
      ),
    ),
  },
  { additionalProperties: true },
);
export type OutputFieldLookupDocument = Static<typeof OutputFieldLookupDocument>;
