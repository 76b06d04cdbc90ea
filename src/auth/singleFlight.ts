// Runs one task at a time for everyone who asks while it is running: concurrent callers share
// its result. Refresh tokens rotate (each works once), so two refreshes must never overlap.
export function singleFlight<T>(task: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    if (!running) {
      running = task().finally(() => {
        running = undefined;
      });
    }
    return running;
  };
}
