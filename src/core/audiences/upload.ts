// Sending the rows: bulk upserts of at most 500 rows, a few at a time, with progress and
// Cancel. A linked row is sent with its row id (an update); a new row carries a key of its own
// in the audience's key column. A request that failed after the service may have applied it
// (5xx, timeout, a dropped connection, an unreadable answer) is never simply sent again: the
// batch's keys are looked up first, and the rows found are sent as updates, so no row is ever
// created twice. A row whose fate stays unknown keeps its key in its link, and the next send
// looks it up the same way.
import { isServiceError } from "../api/errors.js";
import { DEFAULT_RETRY } from "../api/retry.js";
import { failureOf, rowStatus } from "../errors/failure.js";
import type { RowLink } from "./links.js";
import type { PreparedRow, SendPlan } from "./plan.js";
import { ROWS_PER_REQUEST, type AudiencePort, type UpsertRow, type UpsertedRow } from "./port.js";
import type { SendTarget } from "./target.js";
import { runBulk, type ItemOutcome } from "../run/index.js";

export type RowStatus = "created" | "updated" | "refused" | "unknown" | "notSent";

export interface CellProblem {
  /** The audience column's name (the table's header). */
  column: string;
  message: string;
}

export interface RowResult {
  row: number;
  status: RowStatus;
  /** The link to write beside the row (absent when nothing changed for it). */
  link?: RowLink;
  /** Cells the service refused, with its reason. */
  problems: CellProblem[];
  /** Why a whole row was refused or not sent. */
  message?: string;
}

export interface SendProgress {
  rowsDone: number;
  rows: number;
  requests: number;
}

export interface SendOptions {
  /** Unique to this send (keys of new rows are "<runKey>-<row>"). */
  runKey: string;
  signal?: AbortSignal;
  onProgress?: (progress: SendProgress) => void;
  /** Requests in flight at once (default 6, the client's cap: its rate limiter paces them, and enough travel at once to keep to that pace). */
  concurrency?: number;
}

export interface SendResult {
  rows: RowResult[];
  /** Upsert requests sent (tries included). */
  requests: number;
  /** Key look-ups made after failures. */
  lookups: number;
  cancelled: boolean;
  /** The error that stopped the send (rows after it are notSent), if any. */
  error?: unknown;
}

/** Failures after which the service may have applied the request. */
function mayHaveApplied(error: unknown): boolean {
  return isServiceError(error) && (error.kind === "server" || error.kind === "network" || error.kind === "timeout" || error.kind === "invalidResponse");
}

const isCancel = (error: unknown, signal?: AbortSignal) => signal?.aborted === true || (isServiceError(error) && error.kind === "cancelled");

interface Batch {
  rows: PreparedRow[];
  /** Each row's key (new rows and unconfirmed ones). */
  keys: Map<number, string>;
  /** Row ids known for the batch's rows (linked, or found by key). */
  rowIds: Map<number, string>;
  /** Rows that had no confirmed audience row before this send (reported as created). */
  fresh: Set<number>;
  /** Whether the service may hold some of the rows already (they are looked up by key before a send). */
  doubt: boolean;
  /** Upserts of the batch so far. */
  sends: number;
}

/** A batch's failure after which the service may have applied it: the run sends it again (its keys looked up first). */
class SendAgain {
  constructor(readonly error: unknown) {}
}

/** Sends of one batch: as many as the client's retry policy gives a request that is harmless to repeat. */
const MAX_SENDS = DEFAULT_RETRY.maxAttempts;

function batchOf(rows: PreparedRow[], runKey: string): Batch {
  // Rows an earlier send left unconfirmed are looked up by their keys before anything is sent.
  const batch: Batch = { rows, keys: new Map(), rowIds: new Map(), fresh: new Set(), doubt: rows.some((r) => r.link && "key" in r.link), sends: 0 };
  for (const r of rows) {
    if (r.link && "rowId" in r.link) batch.rowIds.set(r.row, r.link.rowId);
    else {
      batch.keys.set(r.row, r.link && "key" in r.link ? r.link.key : `${runKey}-${r.row + 1}`);
      batch.fresh.add(r.row);
    }
  }
  return batch;
}

function upsertRows(batch: Batch, target: SendTarget): UpsertRow[] {
  return batch.rows.map((r) => {
    const cells: UpsertRow["cells"] = {};
    for (const [index, value] of r.cells) cells[target.columnIds.get(index) as string] = value;
    const rowId = batch.rowIds.get(r.row);
    const key = batch.keys.get(r.row);
    if (key !== undefined) cells[target.keyColumnId] = key;
    return rowId !== undefined ? { rowId, cells } : { cells };
  });
}

/** Finds the rows of a batch that the service holds already, by their keys (one read of up to 500). */
async function lookUpKeys(port: AudiencePort, target: SendTarget, batch: Batch, signal?: AbortSignal): Promise<void> {
  const wanted = new Map<string, number>();
  for (const [row, key] of batch.keys) if (!batch.rowIds.has(row)) wanted.set(key, row);
  if (wanted.size === 0) return;
  const found = await port.findAudienceRowsByKey(target.audienceId, target.keyColumnId, [...wanted.keys()], signal ? { signal } : {});
  for (const [key, rowIds] of found) {
    const row = wanted.get(key);
    if (row !== undefined && rowIds[0] !== undefined) batch.rowIds.set(row, rowIds[0]);
  }
}

function answered(batch: Batch, answers: UpsertedRow[], target: SendTarget): RowResult[] {
  return batch.rows.map((r, i) => {
    const answer = answers[i];
    if (!answer) return { row: r.row, status: "unknown", problems: [], message: "The service did not answer for this row." };
    const problems = answer.cells
      .filter((c) => c.error !== undefined && c.error !== "")
      .map((c) => ({ column: target.columnNames.get(c.columnId) ?? c.columnId, message: c.error as string }));
    const created = answer.created || batch.fresh.has(r.row);
    return { row: r.row, status: created ? "created" : "updated", link: { audienceId: target.audienceId, rowId: answer.rowId }, problems };
  });
}

function unsettled(batch: Batch, target: SendTarget, status: RowStatus, message: string): RowResult[] {
  return batch.rows.map((r) => {
    const rowId = batch.rowIds.get(r.row);
    const key = batch.keys.get(r.row) as string;
    const link: RowLink = rowId !== undefined ? { audienceId: target.audienceId, rowId } : { audienceId: target.audienceId, key };
    return { row: r.row, status, link, problems: [], message };
  });
}

type BatchOutcome = { results: RowResult[]; stop?: { error: unknown; cancelled: boolean } };
type Counts = { requests: number; lookups: number };

/**
 * One upsert of a batch (its keys looked up first when in doubt). A failure after which the
 * service may have applied it is thrown as SendAgain while the batch has sends left, so the run
 * sends it again before any other; every other end is the batch's results.
 */
async function sendBatch(port: AudiencePort, target: SendTarget, batch: Batch, signal: AbortSignal | undefined, counts: Counts): Promise<BatchOutcome> {
  const call = { priority: "bulk" as const, ...(signal ? { signal } : {}) };
  try {
    if (batch.doubt) {
      counts.lookups++;
      await lookUpKeys(port, target, batch, signal);
    }
    counts.requests++;
    batch.sends++;
    return { results: answered(batch, await port.upsertAudienceRows(target.audienceId, upsertRows(batch, target), call), target) };
  } catch (error) {
    return failed(batch, target, error, signal);
  }
}

/** What a row says of a failed send: the error factory's row status (short, with the service's reference). */
const rowText = (error: unknown) => rowStatus(failureOf(error));

function failed(batch: Batch, target: SendTarget, error: unknown, signal: AbortSignal | undefined): BatchOutcome {
  if (isCancel(error, signal)) {
    // The request may have left: its rows keep their keys, so the next send finds them.
    return { results: unsettled(batch, target, "unknown", "Cancelled while this row was being sent."), stop: { error, cancelled: true } };
  }
  // Refused surely (a 400 for the whole request; 401, 402, 403, 404 stop the send): nothing of
  // this send was applied. Keys stay in the links only when an earlier send may have made the rows.
  const refused = isServiceError(error) && error.kind === "validation";
  if (refused || !mayHaveApplied(error)) {
    const results = unsettled(batch, target, refused ? "refused" : batch.doubt ? "unknown" : "notSent", rowText(error));
    const kept = batch.doubt ? results : results.map(({ link, ...r }) => (link && "rowId" in link ? { ...r, link } : r));
    return { results: kept, ...(refused ? {} : { stop: { error, cancelled: false } }) };
  }
  batch.doubt = true;
  if (batch.sends < MAX_SENDS) throw new SendAgain(error);
  return { results: unsettled(batch, target, "unknown", rowText(error)), stop: { error, cancelled: false } };
}

const notSent = (rows: readonly PreparedRow[], outcomes: readonly ItemOutcome<RowResult>[]): RowResult[] =>
  outcomes.map((o, i) => (o.status === "done" ? o.value : { row: (rows[i] as PreparedRow).row, status: "notSent", problems: [], message: "Not sent." }));

/**
 * Sends the plan's rows to the target on the core's bulk run: 500 a request, `concurrency`
 * requests handed to the client at once (its rate limiter paces them). Results come in the
 * plan's order.
 */
export async function sendRows(port: AudiencePort, target: SendTarget, plan: SendPlan, options: SendOptions): Promise<SendResult> {
  const counts: Counts = { requests: 0, lookups: 0 };
  const { signal, onProgress } = options;
  let stop: BatchOutcome["stop"];
  // A batch sent again keeps what its earlier sends learnt (its doubt, the row ids found by key).
  const batches = new Map<number, Batch>();
  const run = await runBulk(
    plan.rows,
    async (request) => {
      const first = request.indexes[0] as number;
      const batch = batches.get(first) ?? batchOf([...request.items], options.runKey);
      batches.set(first, batch);
      const outcome = await sendBatch(port, target, batch, signal, counts);
      stop ??= outcome.stop;
      return outcome.stop ? { values: outcome.results, stop: outcome.stop } : outcome.results;
    },
    {
      cap: ROWS_PER_REQUEST,
      window: options.concurrency ?? 6,
      resend: (error) => error instanceof SendAgain,
      ...(signal ? { signal } : {}),
      ...(onProgress ? { onProgress: (p) => p.requests > 0 && onProgress({ rowsDone: p.done, rows: p.total, requests: counts.requests }) } : {}),
    },
  );
  if (run.cancelled) stop ??= { error: signal?.reason, cancelled: true };
  return { rows: notSent(plan.rows, run.outcomes), ...counts, cancelled: stop?.cancelled ?? false, ...(stop && !stop.cancelled ? { error: stop.error } : {}) };
}
