// Production's authorization server: /gtm/oauth/v1/authorize and /gtm/oauth/v1/token for one
// confidential client (HTTP Basic or client_secret_post; a request without its credentials is
// 401 invalid_client), PKCE S256 and state required, no discovery document, no ID token unless
// openid is asked, a refresh token on every code exchange (rotating, single-use), and all the
// app's scopes when none is asked.
import type { FastifyInstance } from "fastify";
import Provider, { type Configuration } from "oidc-provider";
import { SCOPES } from "../../core/contract/index.js";
import type { SandboxContext } from "../context.js";
import { grantAsked } from "../oidc/consent.js";
import { PLAN_SCOPES } from "../oidc/users.js";
import { interactionSteps, type InteractionRequest } from "../oidc/interactionSteps.js";
import { errorPage, loginPage } from "../oidc/pages.js";
import { addinConfiguration, lazyProvider, mountProvider, oidcSettingsFor } from "../oidc/provider.js";
import { gatewayNotFound, sendGateway } from "./gateway.js";
import { AUDIENCE_SCOPES } from "./studio.js";
import { checkProductionCredentials, findProductionUser } from "./users.js";

const PRODUCTION_OAUTH_PREFIX = "/gtm/oauth/v1";
export const DEFAULT_PRODUCTION_CLIENT = { clientId: "bizdata-excel-addin", clientSecret: "sandbox-client-secret" } as const;
/** Every scope the sandbox's production app is registered for. */
const APP_SCOPES = [...Object.values(SCOPES), ...PLAN_SCOPES, AUDIENCE_SCOPES.read, AUDIENCE_SCOPES.manage];

function productionIssuer(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, "")}${PRODUCTION_OAUTH_PREFIX}`;
}

function createProductionProvider(ctx: SandboxContext, client: { clientId: string; clientSecret: string }): Provider {
  const shared = addinConfiguration(ctx, oidcSettingsFor(ctx), client, APP_SCOPES.join(" "));
  const configuration: Configuration = {
    ...shared,
    scopes: ["openid", "offline_access"],
    claims: { openid: ["sub"] },
    routes: { authorization: "/authorize", token: "/token" },
    // Production answers every code exchange with a refresh token (no offline_access needed).
    issueRefreshToken: (_ctx, c) => c.grantTypeAllowed("refresh_token"),
    findAccount: (_ctx, sub) => {
      const user = findProductionUser(sub);
      return user ? { accountId: user.id, claims: () => ({ sub: user.id }) } : undefined;
    },
    extraTokenClaims: (_ctx, token) => {
      const accountId = "accountId" in token ? token.accountId : undefined;
      const user = accountId ? findProductionUser(accountId) : undefined;
      // Who signed in, for the add-in's account header (the token answer carries no ID token).
      return user ? { roles: user.roles, account: user.account, email: user.email, name: user.name } : undefined;
    },
    interactions: { url: (_ctx, interaction) => `${PRODUCTION_OAUTH_PREFIX}/interaction/${interaction.uid}` },
    // The token endpoint is for the organization's server (the broker), not for browsers.
    clientBasedCORS: () => false,
  };
  const provider = new Provider(productionIssuer(ctx.options.publicUrl), configuration);
  // A token request with no client authentication at all is a confidential client's 401
  // invalid_client, as production answers it (oidc-provider would say 400 invalid_request).
  provider.use(async (koa, next) => {
    await next();
    const body = koa.body as { error?: unknown; error_description?: unknown } | undefined;
    if (
      koa.path.endsWith("/token") &&
      koa.status === 400 &&
      body?.error === "invalid_request" &&
      body.error_description === "no client authentication mechanism provided"
    ) {
      koa.status = 401;
      koa.set("WWW-Authenticate", 'Basic realm="token"');
      koa.body = {
        error: "invalid_client",
        error_description: "client authentication failed: send the client id and secret (HTTP Basic, or client_id and client_secret in the form body)",
      };
    }
  });
  return provider;
}

/** Paths of the provider this profile exposes (no discovery, userinfo or registration). */
const EXPOSED = /^\/(authorize(\/[^/?]+)?|token)(\?|$)/;

export async function productionOauthRoutes(app: FastifyInstance, ctx: SandboxContext, client: { clientId: string; clientSecret: string }): Promise<void> {
  const provider = lazyProvider(ctx, productionIssuer, () => createProductionProvider(ctx, client));

  await app.register(async (scope) => {
    scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    interactionRoutes(scope, () => provider().provider);
  });

  await mountProvider(app, PRODUCTION_OAUTH_PREFIX, provider, (req, reply, path) => {
    let inner = path;
    if (!EXPOSED.test(inner)) return sendGateway(reply, gatewayNotFound(req.method, req.raw.url ?? "/"));
    // No scope asked: every scope the app is registered for.
    if (req.method === "GET" && /^\/authorize(\?|$)/.test(inner)) {
      const [pathOnly, query = ""] = inner.split("?");
      const params = new URLSearchParams(query);
      if (!params.get("scope")?.trim()) params.set("scope", APP_SCOPES.join(" "));
      inner = `${pathOnly}?${params.toString()}`;
    }
    // The token endpoint authenticates the confidential client by HTTP Basic or by client_id and
    // client_secret in the form body (client_secret_post): oidc-provider accepts either for a
    // client registered with a secret, and answers 401 invalid_client when neither is sent.
    return inner;
  });
}

/** Login, then consent given at once for the scopes the user holds (production's login UI decides that part). */
function interactionRoutes(app: FastifyInstance, getProvider: () => Provider): void {
  const { base, html, details, finish } = interactionSteps(getProvider, PRODUCTION_OAUTH_PREFIX);
  const login = (uid: string, email?: string, error?: string) =>
    loginPage({
      action: `${base(uid)}/login`,
      abortAction: `${base(uid)}/abort`,
      clientName: "Excel add-in",
      ...(email ? { email } : {}),
      ...(error ? { error } : {}),
    });

  app.get<{ Params: { uid: string } }>(`${PRODUCTION_OAUTH_PREFIX}/interaction/:uid`, async (req, reply) => {
    const interaction = await details(req as InteractionRequest, reply);
    if (!interaction) return reply;
    const user = interaction.session?.accountId ? findProductionUser(interaction.session.accountId) : undefined;
    if (interaction.prompt.name === "login" || !user) return html(reply, 200, login(interaction.uid));
    const provider = getProvider();
    const grant = interaction.grantId
      ? await provider.Grant.find(interaction.grantId)
      : new provider.Grant({ accountId: user.id, clientId: String(interaction.params.client_id) });
    if (!grant) return html(reply, 400, errorPage("Sign-in expired", "This sign-in page has expired. Close this window and start signing in again."));
    grantAsked(grant, interaction.prompt.details, user.scopes);
    const grantId = await grant.save();
    return finish(req as InteractionRequest, reply, { consent: interaction.grantId ? {} : { grantId } });
  });

  app.post<{ Params: { uid: string }; Body: Record<string, string> | undefined }>(`${PRODUCTION_OAUTH_PREFIX}/interaction/:uid/login`, async (req, reply) => {
    const interaction = await details(req, reply);
    if (!interaction) return reply;
    const email = String(req.body?.email ?? "");
    const user = checkProductionCredentials(email, String(req.body?.password ?? ""));
    if (!user) return html(reply, 401, login(interaction.uid, email, "The email or password is not right. Check them and try again."));
    return finish(req, reply, { login: { accountId: user.id } });
  });

  app.post<{ Params: { uid: string } }>(`${PRODUCTION_OAUTH_PREFIX}/interaction/:uid/abort`, async (req, reply) => {
    const interaction = await details(req as InteractionRequest, reply);
    if (!interaction) return reply;
    return finish(req as InteractionRequest, reply, { error: "access_denied", error_description: "The user did not allow access." });
  });
}
