// Browser origins: only the configured add-in origins may call the broker. A request from
// another origin is refused before anything else happens (CORS alone would still let the
// request run and only hide the answer).
import type { FastifyInstance, FastifyReply } from "fastify";
import { MINUTE_RATE_LIMIT_HEADERS, RATE_LIMIT_HEADERS } from "../core/contract/index.js";

/** Headers of relayed answers the add-in reads (rate limits and back-off). */
export const EXPOSED_HEADERS: readonly string[] = [...RATE_LIMIT_HEADERS, ...MINUTE_RATE_LIMIT_HEADERS];

const ALLOWED_REQUEST_HEADERS = ["authorization", "content-type", "accept"];
/**
 * Header names a preflight may ask for. Sign-in libraries add their own (telemetry, request ids);
 * allowing them is harmless because the broker forwards only the headers it knows.
 */
const HEADER_LIST = /^[A-Za-z0-9-]+(\s*,\s*[A-Za-z0-9-]+)*$/;

/** Paths that answer without an Origin (load balancer health checks). */
const OPEN_PATHS = new Set(["/health"]);

export function refuse(reply: FastifyReply, status: number, error: string, description: string): FastifyReply {
  return reply.code(status).header("cache-control", "no-store").type("application/json").send({ error, error_description: description });
}

export function registerOriginPolicy(app: FastifyInstance, allowOrigins: readonly string[]): void {
  app.addHook("onRequest", async (request, reply) => {
    const path = request.url.split("?")[0] ?? "";
    if (OPEN_PATHS.has(path) && request.method !== "OPTIONS") return;
    const origin = request.headers.origin;
    if (!origin || !allowOrigins.includes(origin)) {
      return refuse(reply, 403, "invalid_request", "This broker answers only the add-in's pages (the request's origin is not allowed).");
    }
    void reply.header("access-control-allow-origin", origin).header("vary", "Origin").header("access-control-expose-headers", EXPOSED_HEADERS.join(", "));
    if (request.method === "OPTIONS") {
      const asked = request.headers["access-control-request-headers"];
      const allowHeaders = typeof asked === "string" && HEADER_LIST.test(asked.trim()) ? asked.trim() : ALLOWED_REQUEST_HEADERS.join(", ");
      return reply
        .code(204)
        .header("access-control-allow-methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS")
        .header("access-control-allow-headers", allowHeaders)
        .header("access-control-max-age", "600")
        .send();
    }
  });
}
