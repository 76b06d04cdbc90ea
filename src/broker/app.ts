// The broker as a Fastify app, separate from the process that listens (main.ts): tests build
// it and call it with inject or on port 0. Stateless: it keeps no token, code or session.
import Fastify, { type FastifyError, type FastifyInstance } from "fastify";
import { brokerConfig, type BrokerConfig, type BrokerConfigInput } from "./config.js";
import { refuse, registerOriginPolicy } from "./cors.js";
import { loggerOptions, type BrokerLogOptions } from "./logging.js";
import { createAddressLimiter } from "./rateLimit.js";
import { relayRoutes } from "./relay.js";
import { tokenRoutes } from "./token.js";

export interface BrokerSeams {
  /** Milliseconds since the epoch, for the rate limit (tests step it). */
  now?: () => number;
  /** The HTTP client for upstream calls. */
  fetch?: typeof fetch;
  /** false for no log. */
  log?: BrokerLogOptions | false;
  https?: { key: string | Buffer; cert: string | Buffer };
}

export async function buildBroker(input: BrokerConfigInput, seams: BrokerSeams = {}): Promise<{ app: FastifyInstance; config: BrokerConfig }> {
  const config = brokerConfig(input);
  const now = seams.now ?? Date.now;
  const fetchUpstream = seams.fetch ?? fetch;
  const app = Fastify({
    logger: loggerOptions(seams.log ?? {}),
    trustProxy: config.trustProxy,
    forceCloseConnections: true,
    bodyLimit: config.tokenBodyLimit,
    ...(seams.https ? { https: seams.https } : {}),
  }) as unknown as FastifyInstance;

  registerOriginPolicy(app, config.allowOrigins);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") return refuse(reply, 413, "invalid_request", "The request body is too large.");
    if (error.code === "BROKER_MEDIA_TYPE" || error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
      return refuse(reply, 415, "invalid_request", "Send the token request form-encoded (application/x-www-form-urlencoded).");
    }
    const status = typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, "the broker failed to handle a request");
    return refuse(reply, status, status === 500 ? "server_error" : "invalid_request", status === 500 ? "The broker failed to handle the request." : "The request is not valid.");
  });
  app.setNotFoundHandler((_request, reply) => refuse(reply, 404, "not_found", "The broker answers /token and /health (and /data/v1/, /studio/v1/ when it relays)."));

  app.get("/health", async (_request, reply) => reply.header("cache-control", "no-store").send({ status: "ok" }));
  await app.register(async (scope) => tokenRoutes(scope, config, createAddressLimiter(config.rateLimit.token, now), fetchUpstream));
  const relay = config.relay;
  if (relay) {
    await app.register(async (scope) => relayRoutes(scope, { ...config, relay }, createAddressLimiter(config.rateLimit.relay, now), fetchUpstream));
  }
  return { app, config };
}
