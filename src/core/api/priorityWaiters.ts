// The one priority wait queue of the client: waiters by priority, interactive ones before bulk
// ones, each first come first served. The concurrency cap and the rate limiter wait in it.
import type { RequestPriority } from "./types.js";

export class PriorityWaiters<T> {
  private readonly queues: Record<RequestPriority, T[]> = { interactive: [], bulk: [] };

  get size(): number {
    return this.queues.interactive.length + this.queues.bulk.length;
  }

  push(priority: RequestPriority, waiter: T): void {
    this.queues[priority].push(waiter);
  }

  /** Takes a waiter out (it gave up); whether it was waiting. */
  remove(waiter: T): boolean {
    for (const queue of Object.values(this.queues)) {
      const at = queue.indexOf(waiter);
      if (at >= 0) {
        queue.splice(at, 1);
        return true;
      }
    }
    return false;
  }

  /** The next waiter and its priority: the first interactive one, else the first bulk one. */
  peek(): { waiter: T; priority: RequestPriority } | undefined {
    const interactive = this.queues.interactive[0];
    if (interactive !== undefined) return { waiter: interactive, priority: "interactive" };
    const bulk = this.queues.bulk[0];
    return bulk === undefined ? undefined : { waiter: bulk, priority: "bulk" };
  }

  /** Takes the next waiter out (peek's). */
  shift(): T | undefined {
    return (this.queues.interactive.length > 0 ? this.queues.interactive : this.queues.bulk).shift();
  }

  /** Whether a new request of `priority` would overtake a waiter: nobody overtakes one of the same or a higher priority. */
  waitsAhead(priority: RequestPriority): boolean {
    return this.queues.interactive.length > 0 || (priority === "bulk" && this.queues.bulk.length > 0);
  }
}
