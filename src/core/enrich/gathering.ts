// The gathering window and the work in flight, for the cells of the enrichment pipeline: cells
// calculate one by one, so calls arriving within a short window are flushed together, and after a
// flush a "quiet" window lets a request with room wait for more cells before it leaves
// (requestBatches.ts). `whenIdle` flushes at once and waits until nothing tracked is left.
import type { Clock } from "../api/types.js";

export interface GatheringOptions<T> {
  sleep: Clock["sleep"];
  windowMs: number;
  /** Takes the gathered items (never rejects; a failure must settle every item itself). */
  flush(items: T[]): Promise<void>;
  /** Starts the requests that may leave now (`force`: every one, full or not). */
  launch(force: boolean): void;
}

export class Gathering<T> {
  private queue: T[] = [];
  private window: AbortController | undefined;
  /** Armed after a flush: when no item arrives for a window, requests with room leave too. */
  private quiet: AbortController | undefined;
  private readonly work = new Set<Promise<unknown>>();

  constructor(private readonly options: GatheringOptions<T>) {}

  add(item: T): void {
    this.queue.push(item);
    this.quiet?.abort();
    this.quiet = undefined;
    if (this.window) return;
    const window: AbortController = this.afterWindow(() => {
      if (this.window !== window) return;
      this.window = undefined;
      this.flushNow();
    });
    this.window = window;
  }

  /** Whether more work is still arriving (a request with room then waits). */
  arriving(): boolean {
    return this.window !== undefined || this.quiet !== undefined || this.queue.length > 0;
  }

  /** After a flush has placed its work: requests with room leave once no item arrives for a window. */
  armQuiet(): void {
    if (this.window || this.quiet) return;
    const quiet: AbortController = this.afterWindow(() => {
      if (this.quiet !== quiet) return;
      this.quiet = undefined;
      this.options.launch(false);
    });
    this.quiet = quiet;
  }

  /** Calls `then` after one window, unless the returned controller aborts first (more items, or whenIdle). */
  private afterWindow(then: () => void): AbortController {
    const timer = new AbortController();
    this.options.sleep(this.options.windowMs, timer.signal).then(then, () => undefined);
    return timer;
  }

  track(promise: Promise<unknown>): void {
    this.work.add(promise);
    const done = (): void => void this.work.delete(promise);
    promise.then(done, done);
  }

  async whenIdle(): Promise<void> {
    for (;;) {
      if (this.window) {
        // Flush now rather than wait out the gathering window.
        this.window.abort();
        this.window = undefined;
        this.flushNow();
      }
      this.quiet?.abort();
      this.quiet = undefined;
      this.options.launch(true);
      if (this.work.size === 0) return;
      await Promise.allSettled([...this.work]);
    }
  }

  private flushNow(): void {
    const items = this.queue;
    this.queue = [];
    if (items.length > 0) this.track(this.options.flush(items));
  }
}
