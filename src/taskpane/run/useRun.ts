// The pane's one way to run long work: the steps before it (checking, an estimate waiting for
// Confirm), then start it, see its progress, cancel it, keep its outcome. The hook owns the pane's
// only AbortController: a run's work gets its signal (to pass to core's runs, which stop on it)
// and a `report` for its progress (a progress type may name the run's phases, e.g. preparing then
// sending). One run at a time (a second start while one is under way starts nothing), and closing
// the view (unmount) cancels the run under way.
import { useEffect, useState } from "react";

/** What a run's work gets: Cancel's signal, and where it reports its progress. */
export interface RunScope<P> {
  readonly signal: AbortSignal;
  report(progress: P): void;
}

export type RunWork<P, O> = (scope: RunScope<P>) => Promise<O>;

/**
 * Where a run is: before it (a step: being checked, an estimate waiting for Confirm), under way
 * (with its latest progress), or ended (with its outcome, until cleared or the next step).
 */
export interface RunState<P, O, S = never> {
  readonly running: boolean;
  readonly progress?: P;
  readonly outcome?: O;
  readonly step?: S;
}

export interface Run<P, O, S = never> extends RunState<P, O, S> {
  /**
   * Runs `work` (its progress starts at `first`) and resolves with its outcome; resolves with
   * undefined at once when a run is already under way. A failure of the work is thrown on.
   */
  start(work: RunWork<P, O>, first?: P): Promise<O | undefined>;
  /** Cancels the run under way (its work sees the signal aborted); nothing when none is. */
  cancel(): void;
  /** Forgets the step before a run (Back) and the last outcome; a run under way goes on. */
  clear(): void;
  /**
   * Shows a step before a run (what is being checked, the estimate to confirm); the last outcome
   * goes. Nothing while a run is under way: its progress stays shown.
   */
  prepare(step: S): void;
  /**
   * Says an outcome without a run (something done beside one, the last outcome amended; after
   * `clear()`, a check before a run that failed). A step shown stays; a run under way goes on with
   * this outcome shown beside its progress, and its own outcome replaces it when it ends.
   */
  settle(outcome: O): void;
}

const IDLE: RunState<never, never> = { running: false };

/** The run's state outside React, so the functions the hook returns stay the same at every render. */
class RunHolder<P, O, S> {
  private controller: AbortController | undefined;
  private shown = true;
  private state: RunState<P, O, S> = IDLE;

  constructor(private readonly show: (state: RunState<P, O, S>) => void) {}

  private set(state: RunState<P, O, S>) {
    this.state = state;
    if (this.shown) this.show(state);
  }

  readonly start = async (work: RunWork<P, O>, first?: P): Promise<O | undefined> => {
    if (this.controller) return undefined;
    const controller = (this.controller = new AbortController());
    this.set(first === undefined ? { running: true } : { running: true, progress: first });
    const report = (progress: P) => {
      if (this.controller === controller) this.set({ ...this.state, progress });
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
    const { outcome, step, ...rest } = this.state;
    if (outcome !== undefined || step !== undefined) this.set(rest);
  };

  readonly prepare = (step: S) => {
    if (!this.controller) this.set({ running: false, step });
  };

  readonly settle = (outcome: O) => this.set({ ...this.state, outcome });

  /** The view is shown: state changes render it; when it goes, the run under way is cancelled. */
  readonly attach = () => {
    this.shown = true;
    return () => {
      this.shown = false;
      this.controller?.abort();
    };
  };
}

export function useRun<P = never, O = void, S = never>(): Run<P, O, S> {
  const [state, setState] = useState<RunState<P, O, S>>(IDLE);
  const [holder] = useState(() => new RunHolder<P, O, S>(setState));
  useEffect(holder.attach, [holder]);
  const { start, cancel, clear, prepare, settle } = holder;
  return { ...state, start, cancel, clear, prepare, settle };
}
