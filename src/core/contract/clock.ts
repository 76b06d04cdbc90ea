// The one Clock type, and the one clock on real time: time behind an interface, so tests move
// time instead of sleeping. It lives in the contract because the add-in's code and the sandbox
// both use it, and the contract is the one layer they share; code that needs less takes a
// Pick<Clock, ...>.
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` (rejects when `signal` aborts first). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error("aborted");
}

/**
 * Real time. `unref`: its timers never keep a Node process alive on their own (a server's
 * background work, where the server itself does); the add-in's timers keep the default.
 */
export function timerClock(options: { unref?: boolean } = {}): Clock {
  return {
    now: () => Date.now(),
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(abortReason(signal));
          return;
        }
        const onAbort = () => {
          clearTimeout(timer);
          reject(abortReason(signal!));
        };
        const timer = setTimeout(
          () => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          },
          Math.max(0, ms),
        );
        if (options.unref) (timer as { unref?: () => void }).unref?.();
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
  };
}
