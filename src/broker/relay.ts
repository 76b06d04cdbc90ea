// The optional API relay, for services that do not answer browser origins: /data/v1/... and
// /studio/v1/... go to the configured service base with the user's own bearer token. Status,
// body, content type, rate-limit headers and Retry-After pass through unchanged. With pacing
// (config.pacing) each tenant's calls leave at its package rate (pacing.ts), and a per-second
// refusal the service sends anyway is held and sent again instead of passed on.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { BrokerConfig } from "./config.js";
import { EXPOSED_HEADERS, refuse } from "./cors.js";
import { RELAY_PACED_HEADER, type Clock } from "../core/contract/index.js";
import type { Pass, Refusal, RelayGate } from "./gate.js";
import { PRIORITY_HEADER, type Priority } from "./pacing.js";
import { addressLimit } from "./rateLimit.js";
import { RELAYED_PREFIXES, relayablePath, relayTarget } from "./relayPath.js";
import { callUpstream, UpstreamFailure } from "./upstreamCall.js";

const REQUEST_HEADERS = ["authorization", "content-type", "accept"];
const ANSWER_HEADERS = ["content-type", ...EXPOSED_HEADERS.map((h) => h.toLowerCase())];
/** Per-second refusals held and sent again before the refusal is passed on. */
const MAX_HELD_REFUSALS = 3;

export interface RelayDependencies {
  fetchUpstream: typeof fetch;
  /** With pacing: who may take which slots (gate.ts). */
  gate?: RelayGate;
  /** Upstream time limits, and holding a refused request before it is sent again. */
  clock: Pick<Clock, "sleep">;
}

function priorityOf(request: FastifyRequest): Priority | undefined {
  const value = request.headers[PRIORITY_HEADER];
  if (value === undefined) return "interactive";
  return value === "interactive" || value === "bulk" ? value : undefined;
}

/** Seconds to hold a refusal of the per-second bucket, or undefined for any other answer. */
function heldSeconds(answer: { status: number; headers: Headers }): number | undefined {
  if (answer.status !== 429) return undefined;
  const bucket = answer.headers.get("x-ratelimit-rejected-bucket");
  const retryAfter = Number(answer.headers.get("retry-after") ?? "1");
  if (bucket !== null && bucket !== "second") return undefined;
  return Number.isFinite(retryAfter) && retryAfter >= 0 && retryAfter <= 2 ? retryAfter : undefined;
}

type Answer = Awaited<ReturnType<typeof callUpstream>>;

interface Outgoing {
  target: string;
  init: RequestInit;
  priority: Priority;
  gone: AbortSignal;
}

/** What of the request goes upstream, and a signal that fires when the caller goes away. */
function outgoing(request: FastifyRequest, reply: FastifyReply, target: string, priority: Priority): Outgoing {
  const headers: Record<string, string> = {};
  for (const name of REQUEST_HEADERS) {
    const value = request.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  const body = request.body instanceof Buffer && request.method !== "GET" && request.method !== "HEAD" ? request.body : undefined;
  const gone = new AbortController();
  reply.raw.once("close", () => {
    if (!reply.raw.writableFinished) gone.abort(new Error("the caller went away"));
  });
  const init: RequestInit = { method: request.method, headers, ...(body ? { body: body as unknown as BodyInit } : {}) };
  return { target, init, priority, gone: gone.signal };
}

function refuseWith(reply: FastifyReply, refusal: Refusal) {
  if (refusal.retryAfterSeconds !== undefined)
    void reply.header("retry-after", String(refusal.retryAfterSeconds)).header("x-ratelimit-rejected-bucket", "second");
  if (refusal.status === 401) void reply.header("www-authenticate", `Bearer error="${refusal.error}"`);
  return refuse(reply, refusal.status, refusal.error, refusal.description);
}

function passOn(reply: FastifyReply, answer: Answer, pacedAt: number | undefined) {
  void reply.code(answer.status);
  if (pacedAt !== undefined) void reply.header(RELAY_PACED_HEADER, String(pacedAt));
  for (const name of ANSWER_HEADERS) {
    const value = answer.headers.get(name);
    if (value !== null) void reply.header(name, value);
  }
  return reply.send(answer.body);
}

export async function relayRoutes(app: FastifyInstance, config: BrokerConfig & { relay: string }, deps: RelayDependencies): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: config.relayBodyLimit }, (_req, body, done) => done(null, body));
  const gate = deps.gate;

  /** One call upstream, through the gate when it paces: the answer, or the reply already sent. */
  /** Through the gate when it paces: a pass, or the reply already sent. */
  const admitted = async (request: FastifyRequest, reply: FastifyReply, out: Outgoing): Promise<Pass | FastifyReply> => {
    if (!gate) return { done: () => undefined };
    let pass: Pass | Refusal;
    try {
      pass = await gate.admit({ authorization: request.headers.authorization, address: request.ip, priority: out.priority, signal: out.gone });
    } catch (error) {
      if (out.gone.aborted) return refuse(reply, 503, "temporarily_unavailable", "The request was given up while it waited.");
      throw error;
    }
    return "done" in pass ? pass : refuseWith(reply, pass);
  };

  /** One call upstream: its answer, or the reply already sent. */
  const attempt = async (request: FastifyRequest, reply: FastifyReply, out: Outgoing): Promise<{ answer: Answer } | { sent: FastifyReply }> => {
    const pass = await admitted(request, reply, out);
    if (!("done" in pass)) return { sent: pass };
    try {
      const answer = await callUpstream(deps.fetchUpstream, out.target, out.init, {
        limit: config.relayAnswerLimit,
        timeoutMs: config.upstreamTimeoutMs,
        clock: deps.clock,
        signal: out.gone,
      });
      pass.done(answer.status);
      return { answer };
    } catch (error) {
      pass.done();
      if (!(error instanceof UpstreamFailure)) throw error;
      request.log.warn({ kind: error.kind }, "the relayed call failed");
      return {
        sent:
          error.status === 504
            ? refuse(reply, 504, "gateway_timeout", "The service did not answer in time through the relay. Try again in a moment.")
            : refuse(reply, 502, "bad_gateway", "The service could not be reached through the relay, or its answer was unusable. Try again in a moment."),
      };
    }
  };

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = relayablePath(request.url);
    const target = path === undefined ? undefined : relayTarget(config.relay, path);
    if (target === undefined) return refuse(reply, 404, "not_found", "This broker relays /data/v1/, /studio/v1/ and /copilot/v1/ only.");
    const priority = priorityOf(request);
    if (!priority) return refuse(reply, 400, "invalid_request", `The ${PRIORITY_HEADER} header must be "interactive" or "bulk".`);
    const out = outgoing(request, reply, target, priority);
    for (let held = 0; ; held += 1) {
      const result = await attempt(request, reply, out);
      if ("sent" in result) return result.sent;
      const answer = result.answer;
      const hold = gate ? heldSeconds(answer) : undefined;
      if (hold === undefined || held >= MAX_HELD_REFUSALS) return passOn(reply, answer, gate ? config.pacing?.perSecond : undefined);
      request.log.info({ held: held + 1 }, "the service refused a paced request: held and sent again");
      if (hold > 0) await deps.clock.sleep(hold * 1000);
    }
  };

  for (const prefix of RELAYED_PREFIXES) {
    app.route({ method: ["GET", "POST", "PUT", "PATCH", "DELETE"], url: `${prefix}*`, config: addressLimit(config.rateLimit.relay, "requests"), handler });
  }
}
