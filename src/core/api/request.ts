// Sends one logical request, as steps each short: the retry loop (shouldRetry decides), one
// attempt (concurrency and rate-limit slots, token, the body when it leaves), the exchange with
// its timeout, and the reading of a failure. Everything else in the client goes through here.
import { MEDIA_TYPE, PRIORITY_HEADER } from "../contract/index.js";
import type { ConcurrencyLimit } from "./concurrency.js";
import type { RequestHooks } from "./hooks.js";
import { errorFromResponse, isServiceError, serviceError, type ServiceError } from "./errors.js";
import type { RateLimiter } from "./rateLimiter.js";
import { redactText } from "./redact.js";
import { shouldRetry } from "./retry.js";
import type { RawResponse, RequestSpec } from "./requestSpec.js";
import { followSignal } from "./abortFollowers.js";
import { RequestTokens } from "./requestTokens.js";
import type { Clock, GetAccessToken, LogEntry, Logger, RequestPriority, RetryOptions, Transport } from "./types.js";

export type { RawResponse, RequestSpec } from "./requestSpec.js";

export interface RequestRunnerDeps {
  transport: Transport;
  getAccessToken: GetAccessToken;
  limiter: RateLimiter;
  cap: ConcurrencyLimit;
  clock: Clock;
  retry: Required<RetryOptions>;
  timeoutMs: number;
  random: () => number;
  log?: Logger;
  /** Cross-cutting behaviour around every logical request (hooks.ts). */
  hooks?: RequestHooks;
  /** Send each request's priority in PRIORITY_HEADER (only to the organization's relay). */
  tellPriority?: boolean;
}

/** What one attempt got as far as, for the retry loop. */
interface AttemptState {
  /** The rate limiter granted a slot (so the attempt must settle it). */
  granted?: boolean;
  token?: string;
  /** The token source or the body builder failed: nothing was sent, and a retry would not help. */
  unsendable?: boolean;
}

/** The request body: its text when known at once, or built when the request first leaves. */
interface BodyState {
  text?: string | undefined;
  built: boolean;
}

/** What the retry loop carries from one attempt to the next. */
interface RetryLoop {
  spec: RequestSpec;
  expect: readonly number[];
  body: BodyState;
  attempt: number;
  started: number;
  priority: RequestPriority;
  tokenRefreshed: boolean;
  /** The refreshed token the next attempt sends (after a 401). */
  refreshed?: Promise<string> | undefined;
}

function bodyOf(spec: RequestSpec): BodyState {
  return spec.bodyWhenSent === undefined ? { text: spec.body === undefined ? undefined : JSON.stringify(spec.body), built: true } : { built: false };
}

/** The body's text, built now if it is built when sent (once: a retry sends the same body). */
function builtBody(spec: RequestSpec, body: BodyState): string | undefined {
  if (!body.built) {
    const built = spec.bodyWhenSent?.();
    body.text = built === undefined ? undefined : JSON.stringify(built);
    body.built = true;
  }
  return body.text;
}

export function cancelledError(operation?: string): ServiceError {
  return serviceError("cancelled", { message: `${operation ?? "request"} was cancelled`, ...(operation ? { operation } : {}) });
}

export class RequestRunner {
  /** The access tokens the requests send, their renewal after a 401, and the ones to redact. */
  private readonly access: RequestTokens;
  /** Logical requests not settled yet, and who waits for there to be none. */
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly deps: RequestRunnerDeps) {
    this.access = new RequestTokens(deps.getAccessToken);
  }

  /** Tokens sent so far (the last few), redacted from anything the client says. */
  private get tokens(): readonly string[] {
    return this.access.sent;
  }

  send(spec: RequestSpec): Promise<RawResponse> {
    const hooks = this.deps.hooks;
    const done = () => {
      this.inFlight -= 1;
      if (this.inFlight > 0) return;
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    };
    this.inFlight += 1;
    let sending: Promise<RawResponse>;
    try {
      sending = hooks ? hooks.run(spec, (hooked) => this.sendOwn(hooked)) : this.sendOwn(spec);
    } catch (error) {
      done();
      throw error;
    }
    sending.then(done, done);
    return sending;
  }

  /** Settles once no request is in flight (at once when none is). */
  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async sendOwn(spec: RequestSpec): Promise<RawResponse> {
    // Waits inside one request listen on a signal of its own; a signal shared by hundreds of
    // requests (one enrichment, one import) carries one listener for all of them (signals.ts).
    const own = followSignal(spec.signal);
    try {
      return await this.sendWithRetries({ ...spec, signal: own.signal });
    } finally {
      own.release();
    }
  }

  /**
   * The retry loop, as steps: refuse a pause beyond the request's patience, one attempt, read a
   * failure, decide (shouldRetry), and wait before the next attempt.
   */
  private async sendWithRetries(spec: RequestSpec): Promise<RawResponse> {
    const loop: RetryLoop = {
      spec,
      expect: spec.expect ?? [200],
      body: bodyOf(spec),
      attempt: 0,
      started: this.deps.clock.now(),
      priority: spec.priority ?? "interactive",
      tokenRefreshed: false,
    };
    for (;;) {
      if (spec.signal?.aborted) throw cancelledError(spec.operation);
      loop.attempt += 1;
      this.refuseBeyondPatience(spec, loop.priority, this.deps.clock.now() - loop.started);
      const outcome = await this.attemptOnce(loop);
      if ("answer" in outcome) return outcome.answer;
    }
  }

  /** One attempt and what follows it: the answer, or (after the wait) nothing, to go round again. */
  private async attemptOnce(loop: RetryLoop): Promise<{ answer: RawResponse } | { again: true }> {
    const sent: AttemptState = {};
    const refresh = loop.refreshed;
    loop.refreshed = undefined;
    let answer: RawResponse | undefined;
    let settled = false;
    // Tells the limiter how a granted attempt ended, once, and before any backoff sleep.
    const settle = () => {
      if (sent.granted && !settled) {
        settled = true;
        this.deps.limiter.settle(answer?.headers);
      }
    };
    try {
      let error: ServiceError;
      try {
        answer = await this.attempt(loop.spec, refresh, loop.body, sent);
        if (loop.expect.includes(answer.status)) {
          settle();
          this.logLine("debug", `${loop.spec.operation} -> ${answer.status}`, { attempt: loop.attempt });
          return { answer };
        }
        error = this.failureOf(answer, loop);
      } catch (caught) {
        // No token to send ("sign in"): asking the token source again would not help.
        if (!isServiceError(caught) || sent.unsendable) throw caught;
        error = caught;
      }
      await this.afterFailure(error, loop, sent, settle);
      return { again: true };
    } finally {
      settle();
    }
  }

  /** An answer the request did not expect, as the error it is. */
  private failureOf(answer: RawResponse, loop: RetryLoop): ServiceError {
    const { spec, expect } = loop;
    if (answer.status >= 200 && answer.status < 300) {
      return serviceError("invalidResponse", {
        status: answer.status,
        message: `${spec.operation} answered HTTP ${answer.status}, expected ${expect.join(" or ")}`,
        operation: spec.operation,
      });
    }
    return errorFromResponse({
      status: answer.status,
      headers: answer.headers,
      body: answer.body,
      operation: spec.operation,
      secrets: this.tokens,
      now: this.deps.clock.now(),
    });
  }

  /** Decides on a failed attempt: throws when it is final, else gets the next attempt ready and waits. */
  private async afterFailure(error: ServiceError, loop: RetryLoop, sent: AttemptState, settle: () => void): Promise<void> {
    if (error.kind === "cancelled") throw error;
    const decision = this.decide(error, loop);
    // Everyone here waits after a 429, not just this request: the bucket is the
    // organization's. The wait comes back with a jitter, and this client's share shrinks.
    if (error.kind === "rateLimited" && error.status === 429) {
      this.deps.limiter.refused(error.retryAfterMs ?? (decision.retry ? decision.delayMs : 0), error.rateLimitBucket);
    }
    this.logLine(decision.retry ? "info" : "warn", `${loop.spec.operation} failed (${error.kind}, HTTP ${error.status}): ${decision.reason}`, {
      attempt: loop.attempt,
      ...(decision.retry ? { delayMs: decision.delayMs } : {}),
    });
    if (!decision.retry) throw error;
    if (decision.refreshToken) {
      loop.tokenRefreshed = true;
      loop.refreshed = this.access.refreshed(sent.token);
      // Awaited by the retry below; a failure must not go unhandled if the wait is cancelled.
      loop.refreshed.catch(() => undefined);
    }
    settle();
    if (error.kind !== "rateLimited" && decision.delayMs > 0) await this.backoff(decision.delayMs, loop.spec);
  }

  private decide(error: ServiceError, loop: RetryLoop) {
    return shouldRetry({
      kind: error.kind,
      status: error.status,
      attempt: loop.attempt,
      tokenRefreshed: loop.tokenRefreshed,
      ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
      ...(error.retryable !== undefined ? { retryable: error.retryable } : {}),
      idempotent: loop.spec.idempotent,
      priority: loop.priority,
      elapsedMs: this.deps.clock.now() - loop.started,
      random: this.deps.random(),
      ...this.deps.retry,
    });
  }

  private async backoff(delayMs: number, spec: RequestSpec): Promise<void> {
    try {
      await this.deps.clock.sleep(delayMs, spec.signal);
    } catch {
      throw cancelledError(spec.operation);
    }
  }

  /**
   * A pause longer than the request's remaining patience (an hour or day bucket used up, a long
   * Retry-After) fails the request now, with the wait in its message, instead of at its end.
   */
  private refuseBeyondPatience(spec: RequestSpec, priority: RequestPriority, elapsedMs: number): void {
    const { remainingMs, bucket } = this.deps.limiter.pause();
    const patience = priority === "bulk" ? this.deps.retry.bulkPatienceMs : this.deps.retry.patienceMs;
    if (remainingMs === 0 || elapsedMs + remainingMs <= patience) return;
    throw serviceError("rateLimited", {
      status: 429,
      retryAfterMs: remainingMs,
      ...(bucket ? { rateLimitBucket: bucket } : {}),
      message: `${spec.operation} not sent: the organization's rate limit holds requests for ${Math.ceil(remainingMs / 1000)} s more`,
      operation: spec.operation,
    });
  }

  /** One attempt, as steps: wait for the slots, take a token and the body, send with a timeout. */
  private async attempt(spec: RequestSpec, after401: Promise<string> | undefined, body: BodyState, sent: AttemptState): Promise<RawResponse> {
    const release = await this.slots(spec);
    sent.granted = true;
    try {
      // Taken after the wait for a slot, so a long queue does not send an expired token.
      const token = await this.unsendableOnFailure(sent, () => this.access.take(after401, spec));
      sent.token = token;
      // Built when the request leaves (an enrichment reads its batch then); nothing sent if it fails.
      const text = await this.unsendableOnFailure(sent, async () => builtBody(spec, body));
      return await this.exchange(spec, token, text);
    } finally {
      release();
    }
  }

  /** A concurrency slot, then a rate-limit slot; the release of the first. */
  private async slots(spec: RequestSpec): Promise<() => void> {
    let release: () => void;
    try {
      release = await this.deps.cap.acquire(spec.signal, spec.priority);
    } catch {
      throw cancelledError(spec.operation);
    }
    try {
      await this.deps.limiter.acquire(spec.signal, spec.priority);
    } catch {
      release();
      throw cancelledError(spec.operation);
    }
    return release;
  }

  private async unsendableOnFailure<T>(sent: AttemptState, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (caught) {
      sent.unsendable = true;
      throw caught;
    }
  }

  /** Sends and reads the whole answer, within the client's time limit. */
  private async exchange(spec: RequestSpec, token: string, text: string | undefined): Promise<RawResponse> {
    const { clock, transport, timeoutMs } = this.deps;
    const controller = new AbortController();
    const stopTimer = new AbortController();
    let timedOut = false;
    const aborted = new Promise<never>((_resolve, reject) => {
      controller.signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
    });
    // The race below settles on whichever comes first; the loser's rejection is expected.
    aborted.catch(() => undefined);
    const onCallerAbort = () => controller.abort();
    spec.signal?.addEventListener("abort", onCallerAbort, { once: true });
    clock.sleep(timeoutMs, stopTimer.signal).then(
      () => {
        timedOut = true;
        controller.abort();
      },
      () => undefined, // the attempt finished first
    );
    try {
      const sending = transport(spec.url, {
        method: spec.method,
        headers: this.headers(spec, token, text),
        ...(text !== undefined ? { body: text } : {}),
        signal: controller.signal,
      });
      sending.catch(() => undefined);
      const response = await Promise.race([sending, aborted]);
      const reading = response.text();
      reading.catch(() => undefined);
      const answer = await Promise.race([reading, aborted]);
      return { status: response.status, headers: response.headers, body: answer };
    } catch (caught) {
      throw this.sendFailure(spec, token, timedOut, caught);
    } finally {
      stopTimer.abort();
      spec.signal?.removeEventListener("abort", onCallerAbort);
    }
  }

  private headers(spec: RequestSpec, token: string, text: string | undefined): Record<string, string> {
    const headers: Record<string, string> = { accept: MEDIA_TYPE, authorization: `Bearer ${token}` };
    if (text !== undefined) headers["content-type"] = MEDIA_TYPE;
    if (this.deps.tellPriority) headers[PRIORITY_HEADER] = spec.priority ?? "interactive";
    return headers;
  }

  /** Why a send failed: cancelled, timed out, or the connection. */
  private sendFailure(spec: RequestSpec, token: string, timedOut: boolean, caught: unknown): ServiceError {
    if (spec.signal?.aborted) return cancelledError(spec.operation);
    if (timedOut)
      return serviceError("timeout", {
        message: `${spec.operation} got no answer within ${this.deps.timeoutMs} ms`,
        operation: spec.operation,
        secrets: [token],
      });
    return serviceError("network", {
      message: `${spec.operation} failed: the connection was dropped or refused`,
      operation: spec.operation,
      cause: caught,
      secrets: [token],
    });
  }

  private logLine(level: LogEntry["level"], message: string, data: Record<string, unknown>): void {
    this.deps.log?.({ level, message: redactText(message, this.tokens), data });
  }
}
