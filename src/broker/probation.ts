// The lane for tokens not yet proven (proof.ts): a few requests at a time per client address go
// to the service outside any tenant's pacing, more wait behind them, and the rest are refused
// with 429 and Retry-After. A flood of forged tokens from one address thus costs the service a
// few requests at a time and takes no organization's slots; a real user's first request passes
// at once, and the requests after it are proven. (Requests of a token already on probation wait
// for its outcome instead of taking places here: gate.ts.)
import type { Clock } from "../core/contract/index.js";
import { QueueFullError } from "./pacing.js";

/** Unproven requests of one address sent at once (a team behind one office address signs in together). */
export const PROBATION_AT_ONCE = 4;
/** Unproven requests of one address waiting behind those. */
export const PROBATION_WAITING = 32;

export type Release = () => void;

interface Lane {
  active: number;
  waiting: (() => void)[];
}

export class ProbationLanes {
  private readonly lanes = new Map<string, Lane>();

  constructor(
    private readonly clock: Pick<Clock, "sleep">,
    private readonly maxWaitMs: number,
    private readonly maxWaiting = PROBATION_WAITING,
    private readonly atOnce = PROBATION_AT_ONCE,
  ) {}

  /** Resolves with a release once this address's lane is free; rejects with QueueFullError or the signal's reason. */
  enter(address: string, signal?: AbortSignal): Promise<Release> {
    let lane = this.lanes.get(address);
    if (!lane) {
      lane = { active: 0, waiting: [] };
      this.lanes.set(address, lane);
    }
    if (lane.active < this.atOnce) {
      lane.active += 1;
      return Promise.resolve(this.releaser(address, lane));
    }
    if (lane.waiting.length >= this.maxWaiting) return Promise.reject(new QueueFullError(1));
    return this.wait(address, lane, signal);
  }

  private wait(address: string, lane: Lane, signal: AbortSignal | undefined): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const deadline = new AbortController();
    return new Promise<Release>((resolve, reject) => {
      const leave = (error: unknown) => {
        const at = lane.waiting.indexOf(turn);
        if (at < 0) return;
        lane.waiting.splice(at, 1);
        deadline.abort();
        reject(error);
      };
      const onAbort = () => leave(signal?.reason);
      const turn = () => {
        signal?.removeEventListener("abort", onAbort);
        deadline.abort();
        resolve(this.releaser(address, lane));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.clock.sleep(this.maxWaitMs, deadline.signal).then(
        () => leave(new QueueFullError(1)),
        () => undefined,
      );
      lane.waiting.push(turn);
    });
  }

  private releaser(address: string, lane: Lane): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = lane.waiting.shift();
      if (next) return next();
      lane.active -= 1;
      if (lane.active === 0) this.lanes.delete(address);
    };
  }
}
