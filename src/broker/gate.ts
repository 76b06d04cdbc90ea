// The relay's gate when it paces: a request whose token is proven (trust.ts) waits for its
// tenant's slot; one whose token is not yet proven waits in its address's probation lane and
// takes no tenant's slot; one whose signature is wrong is refused before anything is sent.
import type { Priority, TenantPacer } from "./pacing.js";
import { QueueFullError } from "./pacing.js";
import type { ProbationLanes } from "./probation.js";
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
}

export interface GateRequest {
  authorization: string | undefined;
  address: string;
  priority: Priority;
  signal: AbortSignal;
}

export class RelayGate {
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
    let release;
    try {
      release = await this.probation.enter(request.address, request.signal);
    } catch (error) {
      if (!(error instanceof QueueFullError)) throw error;
      return { status: 429, error: "too_many_requests", description: "Too many requests from this address with a token the service has not yet accepted. Try again in 1 s.", retryAfterSeconds: 1 };
    }
    // Proven while it waited (an earlier request with the same token was accepted).
    const now = await this.trust.standing(request.authorization);
    if (now.kind === "proven") {
      release();
      return this.paced(request, now.caller);
    }
    return {
      done: (status) => {
        if (status !== undefined) this.trust.answered(request.authorization, status);
        release();
      },
    };
  }

  private async paced(request: GateRequest, caller: { tenant: string; user: string }): Promise<Pass | Refusal> {
    try {
      await this.pacer.take(caller.tenant, caller.user, request.priority, request.signal);
    } catch (error) {
      if (!(error instanceof QueueFullError)) throw error;
      const wait = Math.round(this.maxQueueWaitMs / 1000);
      return { status: 429, error: "too_many_requests", description: `Your organization's requests are queued for more than ${wait} s. Try again in ${error.retryAfterSeconds} s.`, retryAfterSeconds: error.retryAfterSeconds };
    }
    return { done: (status) => status !== undefined && this.trust.answered(request.authorization, status) };
  }
}
