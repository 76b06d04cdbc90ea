// The sandbox app: a Fastify instance with every feature registered as a plugin (plugins.ts),
// separate from the process that listens (server.ts) and the command line (main.ts).
import cors from "@fastify/cors";
import Fastify, { type FastifyError, type FastifyInstance } from "fastify";
import { ERROR_CODES, RATE_LIMIT_HEADERS } from "../core/contract/index.js";
import { DEFAULT_API_AUDIENCE, createAuthenticator, requireAnyScope } from "./auth.js";
import { sandboxClock, type FaultOptions, type RateLimitWindows, type Clock, type SandboxContext, type SandboxOptions } from "./context.js";
import { createAccountStore } from "./credits.js";
import { ApiError, ValidationFailure, errorObject, sendError, sendErrorDocument, sendGatewayError, validationDocument } from "./errors.js";
import { devEndpointGuard } from "./devGuard.js";
import { useDepthCheckedJson } from "./jsonBody.js";
import { createFaultPlan } from "./faults.js";
import { loadSigningKeys } from "./keys.js";
import { createRateLimiter } from "./rateLimit.js";
import { createRecordStore } from "./records.js";
import { missingRole } from "./plan/roles.js";
import { declaredRoles, declaredScopes } from "./routes/principal.js";
import { createAiCreditStore } from "./research/index.js";
import { SANDBOX_PLUGINS } from "./plugins.js";
import { useContractValidation } from "./routes/validation.js";
import { DEFAULT_PAGE_CACHE_BYTES, createSearcher } from "./search/runSearch.js";
import { createStats, type RouteDependencies } from "./routeDependencies.js";
import { openDatabase } from "./store/database.js";

/** Options as callers give them: any part may be left out, nested ones too. */
export type SandboxOptionsInput = Partial<Omit<SandboxOptions, "rateLimit" | "faults">> & {
  rateLimit?: Partial<RateLimitWindows>;
  faults?: Partial<FaultOptions>;
};

const DEFAULT_RATE_LIMIT: RateLimitWindows = { perSecond: 25, perHour: 50_000, perDay: 500_000 };

export function defaultSandboxOptions(partial: SandboxOptionsInput = {}): SandboxOptions {
  return {
    seed: 1,
    companies: 20_000,
    contacts: 100_000,
    publicUrl: "https://localhost:4010",
    corsOrigins: ["https://localhost:3000"],
    jobRowsPerSecond: 50,
    pageCacheBytes: DEFAULT_PAGE_CACHE_BYTES,
    ...partial,
    rateLimit: { ...DEFAULT_RATE_LIMIT, ...partial.rateLimit },
    faults: { latencyMs: 0, failRate: 0, resetRate: 0, gatewayErrors: false, seed: 1, ...partial.faults },
  };
}

const API_PREFIXES = ["/data/", "/v1/", "/platform/", "/copilot/"];
const isApiPath = (url: string) => API_PREFIXES.some((p) => url.startsWith(p));
const GATEWAY_STATUSES = new Set([401, 403, 429]);

export interface BuildAppExtras {
  /** TLS key and certificate for HTTPS. */
  https?: { key: string | Buffer; cert: string | Buffer; ca?: string | Buffer };
  /** Time source (tests move it by hand instead of waiting); the system clock by default. */
  clock?: Clock;
}

export interface BuiltApp {
  app: FastifyInstance;
  ctx: SandboxContext;
  /** Milliseconds spent seeding on this start (0 when the data in dataDir was reused). */
  seededInMs: number;
  /** Every route the app serves, as registered (one per method; HEAD and OPTIONS left out). */
  routes: readonly ServedRoute[];
}

/** A route as registered: its method, its Fastify URL (`:name` for a parameter) and the operation it declares. */
export interface ServedRoute {
  method: string;
  url: string;
  operation?: string;
}

/** Records the routes as they are registered (for the check against the operation table). */
function recordRoutes(app: FastifyInstance): ServedRoute[] {
  const routes: ServedRoute[] = [];
  app.addHook("onRoute", (route) => {
    const operation = (route.config as { operation?: string } | undefined)?.operation;
    for (const method of [route.method].flat()) {
      if (method !== "HEAD" && method !== "OPTIONS") routes.push({ method, url: route.url, ...(operation ? { operation } : {}) });
    }
  });
  return routes;
}

/** The context and the services every feature is built from, created once per app. */
async function createServices(options: SandboxOptions, extras: BuildAppExtras): Promise<RouteDependencies> {
  const { db, seededInMs } = openDatabase(options.dataDir, { seed: options.seed, companies: options.companies, contacts: options.contacts }, options.reset);
  const keys = await loadSigningKeys(options.dataDir);
  const clock = extras.clock ?? sandboxClock;
  const accounts = createAccountStore(db, clock);
  const records = createRecordStore(db);
  const trustedIssuers = [options.publicUrl];
  const ctx: SandboxContext = {
    options,
    clock,
    db,
    keys,
    apiAudience: DEFAULT_API_AUDIENCE,
    trustedIssuers,
    records,
    credits: accounts,
    stats: createStats(),
    faults: options.faults,
    jobEvents: new EventTarget(),
    authenticate: (authorization) => authenticator.authenticate(authorization),
  };
  const authenticator = createAuthenticator(
    keys,
    () => ctx.trustedIssuers,
    () => ctx.apiAudience,
    clock,
  );
  const services: RouteDependencies = {
    ctx,
    accounts,
    records,
    searcher: createSearcher(db, options.pageCacheBytes, { clock }),
    limiter: createRateLimiter(() => ctx.options.rateLimit, clock),
    faultPlan: createFaultPlan(options.faults),
    aiCredits: createAiCreditStore(db),
    seededInMs,
  };

  return services;
}

/**
 * The one hook of every API request: statistics, simulated faults, authentication, the scopes of
 * the route's operation and its roles (the operation table's) and the rate limit.
 */
function useApiHook(app: FastifyInstance, services: RouteDependencies): void {
  const { ctx } = services;
  app.addHook("onRequest", async (request, reply) => {
    if (request.method === "OPTIONS" || !isApiPath(request.url)) return;
    const route = request.routeOptions.url;
    if (route) ctx.stats.requests.set(`${request.method} ${route}`, (ctx.stats.requests.get(`${request.method} ${route}`) ?? 0) + 1);
    const fault = services.faultPlan.next();
    if (fault.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, fault.latencyMs));
    if (fault.reset) {
      reply.hijack();
      request.raw.socket.destroy();
      return;
    }
    if (fault.fail) throw new ApiError(503, ERROR_CODES.server, "The service is briefly unavailable (a simulated fault). Try again in a moment.");
    if (!route) return;
    const principal = await ctx.authenticate(request.headers.authorization);
    requireAnyScope(principal, declaredScopes(request.routeOptions.config, "specification"));
    const lacking = missingRole(principal, declaredRoles(request.routeOptions.config));
    if (lacking) throw new ApiError(403, ERROR_CODES.forbidden, lacking);
    request.principal = principal;
    const decision = services.limiter.take(principal.account);
    void reply.headers(decision.headers);
    if (!decision.allowed) {
      const bucket = decision.rejectedBucket ?? "second";
      throw new ApiError(
        429,
        ERROR_CODES.rateLimited,
        `Too many requests: the per-${bucket} limit is used up. Try again in ${decision.headers["Retry-After"]} s.`,
        undefined,
        decision.headers,
      );
    }
  });
}

/** Every failure as the service's error document (the gateway's shape for 401/403/429 when asked). */
function useErrorDocuments(app: FastifyInstance, ctx: SandboxContext): void {
  app.setErrorHandler((error: FastifyError | ApiError | ValidationFailure, request, reply) => {
    if (error instanceof ValidationFailure) return sendErrorDocument(reply, 400, validationDocument(error.issues));
    if (error instanceof ApiError) {
      void reply.headers(error.headers);
      if (ctx.faults.gatewayErrors && GATEWAY_STATUSES.has(error.status)) {
        return sendGatewayError(reply, error.status, error.code, error.message);
      }
      return sendError(reply, error.status, error.code, error.message, error.source);
    }
    const code = error.code;
    if (code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
      return sendError(reply, 415, ERROR_CODES.unsupportedMediaType, "Send the body as application/vnd.api+json or application/json.", {
        header: "Content-Type",
      });
    }
    if (code === "FST_ERR_CTP_EMPTY_JSON_BODY") {
      return sendError(reply, 400, ERROR_CODES.validation, "The request body is empty: send a JSON document.", { pointer: "" });
    }
    if (code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      return sendError(reply, 413, ERROR_CODES.validation, "The request body is larger than 1 MB.");
    }
    if (error instanceof SyntaxError || code === "FST_ERR_CTP_INVALID_JSON_BODY") {
      return sendError(reply, 400, ERROR_CODES.validation, `The request body is not valid JSON (${error.message}).`, { pointer: "" });
    }
    const status = typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status < 500) return sendError(reply, status, ERROR_CODES.validation, error.message);
    // An unexpected failure: answer with what went wrong and keep it visible on stderr.
    process.stderr.write(`sandbox: ${request.method} ${request.url} failed: ${error.stack ?? error.message}\n`);
    return sendErrorDocument(reply, 500, { errors: [errorObject(500, ERROR_CODES.server, `The sandbox failed to handle the request: ${error.message}`)] });
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, ERROR_CODES.notFound, `There is no operation ${request.method} ${request.url.split("?")[0]}.`),
  );
}

export async function buildApp(options: SandboxOptions, extras: BuildAppExtras = {}): Promise<BuiltApp> {
  const services = await createServices(options, extras);
  const { ctx } = services;
  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
    bodyLimit: 1024 * 1024,
    ...(extras.https ? { https: extras.https } : {}),
  }) as unknown as FastifyInstance;
  const routes = recordRoutes(app);
  app.addHook("onClose", async () => {
    ctx.db.close();
  });
  useContractValidation(app);

  // Both JSON media types parse the same way, too deep a nesting is 400; anything else is 415.
  useDepthCheckedJson(app);

  await app.register(cors, {
    origin: options.corsOrigins,
    methods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    // A browser client may read the rate-limit headers.
    exposedHeaders: [...RATE_LIMIT_HEADERS],
    maxAge: 600,
  });

  devEndpointGuard(app, () => [new URL(ctx.options.publicUrl).origin, ...ctx.options.corsOrigins]);

  useApiHook(app, services);
  useErrorDocuments(app, ctx);
  for (const plugin of SANDBOX_PLUGINS) await app.register(plugin, services);
  return { app, ctx, seededInMs: services.seededInMs, routes };
}
