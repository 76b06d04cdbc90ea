// The sandbox's time: the system clock, or a manual clock that moves only when told (tests, and
// `--manual-clock` with POST /__sandbox/clock). Everything in the sandbox that depends on time
// reads it, but for the fault latency and the sign-in server (oidc-provider keeps its own time,
// and its storage adapter follows it), and the audience job engine waits on its sleep(). Both are
// the contract's one Clock (core/contract/clock.ts).

import { timerClock, type Clock } from "../core/contract/index.js";

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error("aborted");
}

/** The sandbox's real time (the add-in's is core/api's systemClock). Its timers never keep a process alive on their own: the server does. */
export const sandboxClock: Clock = timerClock({ unref: true });

/** A clock that moves only when told to, so time windows and jobs pass without waiting. */
export interface ManualClock extends Clock {
  /**
   * Moves time forward, waking every sleep that falls due on the way, in order (each at its own
   * time); resolves once what they started has run (a job engine's step, say).
   */
  advance(ms: number): Promise<void>;
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

export function manualClock(start = Date.now()): ManualClock {
  let now = start;
  const sleepers: { at: number; wake(): void }[] = [];
  return {
    now: () => now,
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(abortReason(signal));
        const sleeper = {
          at: now + Math.max(0, ms),
          wake: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          sleepers.splice(sleepers.indexOf(sleeper), 1);
          reject(abortReason(signal!));
        };
        sleepers.push(sleeper);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
    async advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = sleepers.filter((s) => s.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        sleepers.splice(sleepers.indexOf(due), 1);
        now = Math.max(now, due.at);
        due.wake();
        await settle();
      }
      // Concurrent advances never move time back; a negative one (a test going back) does.
      now = ms >= 0 ? Math.max(now, end) : end;
      await settle();
    },
  };
}
