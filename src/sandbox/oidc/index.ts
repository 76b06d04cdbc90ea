// The sandbox's sign-in server as a sandbox feature (plugin.ts): oidc-provider under /oauth, its own
// login and consent pages, and its issuer trusted by the API. The specification profile's only:
// production signs in under /gtm/oauth/v1 (production/oidc.ts).
import type { FastifyInstance } from "fastify";
import type { SandboxFeature } from "../plugin.js";
import { interactionRoutes } from "./interactions.js";
import { createProvider, issuerFor, lazyProvider, mountProvider, OIDC_PREFIX, oidcSettingsFor } from "./provider.js";

export { SANDBOX_USERS, type SandboxUser } from "./users.js";
export { OIDC_PREFIX, issuerFor } from "./provider.js";

export const oidcFeature: SandboxFeature = async (app: FastifyInstance, { ctx }) => {
  if (ctx.options.profile === "production") return;
  const settings = oidcSettingsFor(ctx);
  const provider = lazyProvider(ctx, issuerFor, () => createProvider(ctx, settings));

  await app.register(async (scope) => interactionRoutes(scope, () => provider().provider));

  await mountProvider(app, OIDC_PREFIX, provider);
};
