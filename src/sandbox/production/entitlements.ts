// Field entitlements: which output fields an account may use. Production fails a whole
// request that asks for one unentitled field (400 PFAPI0001 naming it) and does not say so in
// its output-field lookup; one seeded account lacks a few fields so the add-in's handling of
// that can be tried.
import { COMPANY_OUTPUT_FIELD_NAMES, CONTACT_OUTPUT_FIELD_NAMES, type RecordKind } from "../../core/contract/index.js";
import { toWireField } from "./names.js";

/** The account of the production profile's limited user (README lists the user). */
export const LIMITED_ACCOUNT = "limited-fields";

/** Fields (specification names) the limited account may not use. */
const LIMITED_ACCOUNT_MISSING = {
  company: ["revenue", "revenueRange", "phone", "fax"],
  contact: ["phone", "mobilePhone", "email"],
} as const;

export type EntityKind = RecordKind;

function entitledFields(account: string, entity: EntityKind): string[] {
  const all: readonly string[] = entity === "company" ? COMPANY_OUTPUT_FIELD_NAMES : CONTACT_OUTPUT_FIELD_NAMES;
  if (account !== LIMITED_ACCOUNT) return [...all];
  const missing: readonly string[] = LIMITED_ACCOUNT_MISSING[entity];
  return all.filter((f) => !missing.includes(f));
}

/** Requested fields (specification names) the account may not use. */
export function unentitled(account: string, entity: EntityKind, fields: readonly string[]): string[] {
  const allowed = new Set(entitledFields(account, entity));
  return fields.filter((f) => !allowed.has(f));
}

/**
 * The output-field lookup: every output field of the entity under its production name, for any
 * account (production does not cut the list to the entitlement; accessGranted is documented for
 * input fields only, so output items carry none).
 */
export function outputFieldDocument(entity: EntityKind) {
  const all: readonly string[] = entity === "company" ? COMPANY_OUTPUT_FIELD_NAMES : CONTACT_OUTPUT_FIELD_NAMES;
  const type = entity === "company" ? "CompanyEnrichOutput" : "ContactEnrichOutput";
  return {
    data: all.map((field) => {
      const name = toWireField(field);
      return { id: name, type, attributes: { fieldName: name, description: `The ${entity}'s ${name}.`, fieldType: "output" } };
    }),
  };
}
