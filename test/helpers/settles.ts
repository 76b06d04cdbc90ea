// Waiting on something in a test without hanging when it never happens. A test on a fake clock
// knows when a thing is due: once the clock has passed that moment, `expectSettled` lets the
// ready callbacks run and fails at once, naming what did not happen, instead of leaving a
// promise pending until the run's time limit ("Promise resolution is still pending"). Where
// the thing depends on a real process (Redis, a socket), `within` bounds the wait generously
// and fails with the same kind of message.
import { setImmediate as nextTurn } from "node:timers/promises";

/** Lets every callback already due run (a few turns of the event loop, no time passes). */
async function drain(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await nextTurn();
}

/**
 * The promise's outcome, which the test's own clock or events have made due: when it is still
 * pending, fails with "Expected <what>, but it did not happen by then".
 */
export async function expectSettled<T>(promise: Promise<T>, what: string): Promise<T> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await drain();
  if (!settled) throw new Error(`Expected ${what}, but it did not happen by then (still pending once it was due).`);
  return promise;
}

/** The promise's outcome within `ms` of real time, or a failure naming what did not happen. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Expected ${what} within ${ms / 1000} s, but it did not happen.`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** FakeClock.run's outcome; its deadlock or limit failure names what did not happen. */
export async function runsTo<T>(
  clock: { run(promise: Promise<T>, limitMs?: number): Promise<T> },
  promise: Promise<T>,
  what: string,
  limitMs?: number,
): Promise<T> {
  try {
    return await clock.run(promise, limitMs);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("FakeClock.run")) throw new Error(`Expected ${what}, but it did not happen (${error.message}).`);
    throw error;
  }
}
