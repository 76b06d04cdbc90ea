// What a user's plan allows (issue 43): the platform API's entitlements, as the service publishes
// them (gtm-platform-v1, GET /platform/v1/entitlements): the user's roles and limits, each
// {roleCode, roleName, roleType, value} with value "Y" (granted) or a number (a limit), read one
// role type at a time (filter[roleType] and filter[admin] are both required). The role codes the
// service publishes are those its operations name (x-api-roles); the codes for signal kinds and
// credit limits are not published and are the twin's own (docs/entitlements.md says which).
import { Type, type Static } from "@sinclair/typebox";

export const ENTITLEMENTS_PATH = "/platform/v1/entitlements";

/** The scope as the operation declares it, and as the vendor's scope list spells it: either opens it. */
export const ENTITLEMENT_SCOPES = ["api:entitlement:read", "api:entitlements:read"] as const;

export const ROLE_TYPES = ["feature", "integration", "data", "dataset_detail", "action", "intent", "limit", "info", "signal", "vertical_dataset"] as const;
export type RoleType = (typeof ROLE_TYPES)[number];

/** A granted role's value; any other value is a limit (a whole number, as text). */
export const GRANTED = "Y";

/**
 * Role codes. Published by the service (its operations' x-api-roles): the data API (fea:api or
 * fea:zia), account summary (fea:asu), questions on an account (fea:cai), insights (fea:gtmpl),
 * audiences and folders (lim:wkb, a limit). The twin's own: one per signal kind and the credit limits.
 */
export const ROLES = {
  dataApi: "fea:api",
  dataZia: "fea:zia",
  accountSummary: "fea:asu",
  askAccount: "fea:cai",
  insights: "fea:gtmpl",
  audiences: "lim:wkb",
  intent: "int:api",
  scoops: "sig:scoops",
  news: "sig:news",
  technologies: "sig:tech",
  bulkCredits: "lim:bulk",
  aiCredits: "lim:ai",
} as const;
export type RoleName = keyof typeof ROLES;

export const EntitlementsQuery = Type.Object(
  {
    "filter[admin]": Type.Union([Type.Literal("true"), Type.Literal("false")]),
    "filter[roleType]": Type.Union(ROLE_TYPES.map((t) => Type.Literal(t))),
  },
  { additionalProperties: false },
);
export type EntitlementsQuery = Static<typeof EntitlementsQuery>;

export const EntitlementAttributes = Type.Object(
  {
    roleCode: Type.String({ maxLength: 100 }),
    roleName: Type.String({ maxLength: 500 }),
    roleType: Type.String({ maxLength: 50 }),
    value: Type.String({ maxLength: 50 }),
  },
  { additionalProperties: true },
);
export type EntitlementAttributes = Static<typeof EntitlementAttributes>;

export const EntitlementsDocument = Type.Object(
  {
    data: Type.Array(Type.Object({ id: Type.String(), type: Type.Literal("Entitlement"), attributes: EntitlementAttributes }, { additionalProperties: true })),
  },
  { additionalProperties: true },
);
export type EntitlementsDocument = Static<typeof EntitlementsDocument>;

/** The query for one role type of the user's own (not admin) entitlements. */
export function entitlementsQuery(roleType: RoleType): EntitlementsQuery {
  return { "filter[admin]": "false", "filter[roleType]": roleType };
}
