// A list of research calls (one per seed, account or company) with progress and cancel, on the
// core's one bulk run (core/run): one item a request, a few handed to the client at once, in
// order of the list, each item's outcome kept apart so one failure loses nothing else.
// Cancelling starts no further item; calls already sent are cancelled through the signal.
import { runBulk, type ItemOutcome as RunOutcome } from "../run/index.js";

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

const listOutcome = <T>(outcome: RunOutcome<T>): ItemOutcome<T> | undefined =>
  outcome.status === "done" ? { ok: true, value: outcome.value } : outcome.status === "refused" ? { ok: false, error: outcome.reason } : undefined;

export async function runList<I, T>(
  items: readonly I[],
  work: (item: I, signal?: AbortSignal) => Promise<T>,
  options: ListRunOptions = {},
): Promise<ListRunResult<T>> {
  const { signal, onProgress } = options;
  const run = await runBulk(items, async (batch, call) => [await work(batch.items[0] as I, call.signal)], {
    cap: 1,
    window: options.concurrency ?? 4,
    ...(signal ? { signal } : {}),
    ...(onProgress ? { onProgress: (p) => onProgress({ done: p.done, total: p.total }) } : {}),
  });
  return { outcomes: run.outcomes.map(listOutcome), cancelled: run.cancelled };
}
