// The background job engine: one loop on the sandbox's clock moves every active job forward at
// the configured speed (rows per second), enriching rows from the sandbox's records and charging
// credits as company/contact enrichment does. With a manual clock, jobs move only as a test
// moves time. Each step is one SQLite transaction, so a restart resumes
// a job where it stopped; nothing is kept only in memory but the pacing.
import type { Clock, MatchCompanyInput, MatchPersonInput } from "../../core/contract/index.js";
import { sandboxClock } from "../clock.js";
import type { CreditLedger, RecordStore } from "../context.js";
import { matchInput } from "./matching.js";
import type { AudienceRecord, AudienceStore, Cell, ColumnRecord, ErrorDetails, JobRecord, JobRunState, RowRecord } from "./store.js";

type MatchAnswer = { id: number } | { status: string };

/** The enrichment's matchers: how a written audience's rows find their records (matching.ts). */
export interface RecordMatchers {
  company(input: MatchCompanyInput): MatchAnswer;
  contact(input: MatchPersonInput): MatchAnswer;
}

export interface JobEngineOptions {
  store: AudienceStore;
  records: RecordStore;
  credits: CreditLedger;
  /** Read at every tick, so the speed can change while jobs run (demos, tests). */
  rowsPerSecond: () => number;
  /** Step interval in ms of the clock (default 50). */
  tickMs?: number;
  /** Time: pacing reads now(), the loop waits on sleep() (default: the system clock). */
  clock?: Clock;
  /** Matches the rows of audiences with a match column (none: such rows match nothing). */
  matchers?: RecordMatchers;
  /** Called after each tick that had jobs to move. */
  onTick?: () => void;
}

/** Most rows one tick processes (about 60 ms of work), so a fast setting never blocks the event loop for long. */
const MAX_ROWS_PER_TICK = 500;

const INVALID_REFERENCE: ErrorDetails = {
  summary: "Invalid reference",
  description: "The row does not hold a valid record id, so it cannot be matched.",
  retryable: false,
};
const NO_MATCH: ErrorDetails = {
  summary: "No match",
  description: "No record matches this row's reference.",
  retryable: false,
};
const NOTHING_TO_MATCH: ErrorDetails = {
  summary: "Nothing to match",
  description: "The row holds no value in the columns mapped to match criteria.",
  retryable: false,
};
const NO_CREDITS: ErrorDetails = {
  summary: "Credit limit reached",
  description: "The account has no credits left to enrich a new record.",
  retryable: true,
};

/** A record reference is a positive whole number; anything else cannot be matched. */
export function parseRecordRef(ref: string): number | undefined {
  if (!/^[1-9]\d{0,14}$/.test(ref.trim())) return undefined;
  return Number(ref.trim());
}

/** Reads an output field; contact company fields may come back nested under `company`. */
function readField(attrs: Record<string, unknown>, field: string): unknown {
  if (attrs[field] !== undefined) return attrs[field];
  const company = attrs.company;
  if (field.startsWith("company") && company !== null && typeof company === "object") {
    const nested = company as Record<string, unknown>;
    const key = field === "companyId" ? "id" : field === "companyName" ? "name" : undefined;
    if (key !== undefined) return nested[key];
  }
  return undefined;
}

function finalState(totalRows: number, failedRows: number): JobRunState {
  if (failedRows === 0) return "SUCCEEDED";
  if (failedRows >= totalRows) return "FAILED";
  return "PARTIALLY_SUCCEEDED";
}

export class JobEngine {
  private readonly opts: JobEngineOptions;
  private readonly clock: Clock;
  /** The running loop's stop switch; undefined while no job is active. */
  private loop: AbortController | undefined;
  /** Per job: when it last advanced and the fraction of a row it is owed. */
  private readonly pacing = new Map<string, { last: number; owed: number }>();
  private stopped = false;

  constructor(opts: JobEngineOptions) {
    this.opts = opts;
    this.clock = opts.clock ?? sandboxClock;
  }

  private now(): number {
    return this.clock.now();
  }

  /** Resumes jobs a previous run left SCHEDULED or RUNNING. */
  start(): void {
    if (this.opts.store.activeJobs().length > 0) this.ensureLoop();
  }

  /** Called after a job is created. */
  wake(): void {
    this.ensureLoop();
  }

  stop(): void {
    this.stopped = true;
    this.loop?.abort();
    this.loop = undefined;
  }

  private ensureLoop(): void {
    if (this.stopped || this.loop !== undefined) return;
    const loop = new AbortController();
    this.loop = loop;
    void this.run(loop);
  }

  /** Steps every tickMs of the clock while jobs are active; ends when none is (wake() starts it again). */
  private async run(loop: AbortController): Promise<void> {
    for (;;) {
      try {
        await this.clock.sleep(this.opts.tickMs ?? 50, loop.signal);
      } catch {
        return; // stopped
      }
      if (this.loop !== loop) return;
      if (!this.step()) {
        // No await between the check and this: a wake() after it starts a new loop.
        this.loop = undefined;
        return;
      }
    }
  }

  /** One step of every active job. Public for tests that drive time themselves. */
  tick(): void {
    this.step();
  }

  /** One step; false when there was no active job to move. */
  private step(): boolean {
    const { store } = this.opts;
    if (this.stopped || !store.isOpen) return false;
    const jobs = store.activeJobs();
    if (jobs.length === 0) return false;
    const now = this.now();
    try {
      this.advanceAll(jobs, now);
    } finally {
      this.opts.onTick?.();
    }
    return true;
  }

  private advanceAll(jobs: readonly JobRecord[], now: number): void {
    const { store } = this.opts;
    for (const job of jobs) {
      try {
        this.advance(job, now);
      } catch (error) {
        // A job that cannot go on ends FAILED rather than staying RUNNING; the cause is shown.
        process.stderr.write(`sandbox: audience job ${job.id} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
        this.pacing.delete(job.id);
        if (store.isOpen) store.updateJob(job.id, { state: "FAILED", finishedAt: new Date(now).toISOString() });
      }
    }
  }

  private advance(job: JobRecord, now: number): void {
    const { store } = this.opts;
    const pace = this.pacing.get(job.id);
    if (pace === undefined) {
      // First sight of this job (new, or resumed after a restart): start counting from now.
      this.pacing.set(job.id, { last: now, owed: 0 });
      if (job.state === "SCHEDULED") {
        store.updateJob(job.id, { state: "RUNNING", startedAt: new Date(now).toISOString() });
      }
      return;
    }
    pace.owed += ((now - pace.last) / 1000) * Math.max(0, this.opts.rowsPerSecond());
    pace.last = now;
    const count = Math.min(MAX_ROWS_PER_TICK, Math.floor(pace.owed));
    if (count < 1 && job.doneRows < job.totalRows) return;
    pace.owed -= count;
    store.transaction(() => this.processRows(job, count));
  }

  private processRows(job: JobRecord, count: number): void {
    const { store } = this.opts;
    const audience = store.getAudience(job.audienceId);
    if (audience === undefined) {
      store.updateJob(job.id, { state: "FAILED", finishedAt: new Date(this.now()).toISOString() });
      this.pacing.delete(job.id);
      return;
    }
    const all = store.columns(job.audienceId);
    const columns = all.filter((c) => job.columnIds.includes(c.id));
    const rowIds = store.pendingRowIds(job, count);
    const rows = store.rowsByIds(job.audienceId, rowIds);
    const matchColumn = all.find((c) => c.columnType === "MATCH");
    const unmatched = new Map<string, ErrorDetails>();
    const refs = matchColumn
      ? this.matchedRefs(audience, matchColumn, rows, unmatched)
      : new Map<string, number | undefined>(rows.map((r) => [r.id, parseRecordRef(r.recordRef)]));
    const validIds = [...new Set([...refs.values()].filter((v): v is number => v !== undefined))];
    const fields = ["id", ...new Set(columns.map((c) => c.field))];
    const kind = audience.type === "COMPANY" ? "company" : "contact";
    const found =
      validIds.length === 0
        ? new Map<number, Record<string, unknown>>()
        : kind === "company"
          ? this.opts.records.companyAttributes(validIds, fields)
          : this.opts.records.contactAttributes(validIds, fields);
    const matched = validIds.filter((id) => found.has(id));
    const refused = new Set(matched.length > 0 ? this.opts.credits.charge(job.account, kind, matched).refused : []);

    let failed = 0;
    for (const row of rows) {
      const ref = refs.get(row.id);
      const attrs = ref === undefined ? undefined : found.get(ref);
      let error: { state: "ERROR" | "NO_RESULT"; details: ErrorDetails } | undefined;
      const miss = unmatched.get(row.id);
      if (miss !== undefined) error = { state: miss === NOTHING_TO_MATCH ? "ERROR" : "NO_RESULT", details: miss };
      else if (ref === undefined) error = { state: "ERROR", details: INVALID_REFERENCE };
      else if (attrs === undefined) error = { state: "NO_RESULT", details: NO_MATCH };
      else if (refused.has(ref)) error = { state: "ERROR", details: NO_CREDITS };
      for (const column of columns) {
        row.cells[column.id] =
          error !== undefined || attrs === undefined
            ? { state: error?.state ?? "NO_RESULT", errorDetails: error?.details ?? NO_MATCH }
            : this.cell(attrs, column);
      }
      if (error) failed++;
      store.writeCells(job.audienceId, row.id, row.cells);
    }
    // Fewer pending rows than asked for means the list is exhausted: the job is done.
    const doneRows = rowIds.length < count ? job.totalRows : Math.min(job.totalRows, job.doneRows + rowIds.length);
    const failedRows = job.failedRows + failed;
    const finished = doneRows >= job.totalRows;
    store.updateJob(job.id, {
      doneRows,
      failedRows,
      percent: job.totalRows === 0 ? 100 : Math.floor((doneRows * 100) / job.totalRows),
      ...(finished ? { state: finalState(job.totalRows, failedRows), finishedAt: new Date(this.now()).toISOString() } : {}),
    });
    if (finished) this.pacing.delete(job.id);
  }

  /** Each row's record by its match criteria; a row that matches nothing gets its reason in `unmatched`. */
  private matchedRefs(
    audience: AudienceRecord,
    matchColumn: ColumnRecord,
    rows: RowRecord[],
    unmatched: Map<string, ErrorDetails>,
  ): Map<string, number | undefined> {
    const refs = new Map<string, number | undefined>();
    const criteria = matchColumn.matchCriteria ?? [];
    for (const row of rows) {
      const input = matchInput(audience.type, criteria, row);
      const answer =
        input === undefined || !this.opts.matchers
          ? undefined
          : audience.type === "COMPANY"
            ? this.opts.matchers.company(input as MatchCompanyInput)
            : this.opts.matchers.contact(input as MatchPersonInput);
      if (input === undefined) unmatched.set(row.id, NOTHING_TO_MATCH);
      else if (answer === undefined || !("id" in answer)) unmatched.set(row.id, NO_MATCH);
      refs.set(row.id, answer !== undefined && "id" in answer ? answer.id : undefined);
    }
    return refs;
  }

  private cell(attrs: Record<string, unknown>, column: ColumnRecord): Cell {
    const value = readField(attrs, column.field);
    return value === undefined || value === null || value === "" ? { state: "BLANK" } : { value, state: "RESULT" };
  }
}
