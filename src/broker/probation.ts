// The lane for tokens not yet proven (proof.ts): one request at a time per client address goes
// to the service outside any tenant's pacing, a few more wait behind it, and the rest are
// refused with 429 and Retry-After. A flood of forged tokens from one address thus costs the
// service one request at a time and takes no organization's slots; a real user's first request
// passes at once, and the requests after it are proven.
import type { Clock } from "../core/contract/index.js";
import { QueueFullError } from "./pacing.js";

/** Unproven requests of one address waiting behind the one in flight. */
export const PROBATION_WAITING = 8;

export type Release = () => void;

interface Lane {
  busy: boolean;
  waiting: (() => void)[];
}

export class ProbationLanes {
  private readonly lanes = new Map<string, Lane>();

  constructor(
    private readonly clock: Pick<Clock, "sleep">,
    private readonly maxWaitMs: number,
    private readonly maxWaiting = PROBATION_WAITING,
  ) {}

  /** Resolves with a release once this address's lane is free; rejects with QueueFullError or the signal's reason. */
  enter(address: string, signal?: AbortSignal): Promise<Release> {
    let lane = this.lanes.get(address);
    if (!lane) {
      lane = { busy: false, waiting: [] };
      this.lanes.set(address, lane);
    }
    if (!lane.busy) {
      lane.busy = true;
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
      lane.busy = false;
      this.lanes.delete(address);
    };
  }
}
