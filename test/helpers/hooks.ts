// Runs a React hook of the pane outside a browser: a minimal host for useState and useRef (the
// hooks the pane's section state uses), so a test drives the hook through what it returns, as
// the section's buttons do, and reads its state after each step. A state change renders again
// at once (no batching, no effects). Any other hook throws, naming itself.
import React from "react";

type Dispatcher = Record<string, unknown>;

interface ReactInternals {
  ReactCurrentDispatcher: { current: Dispatcher | null };
}

const internals = (React as unknown as { __SECRET_INTERNALS_DO_NOT_USE_OR_YOU_WILL_BE_FIRED: ReactInternals })
  .__SECRET_INTERNALS_DO_NOT_USE_OR_YOU_WILL_BE_FIRED;

export interface HookHost<T> {
  /** What the hook returned at its latest render. */
  readonly current: T;
  /** Renders counted so far (the first included). */
  readonly renders: number;
}

export function renderHook<T>(hook: () => T): HookHost<T> {
  const slots: unknown[] = [];
  let latest: T;
  let renders = 0;
  const render = () => {
    let next = 0;
    const dispatcher: Dispatcher = new Proxy(
      {
        useState: <S>(initial: S | (() => S)) => {
          const at = next++;
          if (!(at in slots)) slots[at] = typeof initial === "function" ? (initial as () => S)() : initial;
          const set = (value: S | ((previous: S) => S)) => {
            const previous = slots[at] as S;
            slots[at] = typeof value === "function" ? (value as (p: S) => S)(previous) : value;
            if (!Object.is(previous, slots[at])) render();
          };
          return [slots[at], set];
        },
        useRef: <R>(initial: R) => {
          const at = next++;
          if (!(at in slots)) slots[at] = { current: initial };
          return slots[at];
        },
      },
      {
        get(target: Dispatcher, name: string) {
          if (name in target) return target[name];
          throw new Error(`renderHook supports useState and useRef only, not ${name}.`);
        },
      },
    );
    const before = internals.ReactCurrentDispatcher.current;
    internals.ReactCurrentDispatcher.current = dispatcher;
    try {
      latest = hook();
      renders += 1;
    } finally {
      internals.ReactCurrentDispatcher.current = before;
    }
  };
  render();
  return {
    get current() {
      return latest;
    },
    get renders() {
      return renders;
    },
  };
}
