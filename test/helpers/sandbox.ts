// Starts the real sandbox in-process for tests: in memory, plain HTTP, port 0, small data.
// useSandbox() is the usual way: one sandbox per file (or describe block), started before its
// tests and closed after them (after hooks run when a test fails too); a sandbox of one test is
// sandboxForTest(t) or closedAfter(t, ...), closed when that test ends, failed or not.
import { after, before } from "node:test";
import type { FaultOptions, SandboxContext, SandboxOptions } from "../../src/sandbox/context.js";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server.js";
import type { ManualClock } from "../../src/sandbox/clock.js";
import type { Clock } from "../../src/core/api/types.js";

export interface TestTokenClaims {
  scopes?: string[];
  roles?: string[];
  account?: string;
  subject?: string;
  /** Seconds; negative gives an already expired token. */
  expiresIn?: number;
}

export interface TestSandbox {
  url: string;
  ctx: SandboxContext;
  /** A dev token signed by the sandbox (defaults: all data scopes and the plan and insights scopes, every role, account "default"). */
  token(claims?: TestTokenClaims): Promise<string>;
  /** API requests received for a route ("POST /data/v1/companies/enrich"), or all of them. */
  requests(route?: string): number;
  resetStats(): void;
  setFaults(partial: Partial<FaultOptions>): Promise<FaultOptions>;
  /** Creates or resets an account with a credit balance (and an AI action credit limit; default 250). */
  setAccount(id: string, credits: number, aiCredits?: number): Promise<void>;
  close(): Promise<void>;
}

export const TEST_COMPANIES = 2000;
export const TEST_CONTACTS = 5000;

export type TestOptions = Partial<Omit<SandboxOptions, "rateLimit" | "faults">> & {
  rateLimit?: Partial<SandboxOptions["rateLimit"]>;
  faults?: Partial<FaultOptions>;
  /** Time source of the sandbox (see manualClock). */
  clock?: Clock;
};

export { manualClock, type ManualClock } from "../../src/sandbox/clock.js";

/**
 * A service client's time on a sandbox's manual clock, as client options (spread them in), so
 * client and sandbox share one time: the client's waits (backoff, pacing, Retry-After) move the
 * sandbox's clock at once instead of passing in real time. The client's request timeout is set
 * to a wait that never ends (unless aborted): no answer is ever late.
 */
export function clientTimeOn(clock: ManualClock): { clock: Clock; timeoutMs: number } {
  const never = 2_147_483_647;
  return {
    timeoutMs: never,
    clock: {
      now: () => clock.now(),
      sleep: (ms, signal) =>
        new Promise<void>((resolve, reject) => {
          const abort = () => reject(signal?.reason ?? new Error("aborted"));
          if (signal?.aborted) return abort();
          signal?.addEventListener("abort", abort, { once: true });
          if (ms !== never) void clock.advance(Math.max(0, ms)).then(resolve);
        }),
    },
  };
}

/**
 * Registers before/after hooks in the current scope (file or describe block) that start a test
 * sandbox and close it. The returned object stands for that sandbox: its async methods wait for
 * the start (Node 20 may run a scope's async before-hooks side by side), url and ctx are read
 * inside tests.
 */
export function useSandbox(options: TestOptions = {}): TestSandbox {
  let starting: Promise<TestSandbox> | undefined;
  let running: TestSandbox | undefined;
  let closed = false;
  const start = (): Promise<TestSandbox> => {
    if (closed) return Promise.reject(new Error("The test sandbox was closed after its scope's tests."));
    starting ??= startTestSandbox(options).then((sandbox) => (running = sandbox));
    return starting;
  };
  before(async () => {
    await start();
  });
  after(async () => {
    closed = true;
    if (starting) await (await starting).close();
  });
  const current = (): TestSandbox => {
    if (!running) throw new Error("The test sandbox is not running yet: read url and ctx inside tests of the scope that called useSandbox().");
    return running;
  };
  return {
    get url() {
      return current().url;
    },
    get ctx() {
      return current().ctx;
    },
    token: async (claims) => (await start()).token(claims),
    requests: (route) => current().requests(route),
    resetStats: () => current().resetStats(),
    setFaults: async (partial) => (await start()).setFaults(partial),
    setAccount: async (id, credits, aiCredits) => (await start()).setAccount(id, credits, aiCredits),
    close: async () => (await start()).close(),
  };
}

/** The part of a test's context that registers cleanup (node:test's TestContext). */
export interface CleanupContext {
  after(fn: () => unknown): void;
}

/**
 * Closes `started` (a sandbox, a server: anything with close) when the test `t` ends, passed or
 * failed, so a failing assertion never leaves it open until the run's time limit. Closing it
 * earlier in the test is fine: it is closed once.
 */
export function closedAfter<S extends { close(): Promise<void> }>(t: CleanupContext, started: S): S {
  const close = started.close.bind(started);
  let closing: Promise<void> | undefined;
  started.close = () => (closing ??= close());
  t.after(() => started.close());
  return started;
}

/** A test sandbox for one test (`t`), closed when the test ends even when it fails. */
export async function sandboxForTest(t: CleanupContext, options: TestOptions = {}): Promise<TestSandbox> {
  return closedAfter(t, await startTestSandbox(options));
}

/**
 * startSandbox on a free port. The port is chosen before the app is built (its address is the
 * token issuer), so another process may take it first: then it tries another.
 */
async function startOnFreePort(options: TestOptions): Promise<RunningSandbox> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startSandbox({
        companies: TEST_COMPANIES,
        contacts: TEST_CONTACTS,
        ...options,
        // Tests make bursts of requests: a high limit unless the test asks for one.
        rateLimit: { perSecond: 100_000, perHour: 10_000_000, perDay: 100_000_000, ...options.rateLimit },
        http: true,
        port: 0,
        host: "127.0.0.1",
      });
    } catch (error) {
      if ((error as { code?: unknown }).code !== "EADDRINUSE" || attempt >= 5) throw error;
    }
  }
}

export async function startTestSandbox(options: TestOptions = {}): Promise<TestSandbox> {
  const sandbox = await startOnFreePort(options);
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return res.json() as Promise<unknown>;
  };
  return {
    url: sandbox.url,
    ctx: sandbox.ctx,
    async token(claims = {}) {
      const answer = (await post("/__sandbox/token", claims)) as { access_token: string };
      return answer.access_token;
    },
    requests(route) {
      if (route !== undefined) return sandbox.ctx.stats.requests.get(route) ?? 0;
      let total = 0;
      for (const n of sandbox.ctx.stats.requests.values()) total += n;
      return total;
    },
    resetStats: () => sandbox.ctx.stats.reset(),
    setFaults: async (partial) => (await post("/__sandbox/faults", partial)) as FaultOptions,
    async setAccount(id, credits, aiCredits) {
      await post("/__sandbox/accounts", { id, credits, ...(aiCredits !== undefined ? { aiCredits } : {}) });
    },
    close: () => sandbox.close(),
  };
}
