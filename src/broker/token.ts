// The token endpoint: the add-in's code exchange (with its PKCE verifier) and refreshes go to
// the one configured upstream endpoint with the app's client credentials added as HTTP Basic.
// The answer comes back as it was: status, body and content type.
import type { FastifyInstance } from "fastify";
import type { BrokerConfig } from "./config.js";
import { refuse } from "./cors.js";
import { refuseWhenLimited, type AddressLimiter } from "./rateLimit.js";

const FORM = "application/x-www-form-urlencoded";
const GRANTS = new Set(["authorization_code", "refresh_token"]);
/** Client authentication the request might carry: the broker's own replaces it. */
const CLIENT_AUTH_FIELDS = ["client_secret", "client_assertion", "client_assertion_type"];

/** RFC 6749 2.3.1: id and secret are form-encoded before Basic encoding. */
function basicAuthorization(clientId: string, clientSecret: string): string {
  const form = (s: string) => new URLSearchParams([["", s]]).toString().slice(1);
  return `Basic ${Buffer.from(`${form(clientId)}:${form(clientSecret)}`).toString("base64")}`;
}

export async function tokenRoutes(app: FastifyInstance, config: BrokerConfig, limiter: AddressLimiter, fetchUpstream: typeof fetch): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(FORM, { parseAs: "string", bodyLimit: config.tokenBodyLimit }, (_req, body, done) => {
    done(null, new URLSearchParams(String(body)));
  });
  app.addContentTypeParser("*", { bodyLimit: config.tokenBodyLimit }, (_req, _payload, done) => {
    const error = Object.assign(new Error("The token request must be form-encoded."), { statusCode: 415, code: "BROKER_MEDIA_TYPE" });
    done(error, undefined);
  });

  app.post("/token", async (request, reply) => {
    const limited = refuseWhenLimited(limiter, request, reply, "sign-in requests");
    if (limited) return limited;
    const params = request.body instanceof URLSearchParams ? request.body : undefined;
    if (!params) return refuse(reply, 400, "invalid_request", "Send the token request form-encoded.");
    const grant = params.get("grant_type") ?? "";
    if (!GRANTS.has(grant)) {
      return refuse(reply, 400, "unsupported_grant_type", "This broker exchanges authorization codes and refresh tokens only.");
    }
    const clientId = params.get("client_id");
    if (clientId !== null && clientId !== config.clientId) {
      return refuse(reply, 401, "invalid_client", "The request names a client this broker does not serve.");
    }
    for (const field of CLIENT_AUTH_FIELDS) params.delete(field);

    let upstream: Response;
    try {
      upstream = await fetchUpstream(config.upstream, {
        method: "POST",
        headers: { authorization: basicAuthorization(config.clientId, config.clientSecret), "content-type": FORM, accept: "application/json" },
        body: params.toString(),
        redirect: "manual",
        signal: AbortSignal.timeout(config.upstreamTimeoutMs),
      });
    } catch (error) {
      request.log.warn({ kind: error instanceof Error ? error.name : "unknown" }, "the upstream token endpoint could not be reached");
      return refuse(reply, 502, "temporarily_unavailable", "The sign-in service could not be reached. Try again in a moment.");
    }
    const body = Buffer.from(await upstream.arrayBuffer());
    void reply.code(upstream.status).header("cache-control", "no-store").header("pragma", "no-cache");
    const type = upstream.headers.get("content-type");
    if (type) void reply.type(type);
    const challenge = upstream.headers.get("www-authenticate");
    if (challenge) void reply.header("www-authenticate", challenge);
    return reply.send(body);
  });
}
