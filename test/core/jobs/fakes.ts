// Test doubles for the job poller: a timer driven by the test, and a client whose job
// statuses follow a script.
import { serviceError } from "../../../src/core/api/errors.js";
import type { Clock, JobStatus } from "../../../src/core/api/types.js";

/** The clock of the poller, driven by the test: sleeps end when advance() passes their time. */
export class FakeTimer implements Clock {
  private time = 0;
  private seq = 0;
  private readonly pending = new Map<number, { at: number; callback: () => void }>();

  now(): number {
    return this.time;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new Error("aborted"));
      const handle = this.setTimeout(resolve, ms);
      signal?.addEventListener("abort", () => {
        this.clearTimeout(handle);
        reject(new Error("aborted"));
      }, { once: true });
    });
  }
  setTimeout(callback: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.pending.set(id, { at: this.time + ms, callback });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  /** Timers armed now. */
  get armed(): number {
    return this.pending.size;
  }
  /** Moves time forward, running due timers in order and letting promises settle between. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await settle();
      let next: [number, { at: number; callback: () => void }] | undefined;
      for (const entry of this.pending) if (entry[1].at <= end && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      this.pending.delete(next[0]);
      this.time = Math.max(this.time, next[1].at);
      next[1].callback();
    }
    this.time = end;
    await settle();
  }
}

export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

export type Step = JobStatus | Error;

export function status(state: string, percentProgress?: number): JobStatus {
  const terminal = ["SUCCEEDED", "PARTIALLY_SUCCEEDED", "FAILED", "CANCELLED"].includes(state);
  return { id: "job", status: state, terminal, ...(percentProgress !== undefined ? { percentProgress } : {}) };
}

export function rateLimited(retryAfterMs: number): Error {
  return serviceError("rateLimited", { status: 429, retryAfterMs });
}

/** getJob answers from a script per job id; the last step repeats. Records each call's time. */
export class ScriptedJobs {
  readonly calls: { jobId: string; at: number }[] = [];
  constructor(
    private readonly timer: FakeTimer,
    private readonly scripts: Record<string, Step[]>,
  ) {}
  async getJob(_audienceId: string, jobId: string, options?: { signal?: AbortSignal }): Promise<JobStatus> {
    this.calls.push({ jobId, at: this.timer.now() });
    if (options?.signal?.aborted) throw serviceError("cancelled");
    const script = this.scripts[jobId];
    if (!script || script.length === 0) throw serviceError("notFound", { status: 404 });
    const step = script.length > 1 ? script.shift()! : script[0]!;
    if (step instanceof Error) throw step;
    return { ...step, id: jobId };
  }
  callsFor(jobId: string): number[] {
    return this.calls.filter((c) => c.jobId === jobId).map((c) => c.at);
  }
}
