// Deterministic faults for testing clients: latency, 5xx answers and dropped connections, drawn
// from a sequence seeded by faults.seed (the same seed gives the same sequence of faults).
import type { FaultOptions } from "./context.js";
import { Random } from "./data/random.js";

export interface FaultDecision {
  latencyMs: number;
  reset: boolean;
  fail: boolean;
}

export interface FaultPlan {
  next(): FaultDecision;
  /** Change options at run time (a new seed restarts the sequence). */
  update(partial: Partial<FaultOptions>): FaultOptions;
}

export function createFaultPlan(faults: FaultOptions): FaultPlan {
  let random = new Random(faults.seed);
  return {
    next() {
      // Two draws per request whatever the rates, so the sequence depends on the seed only.
      const resetDraw = random.next();
      const failDraw = random.next();
      return { latencyMs: faults.latencyMs, reset: resetDraw < faults.resetRate, fail: failDraw < faults.failRate };
    },
    update(partial) {
      const seedChanged = partial.seed !== undefined && partial.seed !== faults.seed;
      Object.assign(faults, partial);
      if (seedChanged) random = new Random(faults.seed);
      return faults;
    },
  };
}
