// A cap on requests in flight at once, handed out first come, first served.
export type Release = () => void;

export class ConcurrencyLimit {
  private active = 0;
  private readonly waiting: Array<{ grant: () => void }> = [];

  constructor(private readonly max: number) {
    if (!(max >= 1)) throw new RangeError("concurrency must be at least 1");
  }

  get inFlight(): number {
    return this.active;
  }

  async acquire(signal?: AbortSignal): Promise<Release> {
    signal?.throwIfAborted();
    if (this.active < this.max) {
      this.active += 1;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const entry = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal?.reason ?? new Error("aborted"));
      };
      this.waiting.push(entry);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
    // The slot was handed over by release(): active already counts it.
    return this.releaser();
  }

  private releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next.grant();
      else this.active -= 1;
    };
  }
}
