// GET /data/v1/lookup/search (docs/entitlements.md): the search operations' input fields, each
// with accessGranted from the user's plan, and their output fields. Company and contact search
// fields are open to every plan that has the data API; the fields of a signal search (intent,
// scoops, news) are granted when the user holds that signal's role. The specification profile
// names fields as the contract does, production as its wire does (its output items are the
// search's, CompanySearchOutput, where this lookup used to answer the enrich lookup's items).
import {
  COMPANY_FILTERS,
  COMPANY_OUTPUT_FIELD_NAMES,
  CONTACT_FILTERS,
  CONTACT_OUTPUT_FIELD_NAMES,
  ERROR_CODES,
  ROLES,
  type FilterSpec,
} from "../../core/contract/index.js";
import type { TokenPrincipal } from "../context.js";
import { ApiError } from "../errors.js";
import { toWireField } from "../production/names.js";
import { isSignalSearchEntity, signalSearchFieldDocument } from "../signals/production.js";

type Profile = "specification" | "production";
type FieldDocument = { data: { id: string; type: string; attributes: Record<string, unknown> }[] };

const SIGNAL_ROLES = { intent: ROLES.intent, scoop: ROLES.scoops, news: ROLES.news } as const;

function recordInputs(entity: "company" | "contact", profile: Profile): FieldDocument {
  const filters: Record<string, FilterSpec> = entity === "company" ? COMPANY_FILTERS : CONTACT_FILTERS;
  const type = entity === "company" ? "CompanySearchInput" : "ContactSearchInput";
  return {
    data: Object.entries(filters).map(([name, spec]) => {
      const fieldName = profile === "production" ? toWireField(name) : name;
      return { id: fieldName, type, attributes: { fieldName, description: spec.label, fieldType: "input", accessGranted: true } };
    }),
  };
}

function recordOutputs(entity: "company" | "contact", profile: Profile): FieldDocument {
  const names: readonly string[] = entity === "company" ? COMPANY_OUTPUT_FIELD_NAMES : CONTACT_OUTPUT_FIELD_NAMES;
  const type = entity === "company" ? "CompanySearchOutput" : "ContactSearchOutput";
  return {
    data: names.map((name) => {
      const fieldName = profile === "production" ? toWireField(name) : name;
      return { id: fieldName, type, attributes: { fieldName, description: `The ${entity}'s ${fieldName}.`, fieldType: "output" } };
    }),
  };
}

const refuse = (parameter: string, message: string) => new ApiError(400, ERROR_CODES.validation, message, { parameter });

/** The answer to filter[entity] and filter[fieldType] (output when left out) for this user. */
export function searchFieldAnswer(query: Record<string, string | undefined>, principal: TokenPrincipal, profile: Profile): FieldDocument {
  const entity = query["filter[entity]"];
  const fieldType = query["filter[fieldType]"] ?? "output";
  if (fieldType !== "input" && fieldType !== "output") throw refuse("filter[fieldType]", 'filter[fieldType] must be "input" or "output".');
  if (isSignalSearchEntity(entity)) {
    const doc = signalSearchFieldDocument(entity, fieldType);
    if (fieldType === "output") return doc;
    const granted = principal.roles.includes(SIGNAL_ROLES[entity]);
    return { data: doc.data.map((item) => ({ ...item, attributes: { ...item.attributes, accessGranted: granted } })) };
  }
  if (entity !== "company" && entity !== "contact") throw refuse("filter[entity]", 'filter[entity] must be "company", "contact", "intent", "scoop" or "news".');
  return fieldType === "input" ? recordInputs(entity, profile) : recordOutputs(entity, profile);
}
