// The client's clock on real time: the contract's one timer clock (core/contract/clock.ts); and
// the one way to do something at a steady pace on a clock.
import { timerClock } from "../contract/clock.js";
import type { Clock } from "./types.js";

export const systemClock: Clock = timerClock();

/** Calls `tick` every `ms` on `clock` (first after `ms`) until the returned stop is called. */
export function every(clock: Pick<Clock, "sleep">, ms: number, tick: () => void): () => void {
  const stopped = new AbortController();
  void (async () => {
    while (!stopped.signal.aborted) {
      try {
        await clock.sleep(ms, stopped.signal);
      } catch {
        return;
      }
      tick();
    }
  })();
  return () => stopped.abort();
}
