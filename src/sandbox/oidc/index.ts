// The sandbox's sign-in server as a sandbox extension: oidc-provider under /oauth, its own
// login and consent pages, and its issuer trusted by the API.
import type { FastifyInstance } from "fastify";
import type { SandboxContext, SandboxExtension } from "../context.js";
import { interactionRoutes } from "./interactions.js";
import { createProvider, issuerFor, lazyProvider, mountProvider, OIDC_PREFIX, oidcSettingsFor } from "./provider.js";

export { SANDBOX_USERS, type SandboxUser } from "./users.js";
export { OIDC_PREFIX, issuerFor } from "./provider.js";

export const oidcExtension: SandboxExtension = async (app: FastifyInstance, ctx: SandboxContext) => {
  const settings = oidcSettingsFor(ctx);
  const provider = lazyProvider(ctx, issuerFor, () => createProvider(ctx, settings));

  await app.register(async (scope) => interactionRoutes(scope, () => provider().provider));

  await mountProvider(app, OIDC_PREFIX, provider);
};
