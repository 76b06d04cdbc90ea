// The enrich lookup (GET /data/v1/lookup/enrich?filter[entity]=…&filter[fieldType]=…) for the
// corporate hierarchy and the org chart: the fields each takes (input) and gives (output), in
// the service's item shape. Input items say whether the account may use the field (every
// account may here); output items carry no accessGranted, as the service documents it for
// input fields only. The departments an org chart takes are the departments lookup's.
import {
  ACCOUNT_LOOKUP_ENTITIES,
  HIERARCHY_INPUT_FIELDS,
  HIERARCHY_OUTPUT_FIELDS,
  ORG_CHART_INPUT_FIELDS,
  ORG_CHART_OUTPUT_FIELDS,
  type AccountLookupEntity,
  type EnrichLookupDocument,
  type FieldDescription,
} from "../../core/contract/index.js";

const FIELDS: Record<AccountLookupEntity, Record<"input" | "output", Readonly<Record<string, FieldDescription>>>> = {
  "corporate-hierarchy": { input: HIERARCHY_INPUT_FIELDS, output: HIERARCHY_OUTPUT_FIELDS },
  orgChart: { input: ORG_CHART_INPUT_FIELDS, output: ORG_CHART_OUTPUT_FIELDS },
};

export function isAccountLookupEntity(entity: unknown): entity is AccountLookupEntity {
  return typeof entity === "string" && Object.hasOwn(ACCOUNT_LOOKUP_ENTITIES, entity);
}

/** The entity's input or output fields (undefined for a field type other than these two). */
export function accountLookupDocument(entity: AccountLookupEntity, fieldType: string | undefined): EnrichLookupDocument | undefined {
  if (fieldType !== "input" && fieldType !== "output") return undefined;
  const type = ACCOUNT_LOOKUP_ENTITIES[entity][fieldType];
  return {
    data: Object.entries(FIELDS[entity][fieldType]).map(([fieldName, field]) => ({
      id: fieldName,
      type,
      attributes: { fieldName, description: field.description, fieldType, ...(fieldType === "input" ? { accessGranted: true } : {}) },
    })),
  };
}
