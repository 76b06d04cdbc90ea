// The token endpoint: the add-in's code exchange (with its PKCE verifier) and refreshes go to
// the one configured upstream endpoint with the app's client credentials added as HTTP Basic.
// A token answer comes back with only its RFC 6749 5.1 fields, an error answer only with its
// OAuth error code and the broker's own sentence, so nothing the upstream echoes (its view of
// our Authorization header, say, however encoded) reaches the browser.
import type { FastifyInstance } from "fastify";
import type { BrokerConfig } from "./config.js";
import { refuse } from "./cors.js";
import { addressLimit } from "./rateLimit.js";
import { oauthErrorAnswer, secretForms, tokenSuccessAnswer } from "./tokenAnswer.js";
import type { Clock } from "../core/contract/index.js";
import { callUpstream, UpstreamFailure } from "./upstreamCall.js";

const FORM = "application/x-www-form-urlencoded";
const GRANTS = new Set(["authorization_code", "refresh_token"]);
/** Client authentication the request might carry: the broker's own replaces it. */
const CLIENT_AUTH_FIELDS = ["client_secret", "client_assertion", "client_assertion_type"];
/** The add-in's pages a sign-in returns to (beside the task pane, at any path of its origin). */
const REDIRECT_PAGES = ["redirect.html", "dialog.html"];

/** RFC 6749 2.3.1: id and secret are form-encoded before Basic encoding. */
function basicAuthorization(clientId: string, clientSecret: string): string {
  const form = (s: string) => new URLSearchParams([["", s]]).toString().slice(1);
  return `Basic ${Buffer.from(`${form(clientId)}:${form(clientSecret)}`).toString("base64")}`;
}

/** The first parameter named more than once (RFC 6749 3.1: parameters MUST NOT repeat). */
function repeatedParameter(params: URLSearchParams): string | undefined {
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

/** Whether `uri` is one of the add-in's redirect pages: configured ones exactly, else derived from the allowed origins. */
export function isAddinRedirect(uri: string, config: Pick<BrokerConfig, "allowOrigins" | "redirectUris">): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  // Only the canonical spelling: the authorization server compares redirect URIs as strings.
  if (url.href !== uri) return false;
  if (config.redirectUris.length > 0) return config.redirectUris.includes(url.href);
  if (url.search || url.hash || url.username || url.password) return false;
  const page = url.pathname.split("/").pop() ?? "";
  return config.allowOrigins.includes(url.origin) && REDIRECT_PAGES.includes(page);
}

export async function tokenRoutes(app: FastifyInstance, config: BrokerConfig, fetchUpstream: typeof fetch, clock: Pick<Clock, "sleep">): Promise<void> {
  const secrets = secretForms(config.clientId, config.clientSecret, basicAuthorization(config.clientId, config.clientSecret));
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(FORM, { parseAs: "string", bodyLimit: config.tokenBodyLimit }, (_req, body, done) => {
    done(null, new URLSearchParams(String(body)));
  });
  app.addContentTypeParser("*", { bodyLimit: config.tokenBodyLimit }, (_req, _payload, done) => {
    const error = Object.assign(new Error("The token request must be form-encoded."), { statusCode: 415, code: "BROKER_MEDIA_TYPE" });
    done(error, undefined);
  });

  app.post("/token", { config: addressLimit(config.rateLimit.token, "sign-in requests") }, async (request, reply) => {
    const params = request.body instanceof URLSearchParams ? request.body : undefined;
    if (!params) return refuse(reply, 400, "invalid_request", "Send the token request form-encoded.");
    const repeated = repeatedParameter(params);
    if (repeated !== undefined) return refuse(reply, 400, "invalid_request", `The parameter ${repeated.slice(0, 40)} is sent more than once.`);
    const grant = params.get("grant_type") ?? "";
    if (!GRANTS.has(grant)) {
      return refuse(reply, 400, "unsupported_grant_type", "This broker exchanges authorization codes and refresh tokens only.");
    }
    const clientId = params.get("client_id");
    if (clientId !== null && clientId !== config.clientId) {
      return refuse(reply, 401, "invalid_client", "The request names a client this broker does not serve.");
    }
    const redirectUri = params.get("redirect_uri");
    if (redirectUri !== null && !isAddinRedirect(redirectUri, config)) {
      return refuse(reply, 400, "invalid_request", "The redirect_uri is not one of the add-in's sign-in pages.");
    }
    for (const field of CLIENT_AUTH_FIELDS) params.delete(field);

    let answer;
    try {
      answer = await callUpstream(
        fetchUpstream,
        config.upstream,
        {
          method: "POST",
          headers: { authorization: basicAuthorization(config.clientId, config.clientSecret), "content-type": FORM, accept: "application/json" },
          body: params.toString(),
        },
        { limit: config.tokenAnswerLimit, timeoutMs: config.upstreamTimeoutMs, clock },
      );
    } catch (error) {
      if (!(error instanceof UpstreamFailure)) throw error;
      request.log.warn({ kind: error.kind }, "the upstream token endpoint failed");
      return error.status === 504
        ? refuse(reply, 504, "gateway_timeout", "The sign-in service did not answer in time. Try again in a moment.")
        : refuse(reply, 502, "temporarily_unavailable", "The sign-in service could not be reached or gave no usable answer. Try again in a moment.");
    }
    void reply.header("cache-control", "no-store").header("pragma", "no-cache");
    if (answer.status >= 200 && answer.status < 300) {
      const type = answer.headers.get("content-type");
      if (!type || !/^application\/json\b/i.test(type))
        return refuse(reply, 502, "temporarily_unavailable", "The sign-in service gave no usable answer. Try again in a moment.");
      const fields = tokenSuccessAnswer(answer.body, secrets);
      if (!fields) return refuse(reply, 502, "temporarily_unavailable", "The sign-in service gave no usable answer. Try again in a moment.");
      return reply.code(answer.status).type("application/json; charset=utf-8").send(fields);
    }
    const error = oauthErrorAnswer(answer);
    if (error.challenge) void reply.header("www-authenticate", error.challenge);
    return reply.code(error.status).type("application/json").send(error.body);
  });
}
