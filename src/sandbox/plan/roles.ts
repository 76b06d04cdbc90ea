// The sandbox's roles (docs/entitlements.md): each role code of the contract with its role type
// and a readable name, the role sets of the seeded users, and the one check an operation's roles
// get (core/contract/operations.ts `roles`: the token must hold one of them). Limits are roles
// too (type "limit"): the entitlements answer gives their numbers (entitlements.ts).
import { ROLES, type RoleType } from "../../core/contract/index.js";
import type { TokenPrincipal } from "../context.js";

export interface RoleEntry {
  code: string;
  type: RoleType;
  /** The role's description as the entitlements answer names it. */
  name: string;
}

/** Every role the sandbox knows, in the contract's order. */
export const ROLE_CATALOG: readonly RoleEntry[] = [
  { code: ROLES.dataApi, type: "feature", name: "Data API: search and enrich companies and contacts" },
  { code: ROLES.dataZia, type: "feature", name: "Data API (platform licence): search and enrich companies and contacts" },
  { code: ROLES.accountSummary, type: "feature", name: "Account summaries: research briefings on a company or a contact" },
  { code: ROLES.askAccount, type: "feature", name: "Questions on an account: answers about one company" },
  { code: ROLES.insights, type: "feature", name: "Insights: the day's curated buying signals for your accounts" },
  { code: ROLES.audiences, type: "limit", name: "Audiences: how many audiences the account may keep" },
  { code: ROLES.intent, type: "intent", name: "Buyer intent: companies researching a topic" },
  { code: ROLES.scoops, type: "signal", name: "Scoops: funding, leadership changes and other company events" },
  { code: ROLES.news, type: "signal", name: "News: articles naming a company" },
  { code: ROLES.technologies, type: "signal", name: "Technologies: the software a company runs" },
  { code: ROLES.bulkCredits, type: "limit", name: "Bulk credits: records the account may enrich (its credit limit)" },
  { code: ROLES.aiCredits, type: "limit", name: "AI credits: research briefings and answers the account may ask for" },
];

/** Every role code: the analyst's, and a development token's unless it asks for fewer. */
export const ALL_ROLES: readonly string[] = ROLE_CATALOG.map((r) => r.code);

/** A plan without intent, research and insights (the basic user's): the data, the other signals and the limits. */
export const BASIC_ROLES: readonly string[] = ALL_ROLES.filter(
  (code) => !([ROLES.intent, ROLES.accountSummary, ROLES.askAccount, ROLES.insights, ROLES.dataZia] as string[]).includes(code),
);

export function roleEntry(code: string): RoleEntry | undefined {
  return ROLE_CATALOG.find((r) => r.code === code);
}

/**
 * The refusal's sentence when the principal holds none of the roles (none asked: nothing to
 * hold), else undefined. It names what the plan lacks in the user's terms, and the code.
 */
export function missingRole(principal: TokenPrincipal, roles: readonly string[]): string | undefined {
  if (roles.length === 0 || roles.some((role) => principal.roles.includes(role))) return undefined;
  const first = roles[0]!;
  const what = roleEntry(first)?.name.split(":")[0] ?? first;
  return `Your plan does not include ${what} (role ${first}). Ask your administrator to add it.`;
}
