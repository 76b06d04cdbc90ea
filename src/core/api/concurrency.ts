// A cap on requests in flight at once, handed out interactive first, then bulk, each first come
// first served. Bulk work never holds the last `reserved` slots, so a cell or a preview always
// finds one free even while an import keeps the rest busy.
import { PriorityWaiters } from "./priorityWaiters.js";
import type { RequestPriority } from "./types.js";

export type Release = () => void;

interface Entry {
  grant: () => void;
}

export class ConcurrencyLimit {
  private active = 0;
  private bulkActive = 0;
  private readonly waiting = new PriorityWaiters<Entry>();
  private readonly reserved: number;

  constructor(
    private readonly max: number,
    reserveForInteractive = 1,
  ) {
    if (!(max >= 1)) throw new RangeError("concurrency must be at least 1");
    this.reserved = Math.min(Math.max(0, reserveForInteractive), max - 1);
  }

  get inFlight(): number {
    return this.active;
  }

  private fits(priority: RequestPriority): boolean {
    if (this.active >= this.max) return false;
    return priority === "interactive" || this.bulkActive < this.max - this.reserved;
  }

  async acquire(signal?: AbortSignal, priority: RequestPriority = "interactive"): Promise<Release> {
    signal?.throwIfAborted();
    // Nobody overtakes a waiter of the same or a higher priority.
    if (!this.waiting.waitsAhead(priority) && this.fits(priority)) return this.take(priority);
    await new Promise<void>((resolve, reject) => {
      const entry: Entry = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.waiting.remove(entry);
        reject(signal?.reason ?? new Error("aborted"));
      };
      this.waiting.push(priority, entry);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
    return this.releaser(priority);
  }

  private take(priority: RequestPriority): Release {
    this.active += 1;
    if (priority === "bulk") this.bulkActive += 1;
    return this.releaser(priority);
  }

  private releaser(priority: RequestPriority): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active -= 1;
      if (priority === "bulk") this.bulkActive -= 1;
      this.handOver();
    };
  }

  /** Grants freed slots to the first waiters that fit: interactive ones first. */
  private handOver(): void {
    for (;;) {
      const next = this.waiting.peek();
      if (!next || !this.fits(next.priority)) return;
      this.waiting.shift();
      this.active += 1;
      if (next.priority === "bulk") this.bulkActive += 1;
      next.waiter.grant();
    }
  }
}
