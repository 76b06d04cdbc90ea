// Starts the real sandbox in-process for tests: in memory, plain HTTP, port 0, small data.
import type { FaultOptions, SandboxContext, SandboxOptions } from "../../src/sandbox/context.js";
import { startSandbox } from "../../src/sandbox/server.js";

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
  /** A dev token signed by the sandbox (defaults: all data scopes, role fea:api, account "default"). */
  token(claims?: TestTokenClaims): Promise<string>;
  /** API requests received for a route ("POST /data/v1/companies/enrich"), or all of them. */
  requests(route?: string): number;
  resetStats(): void;
  setFaults(partial: Partial<FaultOptions>): Promise<FaultOptions>;
  /** Creates or resets an account with a credit balance. */
  setAccount(id: string, credits: number): Promise<void>;
  close(): Promise<void>;
}

export const TEST_COMPANIES = 2000;
export const TEST_CONTACTS = 5000;

type TestOptions = Partial<Omit<SandboxOptions, "rateLimit" | "faults">> & {
  rateLimit?: Partial<SandboxOptions["rateLimit"]>;
  faults?: Partial<FaultOptions>;
};

export async function startTestSandbox(options: TestOptions = {}): Promise<TestSandbox> {
  const sandbox = await startSandbox({
    companies: TEST_COMPANIES,
    contacts: TEST_CONTACTS,
    ...options,
    // Tests make bursts of requests: a high limit unless the test asks for one.
    rateLimit: { perSecond: 100_000, perHour: 10_000_000, perDay: 100_000_000, ...options.rateLimit },
    http: true,
    port: 0,
    host: "127.0.0.1",
  });
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
    async setAccount(id, credits) {
      await post("/__sandbox/accounts", { id, credits });
    },
    close: () => sandbox.close(),
  };
}
