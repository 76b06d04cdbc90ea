// What the account's plan allows, read up front from its entitlements (docs/entitlements.md).
export * from "./capabilities.js";
export { allows, isPlan, planFromEntitlements, planLimits, planRefusal, type Allowance, type Plan, type PlanLimits } from "./planModel.js";
export { createPlanSource, PLAN_ROLE_TYPES, type PlanSource, type PlanSourceOptions } from "./planSource.js";
