// The broker as a Fastify app, separate from the process that listens (main.ts): tests build
// it and call it with inject or on port 0. Stateless: it keeps no token, code or session (the
// relay's pacing keeps only queue positions, and slot claims in Redis when it is shared).
import Fastify, { type FastifyError, type FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import { brokerConfig, type BrokerConfig, type BrokerConfigInput } from "./config.js";
import { ForeignOriginError, refuse, registerOriginPolicy } from "./cors.js";
import { loggerOptions, type BrokerLogOptions } from "./logging.js";
import { timerClock, type Clock } from "../core/contract/index.js";
import { RelayGate } from "./gate.js";
import { createTenantPacer, memorySlots, redisSlots, sharedSlots, type PacingEvent } from "./pacing.js";
import { ProbationLanes } from "./probation.js";
import { ProvenTokens } from "./proof.js";
import { AddressLimitedError, registerRateLimits } from "./rateLimit.js";
import { RelayRefusal, refuseWith, relayRoutes } from "./relay.js";
import { tokenRoutes } from "./token.js";
import { TokenTrust } from "./trust.js";

export interface BrokerSeams {
  /**
   * The broker's time: upstream time limits, the relay's pacing and held refusals (default real
   * time; tests step a manual one). The address rate limits keep @fastify/rate-limit's own time.
   */
  clock?: Clock;
  /** The HTTP client for upstream calls. */
  fetch?: typeof fetch;
  /** false for no log. */
  log?: BrokerLogOptions | false;
  https?: { key: string | Buffer; cert: string | Buffer };
  /**
   * How long a Redis command may take before this instance paces alone (default 250 ms, real
   * time: Redis answers in it). A test on a loaded machine gives it more, so a slow answer is not
   * read as a stall.
   */
  redisCommandTimeoutMs?: number;
  /** Told of each slot the relay's pacing gives out or lets pass (benches count them). */
  onPacingEvent?: (event: PacingEvent) => void;
  /** Least time between two fetches of the service's key set for an unknown key (default 5 s; jose keeps it in real time). */
  jwksCooldownMs?: number;
}

/** A claim Redis has not answered within this is given up (this instance then paces alone). */
const REDIS_COMMAND_TIMEOUT_MS = 250;
/** How long the start waits for Redis before pacing alone until it is there. */
const REDIS_START_WAIT_MS = 2000;

/** Resolves once Redis is ready, refused, or the start has waited long enough. */
function redisSettled(redis: Redis): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, REDIS_START_WAIT_MS);
    timer.unref();
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    redis.once("ready", done);
    redis.once("error", done);
  });
}

async function sharedStore(app: FastifyInstance, redisUrl: string, clock: Clock, commandTimeout = REDIS_COMMAND_TIMEOUT_MS) {
  // No offline queue and a command time limit: a claim fails at once while Redis is away or
  // stalled, and the instance paces alone (sharedSlots) instead of holding requests.
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 0, enableOfflineQueue: false, commandTimeout });
  // ioredis reports every failed reconnection; the pacing says the one thing that matters, once.
  redis.on("error", () => undefined);
  app.addHook("onClose", async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  await redisSettled(redis);
  return sharedSlots(redisSlots(redis), memorySlots(), clock, (state) => {
    if (state === "alone") app.log.warn("the shared pacing store (Redis) failed or is too slow: this instance paces alone until it answers again");
    else app.log.info("the shared pacing store (Redis) answers again: pacing is shared");
  });
}

/** The pacing gate: tenant queues for proven tokens, probation lanes for the rest (undefined without pacing). */
async function relayGate(app: FastifyInstance, config: BrokerConfig, clock: Clock, seams: BrokerSeams): Promise<RelayGate | undefined> {
  const pacing = config.pacing;
  if (!pacing) return undefined;
  const store = pacing.redisUrl ? await sharedStore(app, pacing.redisUrl, clock, seams.redisCommandTimeoutMs) : memorySlots();
  const pacer = createTenantPacer(pacing, store, clock, seams.onPacingEvent);
  const cooldown = seams.jwksCooldownMs !== undefined ? { cooldownMs: seams.jwksCooldownMs } : {};
  const keys = pacing.jwksUrl ? { keys: { jwksUrl: pacing.jwksUrl, issuer: pacing.jwksIssuer!, audience: pacing.jwksAudience!, ...cooldown } } : {};
  const trust = new TokenTrust({ tenantClaim: pacing.tenantClaim, ...keys }, new ProvenTokens(clock), clock);
  return new RelayGate(pacer, trust, new ProbationLanes(clock, pacing.maxQueueWaitMs), pacing.maxQueueWaitMs);
}

function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

export async function buildBroker(input: BrokerConfigInput, seams: BrokerSeams = {}): Promise<{ app: FastifyInstance; config: BrokerConfig }> {
  const config = brokerConfig(input);
  const fetchUpstream = seams.fetch ?? fetch;
  // Its timers never keep the process alive on their own: the server does.
  const clock = seams.clock ?? timerClock({ unref: true });
  const app = Fastify({
    logger: loggerOptions(seams.log ?? {}),
    // A hop count trusts that many proxies nearest the broker (read from the right).
    trustProxy: typeof config.trustProxy === "number" ? trustHops(config.trustProxy) : config.trustProxy,
    forceCloseConnections: true,
    bodyLimit: config.tokenBodyLimit,
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.connectionTimeoutMs,
    ...(seams.https ? { https: seams.https } : {}),
  }) as unknown as FastifyInstance;

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ForeignOriginError) return refuse(reply, 403, "invalid_request", error.message);
    if (error instanceof AddressLimitedError) return refuse(reply, 429, "too_many_requests", error.message);
    if (error instanceof RelayRefusal) {
      // Refused before its body was read: the connection closes rather than read a body nobody needs.
      if (request.headers["content-length"] !== undefined || request.headers["transfer-encoding"] !== undefined) void reply.header("connection", "close");
      return refuseWith(reply, error.refusal, error.serviceShape);
    }
    if (error.code === "BROKER_BODY_TIMEOUT") return refuse(reply, 408, "request_timeout", "The request body did not arrive in time. Try again.");
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") return refuse(reply, 413, "invalid_request", "The request body is too large.");
    if (error.code === "BROKER_MEDIA_TYPE" || error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
      return refuse(reply, 415, "invalid_request", "Send the token request form-encoded (application/x-www-form-urlencoded).");
    }
    const status = typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, "the broker failed to handle a request");
    return refuse(
      reply,
      status,
      status === 500 ? "server_error" : "invalid_request",
      status === 500 ? "The broker failed to handle the request." : "The request is not valid.",
    );
  });
  app.setNotFoundHandler((_request, reply) =>
    refuse(reply, 404, "not_found", "The broker answers /token and /health (and /data/v1/, /studio/v1/, /copilot/v1/ when it relays)."),
  );

  await registerOriginPolicy(app, config.allowOrigins);
  await registerRateLimits(app);
  app.get("/health", { config: { cors: false } }, async (_request, reply) => reply.header("cache-control", "no-store").send({ status: "ok" }));
  await app.register(async (scope) => tokenRoutes(scope, config, fetchUpstream, clock));
  const relay = config.relay;
  if (relay) {
    const gate = await relayGate(app, config, clock, seams);
    await app.register(async (scope) => relayRoutes(scope, { ...config, relay }, { fetchUpstream, clock, ...(gate ? { gate } : {}) }));
  }
  return { app, config };
}
