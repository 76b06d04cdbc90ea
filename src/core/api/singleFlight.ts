// One run of a task for everyone who asks while it runs: concurrent callers share its promise.
// Used for token renewal (refresh tokens rotate, so two renewals must never overlap), the
// development token, and lookups (where a success is also kept for later callers).

export function singleFlight<T>(task: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= task().finally(() => {
      running = undefined;
    });
    return running;
  };
}

/**
 * singleFlight per key. With `keepResult` a success answers every later caller too (a cache
 * for the client's life); a failure is always forgotten, so the next caller asks again.
 */
export function keyedSingleFlight<K, T>(task: (key: K) => Promise<T>, options: { keepResult?: boolean } = {}): (key: K) => Promise<T> {
  const shared = new Map<K, Promise<T>>();
  return (key) => {
    let running = shared.get(key);
    if (!running) {
      running = task(key);
      shared.set(key, running);
      const forget = () => {
        if (shared.get(key) === running) shared.delete(key);
      };
      running.then(() => {
        if (!options.keepResult) forget();
      }, forget);
    }
    return running;
  };
}
