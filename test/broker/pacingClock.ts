// A clock the broker tests step by hand (the one Clock type): sleeps resolve when the test
// moves time past them, and reject when their signal aborts first.
import type { Clock } from "../../src/core/contract/index.js";

export interface ManualClock extends Clock {
  /** Moves time to `at` and wakes every sleep due by then; resolves once the woken work has run. */
  advanceTo(at: number): Promise<void>;
  /** Sleeps not yet woken or aborted. */
  readonly sleeping: number;
}

/** Lets promise chains and I/O callbacks already queued run (no time passes on the clock). */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

export function manualClock(start: number): ManualClock {
  let now = start;
  const sleeping: { at: number; wake: () => void }[] = [];
  return {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((wake, fail) => {
        if (signal?.aborted) return fail(signal.reason);
        const sleeper = { at: now + ms, wake };
        sleeping.push(sleeper);
        signal?.addEventListener(
          "abort",
          () => {
            const at = sleeping.indexOf(sleeper);
            if (at >= 0) sleeping.splice(at, 1);
            fail(signal.reason);
          },
          { once: true },
        );
      }),
    get sleeping() {
      return sleeping.length;
    },
    async advanceTo(at) {
      now = at;
      for (let i = sleeping.length - 1; i >= 0; i -= 1) {
        const sleeper = sleeping[i]!;
        if (sleeper.at <= now) {
          sleeping.splice(i, 1);
          sleeper.wake();
        }
      }
      for (let i = 0; i < 5; i += 1) await settle();
    },
  };
}
