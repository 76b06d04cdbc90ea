// Browser origins, through @fastify/cors: only the configured add-in origins may call the
// broker, compared exactly (scheme, host and port). A request from another origin, or with
// none, is refused with 403 before anything else happens (CORS alone would still let the
// request run and only hide the answer).
import cors from "@fastify/cors";
import type { FastifyInstance, FastifyReply } from "fastify";
import { MINUTE_RATE_LIMIT_HEADERS, RATE_LIMIT_HEADERS, RELAY_PACED_HEADER } from "../core/contract/index.js";

/** Headers of relayed answers the add-in reads (rate limits and back-off). */
export const EXPOSED_HEADERS: readonly string[] = [...RATE_LIMIT_HEADERS, ...MINUTE_RATE_LIMIT_HEADERS];

/** Raised for a foreign or missing origin; the error handler answers it with 403. */
export class ForeignOriginError extends Error {
  readonly statusCode = 403;
  readonly code = "BROKER_FOREIGN_ORIGIN";
  constructor() {
    super("This broker answers only the add-in's pages (the request's origin is not allowed).");
  }
}

export function refuse(reply: FastifyReply, status: number, error: string, description: string): FastifyReply {
  return reply.code(status).header("cache-control", "no-store").type("application/json").send({ error, error_description: description });
}

/** Whether `origin` is one of the allowed origins, character for character. */
export function isAllowedOrigin(origin: string | undefined, allowOrigins: readonly string[]): origin is string {
  return origin !== undefined && allowOrigins.includes(origin);
}

/**
 * Registers the origin policy. Routes that answer without an Origin (load balancer health
 * checks) set `config: { cors: false }`. Preflights reflect the headers asked for: sign-in
 * libraries add their own (telemetry, request ids), and the broker forwards only the headers
 * it knows anyway.
 */
export async function registerOriginPolicy(app: FastifyInstance, allowOrigins: readonly string[]): Promise<void> {
  await app.register(cors, {
    origin: (origin, callback) => {
      if (isAllowedOrigin(origin, allowOrigins)) callback(null, true);
      else callback(new ForeignOriginError(), false);
    },
    methods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    exposedHeaders: [...EXPOSED_HEADERS, RELAY_PACED_HEADER],
    maxAge: 600,
    strictPreflight: true,
  });
}
