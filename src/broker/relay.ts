// The optional API relay, for services that do not answer browser origins: the add-in's
// operations (relayOperations.ts) go to the configured service base with the user's own bearer
// token. Status, body, content type, rate-limit headers and Retry-After pass through unchanged.
// With pacing (config.pacing) each tenant's calls leave at its package rate (pacing.ts), and a
// per-second refusal the service sends anyway is held and sent again instead of passed on.
// Nothing of a body is read before the request is known to be for an operation the relay
// forwards, carries a token, and has its queue place and a share of the bounded body memory
// (preParsing): a refusal before then leaves the body unread.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { BrokerConfig } from "./config.js";
import { EXPOSED_HEADERS, refuse } from "./cors.js";
import { RELAY_PACED_HEADER, type Clock } from "../core/contract/index.js";
import type { Pass, Refusal, RelayGate } from "./gate.js";
import { PRIORITY_HEADER, type Priority } from "./pacing.js";
import { addressLimit } from "./rateLimit.js";
import { BodyBudget, boundedBody } from "./bodyBudget.js";
import { bearerToken } from "./caller.js";
import { isRelayedOperation } from "./relayOperations.js";
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

/** A request refused before its body is read; the error handler answers it (app.ts). */
export class RelayRefusal extends Error {
  readonly statusCode: number;
  readonly code = "BROKER_RELAY_REFUSAL";
  constructor(
    readonly refusal: Refusal,
    /** Answered in the service's error shape ({errors: [...]}) rather than OAuth's. */
    readonly serviceShape = false,
  ) {
    super(refusal.description);
    this.statusCode = refusal.status;
  }
}

/** Answers a refusal: OAuth's shape, or the service's for the body limits; Retry-After and a Bearer challenge as they apply. */
export function refuseWith(reply: FastifyReply, refusal: Refusal, serviceShape = false) {
  if (refusal.retryAfterSeconds !== undefined) {
    void reply.header("retry-after", String(refusal.retryAfterSeconds));
    if (refusal.status === 429) void reply.header("x-ratelimit-rejected-bucket", "second");
  }
  if (refusal.status === 401) void reply.header("www-authenticate", `Bearer error="${refusal.error}"`);
  if (!serviceShape) return refuse(reply, refusal.status, refusal.error, refusal.description);
  const error = { status: String(refusal.status), code: refusal.error, title: "Refused by the API relay", detail: refusal.description };
  return reply
    .code(refusal.status)
    .header("cache-control", "no-store")
    .type("application/json")
    .send({ errors: [error] });
}

/** The gone signal of a request: fires when its caller goes away before the answer is sent. */
function goneSignal(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.once("close", () => {
    if (!reply.raw.writableFinished) gone.abort(new Error("the caller went away"));
  });
  return gone.signal;
}

/** The request's headers and body that go upstream. */
function upstreamInit(request: FastifyRequest): RequestInit {
  const headers: Record<string, string> = {};
  for (const name of REQUEST_HEADERS) {
    const value = request.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  const body = request.body instanceof Buffer && request.method !== "GET" && request.method !== "HEAD" ? request.body : undefined;
  return { method: request.method, headers, ...(body ? { body: body as unknown as BodyInit } : {}) };
}

/** What a request was admitted with before its body was read: where it goes, its pass, its gone signal. */
interface Admission {
  target: string;
  priority: Priority;
  gone: AbortSignal;
  /** The first attempt's pass (taken before the body was read); undefined once used. */
  pass: Pass | undefined;
}

const refusal = (status: number, error: string, description: string, retryAfterSeconds?: number): Refusal => ({
  status,
  error,
  description,
  ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
});

/** Calls `end` once the request is over: answered, or its caller gone. */
function whenOver(reply: FastifyReply, end: () => void): void {
  reply.raw.once("finish", end);
  reply.raw.once("close", end);
}

/** Where the request goes and at what priority, or why it is refused (nothing read yet). */
function checkedRequest(request: FastifyRequest, relayBase: string, bodyLimit: number): { target: string; priority: Priority } {
  const path = relayablePath(request.url);
  const target = path === undefined ? undefined : relayTarget(relayBase, path);
  if (target === undefined || !isRelayedOperation(request.method, path!.split("?")[0]!))
    throw new RelayRefusal(refusal(404, "not_found", "This relay forwards the add-in's own operations of the service only."));
  if (!bearerToken(request.headers.authorization)) throw new RelayRefusal(refusal(401, "invalid_token", "Sign in first: the request carries no access token."));
  const priority = priorityOf(request);
  if (!priority) throw new RelayRefusal(refusal(400, "invalid_request", `The ${PRIORITY_HEADER} header must be "interactive" or "bulk".`));
  if ((declaredLength(request) ?? 0) > bodyLimit)
    throw new RelayRefusal(refusal(413, "payload_too_large", `The request body is over the relay's limit of ${bodyLimit / 1024 / 1024} MiB.`), true);
  return { target, priority };
}

/** The body's declared length: 0 without a body, undefined when it does not say (chunked). */
function declaredLength(request: FastifyRequest): number | undefined {
  const length = request.headers["content-length"];
  if (length !== undefined) return Number(length) || 0;
  return request.headers["transfer-encoding"] !== undefined ? undefined : 0;
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

/** Passes at most once to `done`, whichever of the call and the end of the request comes first. */
function once(pass: Pass): Pass {
  let done = false;
  return {
    ...pass,
    done: (status) => {
      if (done) return;
      done = true;
      pass.done(status);
    },
  };
}

/** Through the gate when it paces (a pass, or the refusal); without pacing every request passes. */
function admitter(gate: RelayGate | undefined) {
  return async (request: FastifyRequest, priority: Priority, gone: AbortSignal): Promise<Pass | Refusal> => {
    if (!gate) return { done: () => undefined };
    try {
      return await gate.admit({ authorization: request.headers.authorization, address: request.ip, priority, signal: gone });
    } catch (error) {
      if (gone.aborted) return refusal(503, "temporarily_unavailable", "The request was given up while it waited.");
      throw error;
    }
  };
}

/**
 * Before a byte of a relayed body is read (preParsing): the operation, the token, the queue
 * place and the body memory. A refusal leaves the body unread; an admission is kept for the handler.
 */
function admitBeforeBody(
  app: FastifyInstance,
  config: BrokerConfig & { relay: string },
  clock: Pick<Clock, "sleep">,
  admit: ReturnType<typeof admitter>,
  admissions: WeakMap<FastifyRequest, Admission>,
): void {
  const budget = new BodyBudget(config.bufferedBodyBytes, config.bufferedBodyBytesPerOrganization);
  /** The request's share of the body memory, held until it ends; or the refusal. */
  const reserveBody = (request: FastifyRequest, reply: FastifyReply, pass: Pass): Refusal | undefined => {
    const bytes = declaredLength(request) ?? config.relayBodyLimit;
    if (bytes === 0) return undefined;
    const release = budget.reserve(pass.organization ?? `address:${request.ip}`, bytes);
    if (typeof release === "function") {
      whenOver(reply, release);
      return undefined;
    }
    const whose = release === "total" ? "The relay is busy receiving other uploads" : "Your organization has many uploads under way through the relay";
    return refusal(503, "relay_busy", `${whose}. Try again in a few seconds.`, 2);
  };

  app.addHook("preParsing", async (request, reply, payload) => {
    const { target, priority } = checkedRequest(request, config.relay, config.relayBodyLimit);
    const gone = goneSignal(reply);
    const admitted = await admit(request, priority, gone);
    if (!("done" in admitted)) throw new RelayRefusal(admitted);
    const pass = once(admitted);
    whenOver(reply, () => pass.done());
    const refused = reserveBody(request, reply, pass);
    if (refused) throw new RelayRefusal(refused, true);
    admissions.set(request, { target, priority, gone, pass });
    const bytes = declaredLength(request);
    return bytes === 0 ? payload : boundedBody(payload, bytes ?? config.relayBodyLimit, config.bodyTimeoutMs, clock);
  });
}

export async function relayRoutes(app: FastifyInstance, config: BrokerConfig & { relay: string }, deps: RelayDependencies): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: config.relayBodyLimit }, (_req, body, done) => done(null, body));
  const gate = deps.gate;
  const admissions = new WeakMap<FastifyRequest, Admission>();

  const admit = admitter(gate);

  admitBeforeBody(app, config, deps.clock, admit, admissions);

  /** One call upstream: its answer, or the reply already sent. */
  const attempt = async (
    request: FastifyRequest,
    reply: FastifyReply,
    out: Outgoing,
    first: Pass | undefined,
  ): Promise<{ answer: Answer } | { sent: FastifyReply }> => {
    const pass = first ?? (await admit(request, out.priority, out.gone));
    if (!("done" in pass)) return { sent: refuseWith(reply, pass) };
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
    const admission = admissions.get(request)!;
    const out: Outgoing = { target: admission.target, init: upstreamInit(request), priority: admission.priority, gone: admission.gone };
    for (let held = 0; ; held += 1) {
      const result = await attempt(request, reply, out, held === 0 ? admission.pass : undefined);
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
