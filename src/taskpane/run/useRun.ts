// The pane's one way to run long work: start it, see its progress, cancel it, keep its outcome.
// The hook owns the pane's only AbortController: a run's work gets its signal (to pass to core's
// runs, which stop on it) and a `report` for its progress. One run at a time (a second start while
// one is under way starts nothing), and closing the view (unmount) cancels the run under way.
import { useEffect, useState } from "react";

/** What a run's work gets: Cancel's signal, and where it reports its progress. */
export interface RunScope<P> {
  readonly signal: AbortSignal;
  report(progress: P): void;
}

export type RunWork<P, O> = (scope: RunScope<P>) => Promise<O>;

/** Where a run is: under way (with its latest progress), or ended (with its outcome, until cleared). */
export interface RunState<P, O> {
  readonly running: boolean;
  readonly progress?: P;
  readonly outcome?: O;
}

export interface Run<P, O> extends RunState<P, O> {
  /**
   * Runs `work` (its progress starts at `first`) and resolves with its outcome; resolves with
   * undefined at once when a run is already under way. A failure of the work is thrown on.
   */
  start(work: RunWork<P, O>, first?: P): Promise<O | undefined>;
  /** Cancels the run under way (its work sees the signal aborted); nothing when none is. */
  cancel(): void;
  /** Forgets the last outcome (a run under way has none yet: it goes on). */
  clear(): void;
}

const IDLE: RunState<never, never> = { running: false };

/** The run's state outside React, so the functions the hook returns stay the same at every render. */
class RunHolder<P, O> {
  private controller: AbortController | undefined;
  private shown = true;
  private state: RunState<P, O> = IDLE;

  constructor(private readonly show: (state: RunState<P, O>) => void) {}

  private set(state: RunState<P, O>) {
    this.state = state;
    if (this.shown) this.show(state);
  }

  readonly start = async (work: RunWork<P, O>, first?: P): Promise<O | undefined> => {
    if (this.controller) return undefined;
    const controller = (this.controller = new AbortController());
    this.set(first === undefined ? { running: true } : { running: true, progress: first });
    const report = (progress: P) => {
      if (this.controller === controller) this.set({ running: true, progress });
    };
    try {
      const outcome = await work({ signal: controller.signal, report });
      this.controller = undefined;
      this.set({ running: false, outcome });
      return outcome;
    } catch (error) {
      this.controller = undefined;
      this.set(IDLE);
      throw error;
    }
  };

  readonly cancel = () => this.controller?.abort();

  readonly clear = () => {
    if (this.state.outcome !== undefined) this.set(IDLE);
  };

  /** The view is shown: state changes render it; when it goes, the run under way is cancelled. */
  readonly attach = () => {
    this.shown = true;
    return () => {
      this.shown = false;
      this.controller?.abort();
    };
  };
}

export function useRun<P = never, O = void>(): Run<P, O> {
  const [state, setState] = useState<RunState<P, O>>(IDLE);
  const [holder] = useState(() => new RunHolder<P, O>(setState));
  useEffect(holder.attach, [holder]);
  return { ...state, start: holder.start, cancel: holder.cancel, clear: holder.clear };
}
