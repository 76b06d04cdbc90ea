// The sandbox's sign-in server as a sandbox extension: oidc-provider under /oauth, its own
// login and consent pages, and its issuer trusted by the API.
import type { IncomingMessage } from "node:http";
import type { FastifyInstance } from "fastify";
import type { SandboxContext, SandboxExtension } from "../context.js";
import { interactionRoutes } from "./interactions.js";
import { createProvider, issuerFor, lazyProvider, OIDC_PREFIX, oidcSettingsFor } from "./provider.js";

export { SANDBOX_USERS, type SandboxUser } from "./users.js";
export { OIDC_PREFIX, issuerFor } from "./provider.js";

export const oidcExtension: SandboxExtension = async (app: FastifyInstance, ctx: SandboxContext) => {
  const settings = oidcSettingsFor(ctx);
  const provider = lazyProvider(ctx, issuerFor, () => createProvider(ctx, settings));

  await app.register(async (scope) => interactionRoutes(scope, () => provider().provider));

  await app.register(async (scope) => {
    // oidc-provider reads request bodies itself: leave the stream untouched.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_req, _payload, done) => done(null));
    scope.all(`${OIDC_PREFIX}/*`, async (req, reply) => {
      const { handle } = provider();
      reply.hijack();
      const raw = req.raw as IncomingMessage & { originalUrl?: string };
      const url = raw.url ?? "/";
      raw.originalUrl = url;
      raw.url = url.slice(OIDC_PREFIX.length) || "/";
      await handle(raw, reply.raw);
    });
  });
};
