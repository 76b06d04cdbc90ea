// The one pool that hands bulk work's requests to the service client: at most `window` requests
// outstanding at once, the next one taken as soon as one settles. What is next, and whether it
// may leave now, is the caller's: runBulk takes a fixed list in order (bulkRun.ts); the
// enrichment engine takes its open requests, which keep gathering records until they leave
// (enrich/requestBatches.ts). Nothing here waits, paces or retries: the client does.

export interface LaneOptions<T> {
  /** Requests outstanding at once (Infinity: no bound here; the client's cap applies). */
  window: number;
  /** The next request that may leave now, taken off the caller's list; undefined when none may yet. */
  next: () => T | undefined;
  /** Settles a request that must not leave (its run stopped or was cancelled) and says so; default never. */
  settleUnsent?: (item: T) => boolean;
  /** Sends it: settles when its outcome is recorded. */
  send: (item: T) => Promise<void>;
  /** Every request's work, up to the pool taking the next one (so a caller can wait for it all). */
  track?: (work: Promise<unknown>) => void;
  /** Called when a fill leaves no request outstanding. */
  idle?: () => void;
}

export class RequestLanes<T> {
  /** Requests outstanding now. */
  running = 0;

  constructor(private readonly options: LaneOptions<T>) {}

  /** Hands over what may leave now, up to the window; again each time a request settles. */
  fill(): void {
    while (this.running < this.options.window) {
      const item = this.options.next();
      if (item === undefined) break;
      if (this.options.settleUnsent?.(item)) continue;
      this.running += 1;
      const settled = this.options.send(item).finally(() => {
        this.running -= 1;
        this.fill();
      });
      this.options.track?.(settled);
    }
    if (this.running === 0) this.options.idle?.();
  }
}
