// Cross-cutting request behaviour plugs in here instead of wrapping the client's methods: every
// logical request (one operation, with its retries) runs through the hooks, outermost first.
//
//   wrap(send, spec)      around the whole request: may look at the outcome, retry, or replace it
//   before(spec)          may return a rewritten spec (an API relay rewrites `url`; a wire-name
//                         translation rewrites `body`) before anything is sent
//   after(response, spec) may return a rewritten response (wire names back to the contract's)
//                         before the client shape-checks it
//   error(error, spec)    observes a failure after the client's own retries; the error still
//                         reaches the caller
//
// Hooks run once per logical request, not per attempt: the retry loop, token refresh and rate
// limiter sit inside them. Registration returns the function that removes the hook.
import type { RawResponse, RequestSpec } from "./requestSpec.js";

export type SendRequest = (spec: RequestSpec) => Promise<RawResponse>;
export type WrapHook = (send: SendRequest, spec: RequestSpec) => Promise<RawResponse>;
export type BeforeHook = (spec: RequestSpec) => RequestSpec | void | Promise<RequestSpec | void>;
export type AfterHook = (response: RawResponse, spec: RequestSpec) => RawResponse | void | Promise<RawResponse | void>;
export type ErrorHook = (error: unknown, spec: RequestSpec) => void | Promise<void>;

export class RequestHooks {
  private readonly wraps: WrapHook[] = [];
  private readonly befores: BeforeHook[] = [];
  private readonly afters: AfterHook[] = [];
  private readonly errors: ErrorHook[] = [];

  wrap(hook: WrapHook): () => void {
    return add(this.wraps, hook);
  }
  before(hook: BeforeHook): () => void {
    return add(this.befores, hook);
  }
  after(hook: AfterHook): () => void {
    return add(this.afters, hook);
  }
  error(hook: ErrorHook): () => void {
    return add(this.errors, hook);
  }

  /** Runs `send` for `spec` through every hook registered now. */
  run(spec: RequestSpec, send: SendRequest): Promise<RawResponse> {
    const befores = [...this.befores];
    const afters = [...this.afters];
    const errors = [...this.errors];
    const inner: SendRequest = async (initial) => {
      let current = initial;
      try {
        for (const hook of befores) current = (await hook(current)) ?? current;
        let response = await send(current);
        for (const hook of afters) response = (await hook(response, current)) ?? response;
        return response;
      } catch (error) {
        for (const hook of errors) await hook(error, current);
        throw error;
      }
    };
    // The first registered wrap is the outermost, as plugins are applied in order.
    const wrapped = [...this.wraps].reverse().reduce<SendRequest>((next, hook) => (s) => hook(next, s), inner);
    return wrapped(spec);
  }
}

function add<T>(list: T[], hook: T): () => void {
  list.push(hook);
  return () => {
    const at = list.indexOf(hook);
    if (at >= 0) list.splice(at, 1);
  };
}
