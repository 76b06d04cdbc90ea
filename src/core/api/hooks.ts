// Cross-cutting request behaviour plugs in here instead of wrapping the client's methods: every
// logical request (one operation, with its retries) runs through the wraps, the first registered
// outermost. A wrap may rewrite the spec before sending, look at or replace the answer, observe
// a failure, or retry. Today the runtime registers two (src/runtime.ts): the sign-out after an
// unrecoverable 401 (src/auth/signOutOnRefusal.ts) and the usage notice (usageChanges.ts). The
// production dialect (wire names, paging) is spoken at the transport edge instead
// (production/edge.ts), and the relay is an address (the environment's API base).
//
// Hooks run once per logical request, not per attempt: the retry loop, token refresh and rate
// limiter sit inside them. Registration returns the function that removes the hook.
import type { RawResponse, RequestSpec } from "./requestSpec.js";

export type SendRequest = (spec: RequestSpec) => Promise<RawResponse>;
export type WrapHook = (send: SendRequest, spec: RequestSpec) => Promise<RawResponse>;

export class RequestHooks {
  private readonly wraps: WrapHook[] = [];

  wrap(hook: WrapHook): () => void {
    this.wraps.push(hook);
    return () => {
      const at = this.wraps.indexOf(hook);
      if (at >= 0) this.wraps.splice(at, 1);
    };
  }

  /** Runs `send` for `spec` through every wrap registered now. */
  run(spec: RequestSpec, send: SendRequest): Promise<RawResponse> {
    // The first registered wrap is the outermost, as plugins are applied in order.
    const wrapped = [...this.wraps].reverse().reduce<SendRequest>((next, hook) => (s) => hook(next, s), send);
    return wrapped(spec);
  }
}
