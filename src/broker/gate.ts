// The relay's gate when it paces: a request whose token is proven (trust.ts) waits for its
// tenant's slot; one whose token is not yet proven waits in its address's probation lane and
// takes no tenant's slot; one whose signature is wrong is refused before anything is sent.
// While one request of a token is on probation, the token's other requests wait for its
// outcome (a user's first screen sends several at once) rather than take places in the lane.
import { bearerToken } from "./caller.js";
import type { Priority, TenantPacer } from "./pacing.js";
import { QueueFullError } from "./pacing.js";
import type { ProbationLanes, Release } from "./probation.js";
import { tokenKey } from "./proof.js";
import type { TokenTrust } from "./trust.js";

export interface Refusal {
  status: number;
  error: string;
  description: string;
  retryAfterSeconds?: number;
}

/** Let through: `done` is told the service's status (or nothing, when the call failed). */
export interface Pass {
  done(status?: number): void;
  /** The organization (a hash of its proven tenant claim) whose queue it took; none on probation. */
  organization?: string;
}

export interface GateRequest {
  authorization: string | undefined;
  address: string;
  priority: Priority;
  signal: AbortSignal;
}

/** Requests of one token waiting for its probation's outcome, at most. */
const FOLLOWERS = 64;

interface Probe {
  over: Promise<void>;
  followers: number;
}

const tooMany = (what: string): Refusal => ({
  status: 429,
  error: "too_many_requests",
  description: `Too many requests ${what} with a token the service has not yet accepted. Try again in 1 s.`,
  retryAfterSeconds: 1,
});

/** Resolves when `promise` does, or rejects when the signal aborts first. */
function unlessAborted(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    void promise.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
  });
}

export class RelayGate {
  /** Tokens (by hash) with a request on probation now. */
  private readonly probes = new Map<string, Probe>();

  constructor(
    private readonly pacer: TenantPacer,
    private readonly trust: TokenTrust,
    private readonly probation: ProbationLanes,
    private readonly maxQueueWaitMs: number,
  ) {}

  /** Resolves once the request may leave, or with the refusal to answer; rejects when the caller went away. */
  async admit(request: GateRequest): Promise<Pass | Refusal> {
    const standing = await this.trust.standing(request.authorization);
    if (standing.kind === "refused") return { status: 401, error: "invalid_token", description: "The access token could not be verified. Sign in again." };
    if (standing.kind === "proven") return this.paced(request, standing.caller);
    const token = bearerToken(request.authorization);
    const key = token ? tokenKey(token) : undefined;
    const probe = key === undefined ? undefined : this.probes.get(key);
    if (!probe) return this.onProbation(request, key);
    if (probe.followers >= FOLLOWERS) return tooMany("of one sign-in");
    probe.followers += 1;
    try {
      await unlessAborted(probe.over, request.signal);
    } finally {
      probe.followers -= 1;
    }
    return this.admit(request);
  }

  /** Through the address's probation lane, as the token's probe: the token's other requests wait for its outcome. */
  private async onProbation(request: GateRequest, key: string | undefined): Promise<Pass | Refusal> {
    let over: () => void = () => undefined;
    if (key !== undefined) this.probes.set(key, { over: new Promise<void>((resolve) => (over = resolve)), followers: 0 });
    const finish = () => {
      if (key !== undefined) this.probes.delete(key);
      over();
    };
    let release: Release;
    try {
      release = await this.probation.enter(request.address, request.signal);
    } catch (error) {
      finish();
      if (!(error instanceof QueueFullError)) throw error;
      return tooMany("from this address");
    }
    return {
      done: (status) => {
        if (status !== undefined) this.trust.answered(request.authorization, status);
        release();
        finish();
      },
    };
  }

  private async paced(request: GateRequest, caller: { tenant: string; user: string }): Promise<Pass | Refusal> {
    try {
      await this.pacer.take(caller.tenant, caller.user, request.priority, request.signal);
    } catch (error) {
      if (!(error instanceof QueueFullError)) throw error;
      const wait = Math.round(this.maxQueueWaitMs / 1000);
      return {
        status: 429,
        error: "too_many_requests",
        description: `Your organization's requests are queued for more than ${wait} s. Try again in ${error.retryAfterSeconds} s.`,
        retryAfterSeconds: error.retryAfterSeconds,
      };
    }
    return { done: (status) => status !== undefined && this.trust.answered(request.authorization, status), organization: caller.tenant };
  }
}
