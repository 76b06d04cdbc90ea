// The sandbox's production profile (`--profile production`): what the real service does where
// it differs from the specification: its own routes over the same store, each calling the
// specification's operation directly (routes/operations.ts); the specification's routes are not
// registered on this profile (its operation table serves none). API under /gtm/data/v1 and
// /gtm/studio/v1, OAuth under /gtm/oauth/v1 for a confidential client, production's wire names,
// paging, studio operations, gateway errors and field entitlements. The default profile is
// untouched; /__sandbox/ endpoints stay in both.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
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

/** Where the specification keeps its API and its public-client sign-in: not on production's wire. */
const SPECIFICATION_PREFIXES = ["/data/", "/v1/", "/oauth/"];
/** Production's API behind its gateway: everything under /gtm but sign-in. */
const GATEWAY_PATH = /^\/gtm\/(?!oauth\/)/;

const notFound = async (request: FastifyRequest, reply: FastifyReply) => sendGateway(reply, gatewayNotFound(request.method, request.url));

/**
 * No route is registered under the specification's prefixes on this profile: a request there is
 * the gateway's 404, answered as it arrives (before a body is read, as the gateway answers an
 * unknown path; preflights stay CORS's). Each prefix is a scope of its own with no route, so its
 * hook runs for its not-found answer only.
 */
async function specificationPathsNotFound(app: FastifyInstance): Promise<void> {
  for (const prefix of SPECIFICATION_PREFIXES) {
    await app.register(
      async (scope) => {
        scope.addHook("onRequest", async (request, reply) => (request.method === "OPTIONS" ? undefined : notFound(request, reply)));
        scope.setNotFoundHandler(notFound);
      },
      { prefix },
    );
  }
}

export const productionFeature: SandboxFeature = async (app, { ctx, operations }) => {
  const settings = productionSettings(ctx);
  if (!settings.enabled) return;
  await specificationPathsNotFound(app);
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
