// createServiceClient: the composition of the client's parts behind the ServiceClient interface
// of types.ts. One request runner (transport, retry, rate limiter, concurrency cap, hooks)
// carries every operation; the operations live by subject, one `<subject>Operations.ts` file each
// (search, enrich, account, audience, audience writes, research, documents, signals, hierarchy:
// corporate families and org charts), all
// composed below. Each calls the service's operations by their entry in the operation table
// (operationCall.ts: method, path per profile, request and answer schemas, idempotent): every
// request is validated with the contract before it is sent and every answer is shape-checked after.
// The HTTP layer is a small interface (Transport): the global fetch by default (Node 20 and
// browsers both have it), a scripted function in tests.
import { definedOnly } from "./definedOnly.js";
import { accountOperations } from "./accountOperations.js";
import { audienceOperations } from "./audienceOperations.js";
import { audienceWriteOperations } from "./audienceWriteOperations.js";
import { callWith, trimSlash, type ClientContext } from "./clientContext.js";
import { systemClock } from "./clock.js";
import { ConcurrencyLimit } from "./concurrency.js";
import { enrichOperations } from "./enrichOperations.js";
import { entitlementOperations } from "./entitlementOperations.js";
import { hierarchyOperations } from "./hierarchyOperations.js";
import { insightOperations } from "./insightOperations.js";
import { RateLimiter } from "./rateLimiter.js";
import { RequestRunner } from "./request.js";
import { DEFAULT_RETRY } from "./retry.js";
import { ITERATE_PAGE_SIZE, searchOperations } from "./searchOperations.js";
import { researchOperations } from "./researchOperations.js";
import { documentOperations } from "./documentOperations.js";
import { signalOperations } from "./signalOperations.js";
import type { ServiceClient, ServiceClientOptions, Transport } from "./types.js";

const DEFAULTS = {
  perSecond: 25,
  burst: 1,
  safetyMargin: 0.02,
  concurrency: 6,
  timeoutMs: 30000,
  iteratePageSize: ITERATE_PAGE_SIZE,
} as const;

/** The request runner and the context every group of operations shares, built from the client's options. */
export function createClientContext(options: ServiceClientOptions): { ctx: ClientContext; runner: RequestRunner; limiter: RateLimiter } {
  const clock = options.clock ?? systemClock;
  const concurrency = options.concurrency ?? DEFAULTS.concurrency;
  const random = options.random ?? Math.random;
  const limiter = new RateLimiter(clock, {
    perSecond: options.rateLimit?.perSecond ?? DEFAULTS.perSecond,
    burst: options.rateLimit?.burst ?? DEFAULTS.burst,
    safetyMargin: options.rateLimit?.safetyMargin ?? DEFAULTS.safetyMargin,
    probeFirst: options.rateLimit?.probeFirst ?? false,
    cooperative: options.rateLimit?.cooperative ?? true,
    random,
  });
  const runner = new RequestRunner({
    transport: options.fetch ?? fetchTransport(),
    getAccessToken: options.getAccessToken,
    limiter,
    cap: new ConcurrencyLimit(concurrency),
    clock,
    retry: { ...DEFAULT_RETRY, ...definedOnly(options.retry ?? {}) },
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    random,
    ...(options.log ? { log: options.log } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.tellPriority ? { tellPriority: true } : {}),
  });
  const send: ClientContext["send"] = (spec) => runner.send(spec);
  const ctx: ClientContext = {
    baseUrl: trimSlash(options.baseUrl),
    audiencesBaseUrl: trimSlash(options.audiencesBaseUrl ?? options.baseUrl),
    clock,
    concurrency,
    send,
    call: callWith(send),
    ...(options.entitlements ? { entitlements: options.entitlements } : {}),
    ...(options.profile ? { profile: options.profile } : {}),
  };
  return { ctx, runner, limiter };
}

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const { ctx, runner, limiter } = createClientContext(options);
  return {
    ...searchOperations(ctx),
    ...enrichOperations(ctx),
    ...accountOperations(ctx),
    ...audienceOperations(ctx),
    ...audienceWriteOperations(ctx),
    ...signalOperations(ctx),
    ...documentOperations(ctx),
    ...insightOperations(ctx),
    ...researchOperations(ctx),
    ...hierarchyOperations(ctx),
    ...entitlementOperations(ctx),
    idle: () => runner.idle(),
    pacing: () => limiter.status(),
    onPacingChange: (listener) => limiter.onStatus(listener),
  };
}

type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Wraps a fetch function (default: the global one) as a Transport. */
export function fetchTransport(fetchImpl?: FetchLike): Transport {
  return async (url, request) => {
    const f: FetchLike | undefined = fetchImpl ?? (globalThis.fetch as FetchLike | undefined);
    if (!f) throw new TypeError("No fetch function is available in this environment");
    const init: RequestInit = { method: request.method, headers: request.headers };
    if (request.body !== undefined) init.body = request.body;
    if (request.signal !== undefined) init.signal = request.signal;
    const response = await f(url, init);
    return {
      status: response.status,
      headers: { get: (name: string) => response.headers.get(name) },
      text: () => response.text(),
    };
  };
}
