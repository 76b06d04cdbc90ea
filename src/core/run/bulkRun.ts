// The one way core runs bulk work (research lists, audience uploads and pages): a list of items
// cut into requests of at most `cap` items, handed to the service client a few at a time (the
// client's queue decides when each leaves: its concurrency cap, bulk after interactive, its rate
// limiter), progress after each request, cancel through an AbortSignal, and an outcome per item:
// done, refused with its reason, or not sent. Nothing here waits, paces or retries: the client
// does (a caller that makes a repeat harmless may have a failed request sent again at once, before
// any other: `resend`). The window only bounds what is handed over (the one pool, lanes.ts, which
// the enrichment engine's requests run on too), so a cancel or a stop starts nothing more.
// A run is resumable: `left` holds the items to run again, and an item's idempotency key comes
// from the item (keyOf), so the same item carries the same key in every run.
import { serviceError } from "../api/errors.js";
import type { RequestPriority } from "../api/types.js";
import { RequestLanes } from "./lanes.js";

export type ItemOutcome<R> = { status: "done"; value: R } | { status: "refused"; reason: unknown } | { status: "notSent" };

/** One request's items, with their places in the run's list and their idempotency keys. */
export interface RunBatch<I> {
  items: readonly I[];
  indexes: readonly number[];
  keys: readonly (string | undefined)[];
}

/** What each request of a run is sent with: bulk priority, and the run's cancel. */
export interface BulkCall {
  priority: RequestPriority;
  signal?: AbortSignal;
}

/** A request's answer: one value per item, or those values and why the run must stop (rest not sent). */
export type BatchAnswer<R> = readonly R[] | { values: readonly R[]; stop: unknown };

export type SendBatch<I, R> = (batch: RunBatch<I>, call: BulkCall) => Promise<BatchAnswer<R>>;

export interface BulkProgress {
  /** Items whose request settled (done or refused). */
  done: number;
  total: number;
  /** Requests handed to the client so far. */
  requests: number;
}

export interface BulkRunOptions<I> {
  /** Items per request (the operation's cap). */
  cap: number;
  /** Requests handed to the client at once (default 6, the client's cap); the client paces them. */
  window?: number;
  signal?: AbortSignal;
  onProgress?: (progress: BulkProgress) => void;
  /** An item's idempotency key: derived from the item, so a resumed run sends the same key. */
  keyOf?: (item: I, index: number) => string | undefined;
  /** A failure after which no further request is sent (default: none; a cancel always stops). */
  stopsRun?: (error: unknown) => boolean;
  /** Whose wait the requests are (default bulk; a person's cells ask interactively). */
  priority?: RequestPriority;
  /**
   * Whether a failed request is sent again, before any other (its sends so far in `sends`): for a
   * failure after which the service may have applied it, when the caller makes a repeat harmless
   * (its items' keys looked up first). Default: never. The caller bounds it; the run never waits.
   */
  resend?: (error: unknown, sends: number) => boolean;
}

export interface BulkRunResult<I, R> {
  /** One per item, in the list's order. */
  outcomes: ItemOutcome<R>[];
  cancelled: boolean;
  /** Why the run stopped before the end, other than a cancel. */
  stopped?: unknown;
  requests: number;
  /** The items to run again (refused or not sent), in the list's order. */
  left: I[];
}

export const DEFAULT_WINDOW = 6;

function batchesOf<I>(items: readonly I[], options: BulkRunOptions<I>): RunBatch<I>[] {
  const cap = Math.max(1, Math.floor(options.cap));
  const batches: RunBatch<I>[] = [];
  for (let start = 0; start < items.length; start += cap) {
    const indexes = items.slice(start, start + cap).map((_, k) => start + k);
    batches.push({ items: indexes.map((i) => items[i] as I), indexes, keys: indexes.map((i) => options.keyOf?.(items[i] as I, i)) });
  }
  return batches;
}

interface RunState<I, R> {
  /** The requests not yet handed over, the next first. */
  queue: RunBatch<I>[];
  sends: Map<RunBatch<I>, number>;
  outcomes: ItemOutcome<R>[];
  done: number;
  requests: number;
  stop?: { reason: unknown };
}

/** Sends one batch and records an outcome for each of its items. */
async function runBatch<I, R>(batch: RunBatch<I>, send: SendBatch<I, R>, options: BulkRunOptions<I>, state: RunState<I, R>): Promise<void> {
  const call: BulkCall = { priority: options.priority ?? "bulk", ...(options.signal ? { signal: options.signal } : {}) };
  state.requests++;
  try {
    const answer = await send(batch, call);
    const values = Array.isArray(answer) ? (answer as readonly R[]) : (answer as { values: readonly R[] }).values;
    batch.indexes.forEach((i, k) => (state.outcomes[i] = { status: "done", value: values[k] as R }));
    if (!Array.isArray(answer)) state.stop ??= { reason: (answer as { stop: unknown }).stop };
  } catch (reason) {
    const sends = (state.sends.get(batch) ?? 0) + 1;
    state.sends.set(batch, sends);
    if (!options.signal?.aborted && options.resend?.(reason, sends)) {
      state.queue.unshift(batch);
      return;
    }
    for (const i of batch.indexes) state.outcomes[i] = { status: "refused", reason };
    if (options.stopsRun?.(reason)) state.stop ??= { reason };
  }
  state.done += batch.items.length;
  options.onProgress?.({ done: state.done, total: state.outcomes.length, requests: state.requests });
}

/** Runs `items` through `send`, `cap` items a request, at most `window` requests handed over at once. */
export async function runBulk<I, R>(items: readonly I[], send: SendBatch<I, R>, options: BulkRunOptions<I>): Promise<BulkRunResult<I, R>> {
  const batches = batchesOf(items, options);
  const state: RunState<I, R> = { queue: [...batches], sends: new Map(), outcomes: items.map(() => ({ status: "notSent" })), done: 0, requests: 0 };
  const { signal } = options;
  options.onProgress?.({ done: 0, total: items.length, requests: 0 });
  await new Promise<void>((resolve, reject) => {
    new RequestLanes<RunBatch<I>>({
      window: Math.max(1, options.window ?? DEFAULT_WINDOW),
      next: () => (signal?.aborted || state.stop ? undefined : state.queue.shift()),
      send: (batch) => runBatch(batch, send, options, state).catch(reject),
      idle: resolve,
    }).fill();
  });
  const cancelled = signal?.aborted === true;
  const left = items.filter((_, i) => state.outcomes[i]?.status !== "done");
  return { outcomes: state.outcomes, cancelled, requests: state.requests, left, ...(state.stop && !cancelled ? { stopped: state.stop.reason } : {}) };
}

/**
 * Every item's value in the list's order, for callers that need all or nothing (a signal request
 * of a cell's batch): the first refusal or stop is thrown, and a cancel throws the signal's reason.
 */
export function valuesOrThrow<I, R>(result: BulkRunResult<I, R>, signal?: AbortSignal): R[] {
  if (result.stopped !== undefined) throw result.stopped;
  return result.outcomes.map((outcome) => {
    if (outcome.status === "refused") throw outcome.reason;
    if (outcome.status === "notSent")
      throw serviceError("cancelled", { message: signal?.aborted ? "The run was cancelled" : "The run stopped before this request" });
    return outcome.value;
  });
}

/** Runs `items` one request each (or `cap` a request) and gives every value, or throws the first refusal. */
export async function runAll<I, R>(items: readonly I[], send: SendBatch<I, R>, options: BulkRunOptions<I>): Promise<R[]> {
  return valuesOrThrow(await runBulk(items, send, { stopsRun: () => true, ...options }), options.signal);
}
