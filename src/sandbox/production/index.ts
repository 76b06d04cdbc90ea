// The sandbox's production profile (`--profile production`): what the real service does where
// it differs from the specification, added in front of the core routes rather than in them.
// API under /gtm/data/v1 and /gtm/studio/v1, OAuth under /gtm/oauth/v1 for a confidential
// client, production's wire names, paging, studio operations, gateway errors and field
// entitlements. The default profile is untouched; /__sandbox/ endpoints stay in both.
import { GATEWAY_CODES } from "../../core/contract/index.js";
import type { SandboxContext } from "../context.js";
import type { SandboxFeature } from "../plugin.js";
import { productionDataRoutes } from "./data.js";
import { ApiError } from "../errors.js";
import { gatewayNotFound, gatewayUnauthorized, sendGateway, useGatewayScopes } from "./gateway.js";
import { DEFAULT_PRODUCTION_CLIENT, productionOauthRoutes } from "./oidc.js";
import { productionStudioRoutes } from "./studio.js";
import { productionStudioWriteRoutes } from "./studioWrites.js";
import { productionSignalRoutes } from "../signals/index.js";
import { productionResearchRoutes } from "../research/index.js";
import { productionAccountRoutes } from "../accounts/routes.js";

export { DEFAULT_PRODUCTION_CLIENT } from "./oidc.js";
export { LIMITED_ACCOUNT } from "./entitlements.js";
export { GATEWAY_CODES };

/** The profile options as the sandbox's options carry them. */
function productionSettings(ctx: SandboxContext): { enabled: boolean; clientId: string; clientSecret: string } {
  const o = ctx.options;
  return {
    enabled: o.profile === "production",
    clientId: o.clientId ?? DEFAULT_PRODUCTION_CLIENT.clientId,
    clientSecret: o.clientSecret ?? DEFAULT_PRODUCTION_CLIENT.clientSecret,
  };
}

/** The core API and the default profile's public-client sign-in. */
const CORE_PATH = /^\/(data|v1|oauth)\//;
/** Production's API behind its gateway: everything under /gtm but sign-in. */
const GATEWAY_PATH = /^\/gtm\/(?!oauth\/)/;

export const productionFeature: SandboxFeature = async (app, { ctx, operations }) => {
  const settings = productionSettings(ctx);
  if (!settings.enabled) return;
  // The core's paths are not on production's wire; this profile's handlers call their operations directly.
  app.addHook("onRequest", async (request, reply) => {
    if (CORE_PATH.test(request.url) && request.method !== "OPTIONS") {
      return sendGateway(reply, gatewayNotFound(request.method, request.url));
    }
  });
  // The gateway authenticates before it routes or reads a body: without a valid token every
  // API path, known or not, is 401 (sign-in's own paths excepted).
  app.addHook("onRequest", async (request, reply) => {
    if (!GATEWAY_PATH.test(request.url) || request.method === "OPTIONS") return;
    try {
      await ctx.authenticate(request.headers.authorization);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return sendGateway(reply, gatewayUnauthorized(error.message));
      throw error;
    }
  });
  useGatewayScopes(app, ctx);
  await productionOauthRoutes(app, ctx, settings);
  await productionDataRoutes(app, operations);
  await productionStudioRoutes(app, ctx, operations);
  await productionStudioWriteRoutes(app, operations);
  await productionSignalRoutes(app, operations);
  productionResearchRoutes(app, operations);
  productionAccountRoutes(app, operations);
  // Anything else under /gtm (a wrong verb or path, GET .../rows) is the gateway's 404.
  app.all("/gtm/*", async (request, reply) => sendGateway(reply, gatewayNotFound(request.method, request.url)));
};
