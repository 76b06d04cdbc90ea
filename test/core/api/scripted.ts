// Test seams for the client: a fake clock that jumps from timer to timer (the unit tests' one
// manual clock: the client, the job poller, sign-in, the broker and the task pane's timers use it
// too; sandbox tests use the sandbox's own, src/sandbox/clock.ts), and a scripted transport that
// records every request and answers from a handler.
import type { Clock, Transport, TransportResponse } from "../../../src/core/api/index.js";

interface Timer {
  at: number;
  seq: number;
  resolve: () => void;
}

export class FakeClock implements Clock {
  private t: number;
  private seq = 0;
  private timers: Timer[] = [];

  constructor(start = 0) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason ?? new Error("aborted"));
        return;
      }
      const timer: Timer = {
        at: this.t + Math.max(0, ms),
        seq: this.seq++,
        resolve: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.timers = this.timers.filter((x) => x !== timer);
        reject(signal?.reason ?? new Error("aborted"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.timers.push(timer);
    });
  }

  get pendingTimers(): number {
    return this.timers.length;
  }

  /** Lets every ready promise callback run. */
  async flush(): Promise<void> {
    for (let i = 0; i < 5; i += 1) await new Promise<void>((r) => setImmediate(r));
  }

  /** Moves time forward by ms, firing timers in order. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await this.flush();
      const next = this.nextTimer();
      if (!next || next.at > end) break;
      this.fire(next);
    }
    this.t = end;
    await this.flush();
  }

  /** Moves time forward to `at`, firing timers in order. */
  advanceTo(at: number): Promise<void> {
    return this.advance(at - this.t);
  }

  /** Runs until the promise settles, jumping from timer to timer; fails on a deadlock. */
  async run<T>(promise: Promise<T>, limitMs = 10 * 60 * 1000): Promise<T> {
    let settled = false;
    promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    for (;;) {
      await this.flush();
      if (settled) return promise;
      const next = this.nextTimer();
      if (!next) throw new Error("FakeClock.run: nothing left to wait for but the promise has not settled");
      if (next.at > limitMs) throw new Error(`FakeClock.run: still waiting at ${next.at} ms`);
      this.fire(next);
    }
  }

  private nextTimer(): Timer | undefined {
    return [...this.timers].sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
  }

  private fire(timer: Timer): void {
    this.timers = this.timers.filter((x) => x !== timer);
    this.t = Math.max(this.t, timer.at);
    timer.resolve();
  }
}

export interface RecordedRequest {
  url: string;
  path: string;
  query: URLSearchParams;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  at: number;
}

export type ScriptedAnswer = TransportResponse | Error | "hang";
export type Handler = (request: RecordedRequest, index: number) => ScriptedAnswer | Promise<ScriptedAnswer>;

export function answer(status: number, body?: unknown, headers: Record<string, string> = {}): TransportResponse {
  const text = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { status, headers: { get: (name) => lower[name.toLowerCase()] ?? null }, text: async () => text };
}

/** A transport answering from `handler`; `requests` lists what was sent, in order. */
export function scriptedTransport(clock: Clock, handler: Handler): Transport & { requests: RecordedRequest[]; inFlight: number; maxInFlight: number } {
  const requests: RecordedRequest[] = [];
  const transport = async (url: string, init: Parameters<Transport>[1]) => {
    const u = new URL(url);
    const recorded: RecordedRequest = {
      url,
      path: u.pathname,
      query: u.searchParams,
      method: init.method,
      headers: init.headers,
      body: init.body === undefined ? undefined : JSON.parse(init.body),
      at: clock.now(),
    };
    requests.push(recorded);
    state.inFlight += 1;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    try {
      const result = await handler(recorded, requests.length - 1);
      if (result === "hang") {
        return await new Promise<TransportResponse>((_resolve, reject) => {
          init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")), { once: true });
        });
      }
      if (result instanceof Error) throw result;
      return result;
    } finally {
      state.inFlight -= 1;
    }
  };
  const state = Object.assign(transport, { requests, inFlight: 0, maxInFlight: 0 });
  return state;
}

export const TOKEN = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.c2lnbmF0dXJlLXNlY3JldA";

/** A token source that counts its calls and hands out a fresh token on forceRefresh. */
export function tokenSource(tokens: string[] = [TOKEN, `${TOKEN}-refreshed`]) {
  const calls: Array<{ forceRefresh?: boolean } | undefined> = [];
  let current = 0;
  const getAccessToken = async (request?: { forceRefresh?: boolean }) => {
    calls.push(request);
    if (request?.forceRefresh) current = Math.min(current + 1, tokens.length - 1);
    return tokens[current]!;
  };
  return { getAccessToken, calls };
}

export function companyPage(ids: number[], pageNumber: number, total: number, pageSize: number) {
  return {
    data: ids.map((id) => ({ id: String(id), type: "Company", attributes: { name: `Company ${id}` } })),
    meta: { totalResults: total, page: { number: pageNumber, total: Math.ceil(total / pageSize) } },
    links: {},
  };
}
