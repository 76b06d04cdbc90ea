// GET /platform/v1/entitlements (docs/entitlements.md): the user's roles of one role type, each
// with value "Y" (granted) or, for a limit, the number as text. Both filters are required, as the
// service declares them; asking for an administrator's entitlements (filter[admin]=true) is
// refused, since no sandbox user is an administrator.
import { ERROR_CODES, GRANTED, ROLE_TYPES, ROLES, type EntitlementsDocument, type RoleType, type ValidationIssue } from "../../core/contract/index.js";
import type { TokenPrincipal } from "../context.js";
import { stringQuery } from "../routes/validation.js";
import { ROLE_CATALOG } from "./roles.js";

/** Audiences an account may keep (lim:wkb): the service publishes no number; the twin's own. */
export const AUDIENCES_ALLOWED = 100;

/** The numbers behind the limit roles, read from the account's stores at call time. */
export interface PlanLimits {
  bulkCredits: number;
  aiCredits: number;
  audiences: number;
}

export interface EntitlementsAsk {
  admin: boolean;
  roleType: RoleType;
}

const ADMIN = "filter[admin]";
const ROLE_TYPE = "filter[roleType]";

const issue = (parameter: string, message: string, rule: string): ValidationIssue => ({
  parameter,
  label: parameter,
  rule,
  code: ERROR_CODES.validation,
  message,
});

/** The query's issues (every one at once) and, when it has none, what it asks. */
export function readEntitlementsQuery(raw: unknown): { issues: ValidationIssue[]; value?: EntitlementsAsk } {
  const params = stringQuery(raw);
  const issues = Object.keys(params)
    .filter((name) => name !== ADMIN && name !== ROLE_TYPE)
    .map((name) => issue(name, `${name} is not a parameter of this operation.`, "unknown"));
  const admin = params[ADMIN];
  if (admin === undefined) issues.push(issue(ADMIN, `${ADMIN} is required: true for an administrator's entitlements, false for your own.`, "required"));
  else if (admin !== "true" && admin !== "false") issues.push(issue(ADMIN, `${ADMIN} must be true or false.`, "boolean"));
  const roleType = params[ROLE_TYPE];
  const types = ROLE_TYPES.join(", ");
  if (roleType === undefined) issues.push(issue(ROLE_TYPE, `${ROLE_TYPE} is required: one of ${types}.`, "required"));
  else if (!(ROLE_TYPES as readonly string[]).includes(roleType)) issues.push(issue(ROLE_TYPE, `${ROLE_TYPE} must be one of ${types}.`, "oneOf"));
  if (issues.length > 0) return { issues };
  return { issues, value: { admin: admin === "true", roleType: roleType as RoleType } };
}

function limitOf(code: string, limits: PlanLimits): number | undefined {
  if (code === ROLES.bulkCredits) return limits.bulkCredits;
  if (code === ROLES.aiCredits) return limits.aiCredits;
  if (code === ROLES.audiences) return limits.audiences;
  return undefined;
}

/** One entry per role of the type the user holds: "Y", or the limit as text. */
export function entitlementsDocument(principal: TokenPrincipal, roleType: RoleType, limits: PlanLimits): EntitlementsDocument {
  const held = ROLE_CATALOG.filter((role) => role.type === roleType && principal.roles.includes(role.code));
  return {
    data: held.map((role) => {
      const limit = limitOf(role.code, limits);
      return {
        id: role.code,
        type: "Entitlement" as const,
        attributes: { roleCode: role.code, roleName: role.name, roleType: role.type, value: limit === undefined ? GRANTED : String(limit) },
      };
    }),
  };
}
