// What the user's plan allows (docs/entitlements.md): the platform API's entitlements, one role
// type a call, and the search lookup's input fields with their accessGranted (the lookup entry,
// with the search lookup's two filters). Both go through their operation table entry
// (callOperation: the query checked before it leaves, the answer shape-checked) and are free
// reads on the client's queue.
import { OutputFieldLookupDocument, entitlementsQuery } from "../contract/index.js";
import type { ClientContext } from "./clientContext.js";
import type { EntitlementOperations } from "./entitlementTypes.js";
import { callOperation } from "./operationCall.js";

export function entitlementOperations(ctx: ClientContext): EntitlementOperations {
  return {
    async getEntitlements(roleType, options) {
      const doc = await callOperation(ctx, "getEntitlements", { query: entitlementsQuery(roleType), signal: options?.signal });
      return doc.data.map((item) => item.attributes);
    },

    async searchInputFields(kind, options) {
      const doc = await callOperation(ctx, "lookup", {
        params: { fieldName: "search" },
        query: { "filter[entity]": kind, "filter[fieldType]": "input" },
        answer: OutputFieldLookupDocument,
        signal: options?.signal,
      });
      return doc.data.map(({ attributes }) => ({
        fieldName: attributes.fieldName,
        ...(attributes.accessGranted !== undefined ? { accessGranted: attributes.accessGranted } : {}),
      }));
    },
  };
}
