// The plan's reads on the client's surface (entitlementOperations.ts implements them), apart so
// that types.ts names them without importing the operations.
import type { EntitlementAttributes, RecordKind, RoleType } from "../contract/index.js";

/** One search input field and whether the account may use it, as the search lookup says. */
export interface SearchFieldAccess {
  fieldName: string;
  accessGranted?: boolean;
}

export interface EntitlementOperations {
  /** The user's own entitlements of one role type (GET /platform/v1/entitlements). */
  getEntitlements(roleType: RoleType, options?: { signal?: AbortSignal }): Promise<EntitlementAttributes[]>;
  /** The search input fields of a record kind with their accessGranted (GET /data/v1/lookup/search). */
  searchInputFields(kind: RecordKind, options?: { signal?: AbortSignal }): Promise<SearchFieldAccess[]>;
}
