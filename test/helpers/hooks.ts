// Runs a React hook of the pane outside a browser: a minimal host for useState, useRef, useEffect,
// useCallback and useMemo (the hooks the pane's section state uses), so a test drives the hook
// through what it returns, as the section's buttons do, and reads its state after each step. A
// state change renders again at once (no batching); effects run right after the render whose
// dependencies changed, and `unmount()` runs their cleanups, as React does when the pane closes.
// Any other hook throws, naming itself.
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
  /** Runs every effect's cleanup; the hook renders no more. */
  unmount(): void;
}

type Cleanup = void | (() => void);
interface EffectSlot {
  deps: readonly unknown[] | undefined;
  cleanup: Cleanup;
}

const changed = (before: readonly unknown[] | undefined, after: readonly unknown[] | undefined) =>
  before === undefined || after === undefined || before.length !== after.length || before.some((value, i) => !Object.is(value, after[i]));

function memoSlot<V>(slots: unknown[], at: number, make: () => V, deps: readonly unknown[] | undefined): V {
  const known = slots[at] as { deps: readonly unknown[] | undefined; value: V } | undefined;
  if (known && !changed(known.deps, deps)) return known.value;
  slots[at] = { deps, value: make() };
  return (slots[at] as { value: V }).value;
}

export function renderHook<T>(hook: () => T): HookHost<T> {
  const slots: unknown[] = [];
  const effects = new Set<EffectSlot>();
  let latest: T;
  let renders = 0;
  let mounted = true;
  const render = () => {
    if (!mounted) return;
    let next = 0;
    const pending: Array<{ slot: EffectSlot; effect: () => Cleanup }> = [];
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
        useEffect: (effect: () => Cleanup, deps?: readonly unknown[]) => {
          const at = next++;
          const slot = (slots[at] as EffectSlot | undefined) ?? { deps: undefined, cleanup: undefined };
          const first = !(at in slots);
          slots[at] = slot;
          effects.add(slot);
          if (first || changed(slot.deps, deps)) pending.push({ slot: Object.assign(slot, { deps }), effect });
        },
        useCallback: <F>(callback: F, deps?: readonly unknown[]) => memoSlot(slots, next++, () => callback, deps),
        useMemo: <V>(make: () => V, deps?: readonly unknown[]) => memoSlot(slots, next++, make, deps),
      },
      {
        get(target: Dispatcher, name: string) {
          if (name in target) return target[name];
          throw new Error(`renderHook supports useState, useRef, useEffect, useCallback and useMemo only, not ${name}.`);
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
    for (const { slot, effect } of pending) {
      if (typeof slot.cleanup === "function") slot.cleanup();
      slot.cleanup = effect();
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
    unmount() {
      mounted = false;
      for (const slot of effects) if (typeof slot.cleanup === "function") slot.cleanup();
    },
  };
}
