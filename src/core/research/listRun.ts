// A list of research calls (one per seed, account or company) with progress and cancel: a few
// at a time, in order of the list, each item's outcome kept apart so one failure loses nothing
// else. Cancelling starts no further item; calls already sent are cancelled through the signal.

export interface ListProgress {
  done: number;
  total: number;
}

export interface ListRunOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ListProgress) => void;
  /** Calls at once (default 4); the client's own cap still applies. */
  concurrency?: number;
}

export type ItemOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

export interface ListRunResult<T> {
  /** One per item, in the list's order; undefined for the items a cancel left unstarted. */
  outcomes: (ItemOutcome<T> | undefined)[];
  cancelled: boolean;
}

export async function runList<I, T>(
  items: readonly I[],
  work: (item: I, signal?: AbortSignal) => Promise<T>,
  options: ListRunOptions = {},
): Promise<ListRunResult<T>> {
  const outcomes: (ItemOutcome<T> | undefined)[] = items.map(() => undefined);
  let next = 0;
  let done = 0;
  const { signal } = options;
  options.onProgress?.({ done, total: items.length });
  const worker = async () => {
    while (next < items.length && !signal?.aborted) {
      const index = next++;
      try {
        outcomes[index] = { ok: true, value: await work(items[index]!, signal) };
      } catch (error) {
        outcomes[index] = { ok: false, error };
      }
      done++;
      options.onProgress?.({ done, total: items.length });
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? 4, items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return { outcomes, cancelled: signal?.aborted === true };
}
