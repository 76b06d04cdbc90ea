// The optional API relay, for services that do not answer browser origins: /data/v1/... and
// /studio/v1/... go to the configured service base with the user's own bearer token. Status,
// body, content type, rate-limit headers and Retry-After pass through unchanged.
import type { FastifyInstance } from "fastify";
import type { BrokerConfig } from "./config.js";
import { EXPOSED_HEADERS, refuse } from "./cors.js";
import { refuseWhenLimited, type AddressLimiter } from "./rateLimit.js";

const RELAYED_PREFIXES = ["/data/v1/", "/studio/v1/"];
const REQUEST_HEADERS = ["authorization", "content-type", "accept"];
const ANSWER_HEADERS = ["content-type", ...EXPOSED_HEADERS.map((h) => h.toLowerCase())];

export async function relayRoutes(app: FastifyInstance, config: BrokerConfig & { relay: string }, limiter: AddressLimiter, fetchUpstream: typeof fetch): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: config.relayBodyLimit }, (_req, body, done) => done(null, body));

  const handler = async (request: import("fastify").FastifyRequest, reply: import("fastify").FastifyReply) => {
    const path = request.url;
    if (!RELAYED_PREFIXES.some((p) => path.startsWith(p)) || path.includes("/../") || path.includes("/./")) {
      return refuse(reply, 404, "not_found", "This broker relays /data/v1/ and /studio/v1/ only.");
    }
    const limited = refuseWhenLimited(limiter, request, reply, "requests");
    if (limited) return limited;
    const headers: Record<string, string> = {};
    for (const name of REQUEST_HEADERS) {
      const value = request.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    const body = request.body instanceof Buffer && request.method !== "GET" && request.method !== "HEAD" ? request.body : undefined;
    let upstream: Response;
    try {
      upstream = await fetchUpstream(`${config.relay}${path}`, {
        method: request.method,
        headers,
        ...(body ? { body } : {}),
        redirect: "manual",
        signal: AbortSignal.timeout(config.upstreamTimeoutMs),
      });
    } catch (error) {
      request.log.warn({ kind: error instanceof Error ? error.name : "unknown" }, "the service could not be reached");
      return refuse(reply, 502, "service_unavailable", "The service could not be reached through the relay. Try again in a moment.");
    }
    void reply.code(upstream.status);
    for (const name of ANSWER_HEADERS) {
      const value = upstream.headers.get(name);
      if (value !== null) void reply.header(name, value);
    }
    return reply.send(Buffer.from(await upstream.arrayBuffer()));
  };

  for (const prefix of RELAYED_PREFIXES) {
    app.route({ method: ["GET", "POST", "PUT", "PATCH", "DELETE"], url: `${prefix}*`, handler });
  }
}
