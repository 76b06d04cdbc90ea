// What the user's plan allows (docs/entitlements.md): the platform API's entitlements, one role
// type a call (the query checked with the contract before it leaves, the answer shape-checked),
// and the search lookup's input fields with their accessGranted (the same lookup path as every
// lookup, with the search lookup's two filters). Both are free reads on the client's queue.
import {
  ENTITLEMENTS_PATH,
  EntitlementsDocument,
  EntitlementsQuery,
  OutputFieldLookupDocument,
  PATHS,
  entitlementsQuery,
  validateAgainst,
  type RecordKind,
} from "../contract/index.js";
import { queryString, refuse, withSignal, type ClientContext } from "./clientContext.js";
import type { EntitlementOperations } from "./entitlementTypes.js";

/** The search lookup's path for one entity's input fields. */
export function searchFieldLookupPath(kind: RecordKind): string {
  return `${PATHS.lookup("search")}${queryString({ "filter[entity]": kind, "filter[fieldType]": "input" })}`;
}

export function entitlementOperations(ctx: ClientContext): EntitlementOperations {
  return {
    async getEntitlements(roleType, options) {
      const query = entitlementsQuery(roleType);
      const operation = `GET ${ENTITLEMENTS_PATH}`;
      const issues = validateAgainst(EntitlementsQuery, query);
      if (issues.length > 0) refuse(issues, operation);
      const doc = await ctx.call(EntitlementsDocument, {
        method: "GET",
        url: `${ctx.baseUrl}${ENTITLEMENTS_PATH}${queryString(query)}`,
        operation,
        idempotent: true,
        ...withSignal(options?.signal),
      });
      return doc.data.map((item) => item.attributes);
    },

    async searchInputFields(kind, options) {
      const doc = await ctx.call(OutputFieldLookupDocument, {
        method: "GET",
        url: `${ctx.baseUrl}${searchFieldLookupPath(kind)}`,
        operation: `GET ${PATHS.lookup("search")}`,
        idempotent: true,
        ...withSignal(options?.signal),
      });
      return doc.data.map(({ attributes }) => ({
        fieldName: attributes.fieldName,
        ...(attributes.accessGranted !== undefined ? { accessGranted: attributes.accessGranted } : {}),
      }));
    },
  };
}
