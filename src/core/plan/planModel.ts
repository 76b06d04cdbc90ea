// The plan as the add-in reads it: the user's entitlements (role codes and their values) and the
// search filters the search lookup refused (accessGranted false). `allows` answers for one
// capability; no plan (not read yet, or the token lacks the entitlement scope) allows everything,
// and the service's refusals teach as before.
import { GRANTED, type EntitlementAttributes, type RecordKind } from "../contract/index.js";
import { refusals } from "../errors/failure.js";
import type { SearchFieldAccess } from "../api/entitlementTypes.js";
import { CAPABILITY_RULES, UNPUBLISHED_CODES, isFilterCapability, type Capability, type CapabilityRule, type FilterCapability } from "./capabilities.js";

/** A plain value (kept in the user's settings as JSON): never a token. */
export interface Plan {
  /** Each listed role code and its value as the service gave it ("Y", or a limit as a whole number). */
  roles: Record<string, string>;
  /** The search input fields the search lookup marked accessGranted false, per record kind. */
  refusedFilters: Partial<Record<RecordKind, string[]>>;
}

export type Allowance = { allowed: true } | { allowed: false; reason: string };

const ALLOWED: Allowance = { allowed: true };

/** The plan from the entitlements of every role type read, and the search lookup's input fields. */
export function planFromEntitlements(
  entitlements: readonly EntitlementAttributes[],
  searchFields: Partial<Record<RecordKind, readonly SearchFieldAccess[]>> = {},
): Plan {
  const roles: Record<string, string> = {};
  for (const e of entitlements) roles[e.roleCode] = e.value;
  const refusedFilters: Partial<Record<RecordKind, string[]>> = {};
  for (const [kind, fields] of Object.entries(searchFields) as [RecordKind, readonly SearchFieldAccess[]][]) {
    const refused = fields.filter((f) => f.accessGranted === false).map((f) => f.fieldName);
    if (refused.length > 0) refusedFilters[kind] = refused;
  }
  return { roles, refusedFilters };
}

/** A role's value as a limit: a whole number, or undefined ("Y", or absent). */
function limitOf(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value);
}

function grants(plan: Plan, rule: CapabilityRule): boolean {
  const values = rule.roles.map((code) => plan.roles[code]);
  if (rule.optionalLimit) return values.every((v) => v === undefined || limitOf(v) !== 0);
  if (rule.unpublished && !UNPUBLISHED_CODES.some((code) => plan.roles[code] !== undefined)) return true;
  return values.some((v) => v === GRANTED || (limitOf(v) ?? 0) > 0);
}

function filterAllowance(plan: Plan, capability: FilterCapability): Allowance {
  const [, kind, field] = capability.split(":") as [string, RecordKind, string];
  if (!(plan.refusedFilters[kind] ?? []).includes(field)) return ALLOWED;
  return { allowed: false, reason: refusals.planLacks("This filter", false).pane };
}

/** Whether the plan allows `capability`, and if not, why in words (the pane's sentence). */
export function allows(plan: Plan | undefined, capability: Capability): Allowance {
  if (!plan) return ALLOWED;
  if (isFilterCapability(capability)) return filterAllowance(plan, capability);
  const rule = CAPABILITY_RULES[capability];
  return grants(plan, rule) ? ALLOWED : { allowed: false, reason: refusals.planLacks(rule.label, rule.plural).pane };
}

/** The refusal (the error factory's value) for a capability the plan does not allow; undefined when it does. */
export function planRefusal(plan: Plan | undefined, capability: Exclude<Capability, FilterCapability>) {
  if (allows(plan, capability).allowed) return undefined;
  const rule = CAPABILITY_RULES[capability];
  return refusals.planLacks(rule.label, rule.plural);
}

export interface PlanLimits {
  /** Credits for new records the plan allows (the twin's lim:bulk). */
  bulkCredits?: number;
  /** AI action credits (the twin's lim:ai). */
  aiCredits?: number;
  /** Audiences the plan allows (lim:wkb). */
  audiences?: number;
}

/** The plan's limits that it lists as numbers. */
export function planLimits(plan: Plan | undefined): PlanLimits {
  if (!plan) return {};
  const read = (capability: "bulkCredits" | "aiCredits" | "audienceWrites") => limitOf(plan.roles[CAPABILITY_RULES[capability].roles[0]!]);
  const [bulkCredits, aiCredits, audiences] = [read("bulkCredits"), read("aiCredits"), read("audienceWrites")];
  return {
    ...(bulkCredits !== undefined ? { bulkCredits } : {}),
    ...(aiCredits !== undefined ? { aiCredits } : {}),
    ...(audiences !== undefined ? { audiences } : {}),
  };
}

/** Whether a stored value is a plan (a damaged entry reads as none). */
export function isPlan(value: unknown): value is Plan {
  if (typeof value !== "object" || value === null) return false;
  const { roles, refusedFilters } = value as Partial<Plan>;
  const strings = (o: unknown) => typeof o === "object" && o !== null && Object.values(o).every((v) => typeof v === "string");
  const lists = (o: unknown) => typeof o === "object" && o !== null && Object.values(o).every((v) => Array.isArray(v) && v.every((s) => typeof s === "string"));
  return strings(roles) && lists(refusedFilters);
}
