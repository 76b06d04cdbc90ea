// The sandbox's authorization server: oidc-provider configured for one public client (the
// add-in), PKCE S256, JWT access tokens for the API audience signed with the sandbox's key,
// and rotating refresh tokens. Everything lives in memory: nothing secret is written anywhere.
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from "oidc-provider";
import type { JWK } from "jose";
import { SCOPES } from "../../core/contract/index.js";
import { MAX_ACCESS_TOKEN_LIFETIME_SECONDS } from "../auth.js";
import type { SandboxContext } from "../context.js";
import { adapterFactory, createOidcStore } from "./adapter.js";
import { errorPage } from "./pages.js";
import { PLAN_SCOPES, findUserById } from "./users.js";

export const OIDC_PREFIX = "/oauth";
const ADDIN_CLIENT_ID = "excel-addin";
/** The add-in's dev server: its pages are redirect targets even when corsOrigins omits it. */
const DEFAULT_ADDIN_ORIGIN = "https://localhost:3000";
/** Pages of the add-in that receive the authorization response. */
const REDIRECT_PAGES = ["/redirect.html", "/dialog.html"];

export interface OidcSettings {
  /** Lifetime of an access token in seconds (short in tests that exercise renewal). */
  accessTokenTtlSeconds: number;
  /** Lifetime of a refresh token in seconds. */
  refreshTokenTtlSeconds: number;
}

export const DEFAULT_OIDC_SETTINGS: OidcSettings = {
  accessTokenTtlSeconds: 900,
  refreshTokenTtlSeconds: 14 * 24 * 3600,
};

/**
 * Settings from the sandbox options when present (`accessTokenTtlSeconds`), else from the
 * environment (SANDBOX_ACCESS_TOKEN_TTL, seconds), else the defaults.
 */
export function oidcSettingsFor(ctx: SandboxContext): OidcSettings {
  const fromOptions = ctx.options.accessTokenTtlSeconds;
  const fromEnv = Number(process.env.SANDBOX_ACCESS_TOKEN_TTL);
  const ttl =
    typeof fromOptions === "number" && fromOptions > 0
      ? fromOptions
      : Number.isInteger(fromEnv) && fromEnv > 0
        ? fromEnv
        : DEFAULT_OIDC_SETTINGS.accessTokenTtlSeconds;
  // The API refuses tokens living longer than its cap, so none is issued for longer.
  return { ...DEFAULT_OIDC_SETTINGS, accessTokenTtlSeconds: Math.min(Math.floor(ttl), MAX_ACCESS_TOKEN_LIFETIME_SECONDS) };
}

export function issuerFor(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, "")}${OIDC_PREFIX}`;
}

/** Origins whose pages may receive codes and call the token endpoint. */
function addinOrigins(ctx: SandboxContext): string[] {
  const origins = new Set<string>([DEFAULT_ADDIN_ORIGIN]);
  for (const origin of ctx.options.corsOrigins) {
    try {
      origins.add(new URL(origin).origin);
    } catch {
      // Not a URL: nothing to redirect to.
    }
  }
  return [...origins];
}

function resourceIndicatorFor(ctx: SandboxContext): string {
  if (URL.canParse(ctx.apiAudience) && !ctx.apiAudience.includes("#")) return ctx.apiAudience;
  return new URL(ctx.options.publicUrl).href;
}

const DATA_SCOPE_LIST = [...Object.values(SCOPES), ...PLAN_SCOPES];

/** The add-in's registration: a public client (PKCE only) or, with a secret, a confidential one. */
export interface AddinClient {
  clientId: string;
  clientSecret?: string;
}

/**
 * What both sign-in servers (this one and the production profile's) configure alike: the
 * add-in's client and redirect pages, the in-memory store, the sandbox's signing key, JWT access
 * tokens for the API with `scope`, rotating refresh tokens, lifetimes and the error page.
 */
export function addinConfiguration(ctx: SandboxContext, settings: OidcSettings, client: AddinClient, scope: string): Configuration {
  const redirectUris = addinOrigins(ctx).flatMap((origin) => REDIRECT_PAGES.map((page) => `${origin}${page}`));
  // A resource indicator must be an absolute URI; the token's audience is the API's own name.
  const resource = resourceIndicatorFor(ctx);
  return {
    adapter: adapterFactory(createOidcStore()),
    clients: [
      {
        client_id: client.clientId,
        ...(client.clientSecret === undefined
          ? { token_endpoint_auth_method: "none" }
          : { client_secret: client.clientSecret, token_endpoint_auth_method: "client_secret_basic" }),
        client_name: "Excel add-in",
        application_type: "web",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        redirect_uris: redirectUris,
      },
    ],
    // The sandbox's one signing key: the API verifies these tokens with the same key set.
    jwks: { keys: [ctx.keys.privateJwk as JWK & { kty: "RSA" }] },
    // Cookie signing keys live only as long as the process: restarting ends sign-in sessions.
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // MSAL never sends `resource`: every token is for the API.
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => {
          if (resourceIndicator !== resource) throw new errors.InvalidTarget();
          return {
            scope,
            audience: ctx.apiAudience,
            accessTokenTTL: settings.accessTokenTtlSeconds,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg: "RS256" } },
          };
        },
      },
    },
    // Refresh tokens are single-use: each refresh returns a new one (the old one then fails).
    rotateRefreshToken: true,
    ttl: {
      AccessToken: settings.accessTokenTtlSeconds,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      Session: 14 * 24 * 3600,
      Grant: 14 * 24 * 3600,
      RefreshToken: settings.refreshTokenTtlSeconds,
    },
    renderError: (ctx: KoaContextWithOIDC, out) => {
      ctx.type = "html";
      const description = typeof out.error_description === "string" ? out.error_description : "";
      ctx.body = errorPage("Sign-in problem", `${String(out.error)}${description ? `: ${description}` : ""}`);
    },
  };
}

export type ProviderHandle = { issuer: string; provider: Provider; handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> };

/**
 * The provider for the sandbox's current issuer, built on first use (with port 0 the public URL,
 * so the issuer, is known only once listening) and trusted by the API from then on.
 */
export function lazyProvider(ctx: SandboxContext, issuerOf: (publicUrl: string) => string, create: () => Provider): () => ProviderHandle {
  let built: ProviderHandle | undefined;
  const provider = () => {
    const issuer = issuerOf(ctx.options.publicUrl);
    if (!built || built.issuer !== issuer) {
      const created = create();
      built = { issuer, provider: created, handle: created.callback() as ProviderHandle["handle"] };
      if (!ctx.trustedIssuers.includes(issuer)) ctx.trustedIssuers.push(issuer);
    }
    return built;
  };
  if (!/:0(\/|$)/.test(ctx.options.publicUrl)) provider();
  return provider;
}

/**
 * Serves the provider under `prefix`. oidc-provider reads request bodies itself, so the stream is
 * left untouched. `route` may answer a request itself (returning the reply) or give the path
 * under the prefix the provider is to see.
 */
export async function mountProvider(
  app: FastifyInstance,
  prefix: string,
  provider: () => ProviderHandle,
  route: (req: FastifyRequest, reply: FastifyReply, inner: string) => string | FastifyReply = (_req, _reply, inner) => inner,
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_req, _payload, done) => done(null));
    scope.all(`${prefix}/*`, async (req, reply) => {
      const raw = req.raw as IncomingMessage & { originalUrl?: string };
      const inner = route(req, reply, (raw.url ?? "/").slice(prefix.length) || "/");
      if (typeof inner !== "string") return inner;
      const { handle } = provider();
      reply.hijack();
      // oidc-provider finds its mount path as the part of originalUrl before url.
      raw.originalUrl = `${prefix}${inner}`;
      raw.url = inner;
      await handle(raw, reply.raw);
    });
  });
}

export function createProvider(ctx: SandboxContext, settings: OidcSettings): Provider {
  const origins = addinOrigins(ctx);
  const shared = addinConfiguration(ctx, settings, { clientId: ADDIN_CLIENT_ID }, DATA_SCOPE_LIST.join(" "));
  const configuration: Configuration = {
    ...shared,
    scopes: ["openid", "profile", "email", "offline_access"],
    claims: { openid: ["sub"], profile: ["name", "preferred_username"], email: ["email"] },
    // MSAL reads the user's name and username from the ID token.
    conformIdTokenClaims: false,
    features: { ...shared.features, revocation: { enabled: true } },
    findAccount: (_ctx, sub) => {
      const user = findUserById(sub);
      if (!user) return undefined;
      return {
        accountId: user.id,
        claims: () => ({ sub: user.id, name: user.name, preferred_username: user.email, email: user.email }),
      };
    },
    extraTokenClaims: (_ctx, token) => {
      const accountId = "accountId" in token ? token.accountId : undefined;
      const user = accountId ? findUserById(accountId) : undefined;
      if (!user) return undefined;
      return { roles: user.roles, account: user.account };
    },
    interactions: { url: (_ctx, interaction) => `${OIDC_PREFIX}/interaction/${interaction.uid}` },
    clientBasedCORS: (_ctx, origin) => origins.includes(origin),
  };

  return new Provider(issuerFor(ctx.options.publicUrl), configuration);
}
