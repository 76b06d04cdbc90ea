// A clock the pacing tests step by hand: sleeps resolve when the test moves time past them.
import type { PacingClock } from "../../src/broker/pacing.js";

export interface ManualClock extends PacingClock {
  /** Moves time to `at` and wakes every sleep due by then; resolves once the woken work has run. */
  advanceTo(at: number): Promise<void>;
}

/** Lets promise chains and I/O callbacks already queued run (no time passes on the clock). */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

export function manualClock(start: number): ManualClock {
  let now = start;
  const sleeping: { at: number; wake: () => void }[] = [];
  return {
    now: () => now,
    sleep: (ms) => new Promise<void>((wake) => sleeping.push({ at: now + ms, wake })),
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
