// Entitlement documents as the platform API answers them (gtm-platform-v1, GET
// /platform/v1/entitlements: {roleCode, roleName, roleType, value}), for the plan's tests: the
// agreed sandbox users "analyst" (every role) and "basic" (no intent, no research, no insights).
import { ROLES, type RoleType } from "../../../src/core/contract/index.js";

type Row = { roleCode: string; roleName: string; roleType: RoleType; value: string };

const row = (roleCode: string, roleType: RoleType, value = "Y"): Row => ({ roleCode, roleName: roleCode, roleType, value });

const BASIC: Row[] = [
  row(ROLES.dataApi, "feature"),
  row(ROLES.scoops, "signal"),
  row(ROLES.news, "signal"),
  row(ROLES.technologies, "signal"),
  row(ROLES.audiences, "limit", "25"),
  row(ROLES.bulkCredits, "limit", "10000"),
  row(ROLES.aiCredits, "limit", "500"),
];

const ANALYST: Row[] = [
  ...BASIC,
  row(ROLES.accountSummary, "feature"),
  row(ROLES.askAccount, "feature"),
  row(ROLES.insights, "feature"),
  row(ROLES.intent, "intent"),
];

export const USERS = { basic: BASIC, analyst: ANALYST };

/** The rows of one role type. */
export const rowsOf = (rows: readonly Row[], roleType: string) => rows.filter((r) => r.roleType === roleType);

/** The platform API's answer for one role type. */
export const entitlementsDocument = (rows: readonly Row[], roleType: string) => ({
  data: rowsOf(rows, roleType).map((r, i) => ({ id: `${roleType}-${i}`, type: "Entitlement", attributes: r })),
});

/** The search lookup's answer of input fields, the ones named refused. */
export const searchFieldsDocument = (kind: string, fields: readonly string[], refused: readonly string[] = []) => ({
  data: fields.map((fieldName) => ({
    id: fieldName,
    type: `${kind[0]!.toUpperCase()}${kind.slice(1)}SearchInput`,
    attributes: { fieldName, fieldType: "input", accessGranted: !refused.includes(fieldName) },
  })),
});
