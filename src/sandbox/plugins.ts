// Every feature of the sandbox, in the order the app registers them (a feature is a plugin:
// plugin.ts). Each adds its specification operations to the operation table (routes on the
// specification profile only); the production profile adds its own routes under /gtm, which call them.
import { accountsFeature } from "./accounts/routes.js";
import { audiencesFeature } from "./audiences/index.js";
import { oidcFeature } from "./oidc/index.js";
import { planFeature } from "./plan/index.js";
import { sandboxPlugin, type SandboxPlugin } from "./plugin.js";
import { productionFeature } from "./production/index.js";
import { researchRoutes } from "./research/index.js";
import { adminRoutes } from "./routes/admin.js";
import { enrichRoutes } from "./routes/enrich.js";
import { lookupUsageRoutes } from "./routes/lookupUsage.js";
import { searchRoutes } from "./routes/search.js";
import { signalRoutes } from "./signals/index.js";

export const SANDBOX_PLUGINS: readonly SandboxPlugin[] = [
  sandboxPlugin("search", searchRoutes),
  sandboxPlugin("enrich", enrichRoutes),
  sandboxPlugin("accounts", accountsFeature),
  sandboxPlugin("lookup and usage", lookupUsageRoutes),
  sandboxPlugin("signals", signalRoutes),
  sandboxPlugin("research", researchRoutes),
  sandboxPlugin("development endpoints", adminRoutes),
  sandboxPlugin("sign-in", oidcFeature),
  sandboxPlugin("audiences", audiencesFeature),
  sandboxPlugin("production profile", productionFeature),
  // After the production profile: on it, its routes are under /gtm behind the gateway's hooks.
  sandboxPlugin("plan and insights", planFeature),
];
