// The one Clock type: time behind an interface, so tests move time instead of sleeping. It lives
// in the contract because the add-in's code and the sandbox both use it, and the contract is the
// one layer they share; code that needs less takes a Pick<Clock, ...>.
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` (rejects when `signal` aborts first). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
