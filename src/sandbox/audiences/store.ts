// Audiences, their columns and rows, and enrichment jobs, kept in the sandbox's SQLite
// database so that row values and jobs survive a restart (with a data folder).
import type Database from "better-sqlite3";
import {
  ADDED_COLUMNS,
  SCHEMA,
  toAudience,
  toColumn,
  toRow,
  toJob,
  type AudienceKind,
  type Cell,
  type AudienceRecord,
  type ColumnRecord,
  type RowRecord,
  type JobRecord,
  type AudienceRowSql,
  type ColumnSql,
  type RowSql,
  type JobSql,
} from "./storeSchema.js";

/** Owner of seeded audiences and of those created without one (the default dev token's account). */
export const DEFAULT_OWNER = "default";

export type { AudienceKind, CellState, JobRunState, ErrorDetails, Cell, AudienceRecord, ColumnRecord, RowRecord, JobRecord } from "./storeSchema.js";

export interface NewAudience {
  id: string;
  /** Owner (default: the sandbox's default account). */
  account?: string;
  name: string;
  description: string;
  type: AudienceKind;
  columns: { id: string; name: string; dataType: string; columnType: string; field: string }[];
  rows: { id: string; recordRef: string }[];
}

export interface NewJob {
  id: string;
  audienceId: string;
  account: string;
  columnIds: string[];
  rowIds: string[];
}

const AUDIENCE_SELECT = `SELECT a.id, a.account, a.name, a.description, a.type, a.folder_id,
  (SELECT count(*) FROM audience_row r WHERE r.audience_id = a.id) AS record_count FROM audience a`;

export class AudienceStore {
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(db: Database.Database) {
    this.db = db;
    db.exec(SCHEMA);
    // Data folders from before a column existed (an owner: the default account's).
    for (const [table, column, definition] of ADDED_COLUMNS) {
      const columns = db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[];
      if (!columns.some((c) => c.name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
    }
  }

  /** Prepares each statement once: preparing per row made big jobs slow. (writes.ts shares it.) */
  sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  get isOpen(): boolean {
    return this.db.open;
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  audienceCount(): number {
    return (this.sql("SELECT count(*) AS n FROM audience").get() as { n: number }).n;
  }

  createAudience(audience: NewAudience): void {
    const seq = (this.sql("SELECT coalesce(max(seq), 0) + 1 AS s FROM audience").get() as { s: number }).s;
    this.transaction(() => {
      this.db
        .prepare("INSERT INTO audience (id, seq, name, description, type, account) VALUES (?, ?, ?, ?, ?, ?)")
        .run(audience.id, seq, audience.name, audience.description, audience.type, audience.account ?? DEFAULT_OWNER);
      const col = this.sql("INSERT INTO audience_column (audience_id, id, position, name, data_type, column_type, field) VALUES (?, ?, ?, ?, ?, ?, ?)");
      audience.columns.forEach((c, i) => col.run(audience.id, c.id, i, c.name, c.dataType, c.columnType, c.field));
      const row = this.sql("INSERT INTO audience_row (audience_id, id, position, record_ref) VALUES (?, ?, ?, ?)");
      audience.rows.forEach((r, i) => row.run(audience.id, r.id, i, r.recordRef));
    });
  }

  /** The audiences of one account. */
  listAudiences(account: string): AudienceRecord[] {
    return (this.sql(`${AUDIENCE_SELECT} WHERE a.account = ? ORDER BY a.seq`).all(account) as AudienceRowSql[]).map(toAudience);
  }

  getAudience(id: string): AudienceRecord | undefined {
    const r = this.sql(`${AUDIENCE_SELECT} WHERE a.id = ?`).get(id) as AudienceRowSql | undefined;
    return r ? toAudience(r) : undefined;
  }

  columns(audienceId: string): ColumnRecord[] {
    return (this.sql("SELECT * FROM audience_column WHERE audience_id = ? ORDER BY position").all(audienceId) as ColumnSql[]).map(toColumn);
  }

  rowPage(audienceId: string, offset: number, limit: number): RowRecord[] {
    return (
      this.db
        .prepare("SELECT id, position, record_ref, cells FROM audience_row WHERE audience_id = ? ORDER BY position LIMIT ? OFFSET ?")
        .all(audienceId, limit, offset) as RowSql[]
    ).map(toRow);
  }

  allRowIds(audienceId: string): string[] {
    return this.db.prepare("SELECT id FROM audience_row WHERE audience_id = ? ORDER BY position").pluck().all(audienceId) as string[];
  }

  /** Which of `rowIds` belong to the audience. */
  existingRowIds(audienceId: string, rowIds: readonly string[]): Set<string> {
    const found = new Set<string>();
    const stmt = this.sql("SELECT 1 FROM audience_row WHERE audience_id = ? AND id = ?").pluck();
    for (const id of rowIds) if (stmt.get(audienceId, id) !== undefined) found.add(id);
    return found;
  }

  rowsByIds(audienceId: string, rowIds: readonly string[]): RowRecord[] {
    const stmt = this.sql("SELECT id, position, record_ref, cells FROM audience_row WHERE audience_id = ? AND id = ?");
    const out: RowRecord[] = [];
    for (const id of rowIds) {
      const r = stmt.get(audienceId, id) as RowSql | undefined;
      if (r) out.push(toRow(r));
    }
    return out;
  }

  /** Record references of rows, for the credit check before a job starts. */
  recordRefs(audienceId: string, rowIds: readonly string[]): string[] {
    const stmt = this.sql("SELECT record_ref FROM audience_row WHERE audience_id = ? AND id = ?").pluck();
    return rowIds.map((id) => stmt.get(audienceId, id) as string | undefined).filter((r): r is string => r !== undefined);
  }

  writeCells(audienceId: string, rowId: string, cells: Record<string, Cell>): void {
    this.sql("UPDATE audience_row SET cells = ? WHERE audience_id = ? AND id = ?").run(JSON.stringify(cells), audienceId, rowId);
  }

  /** Creates the job and marks its cells LOADING, in one transaction. */
  createJob(job: NewJob, now: string): void {
    this.transaction(() => {
      this.db
        .prepare("INSERT INTO audience_job (id, audience_id, account, state, total_rows, columns, created_at) VALUES (?, ?, ?, 'SCHEDULED', ?, ?, ?)")
        .run(job.id, job.audienceId, job.account, job.rowIds.length, JSON.stringify(job.columnIds), now);
      const jr = this.sql("INSERT INTO audience_job_row (job_id, seq, row_id) VALUES (?, ?, ?)");
      job.rowIds.forEach((rowId, i) => jr.run(job.id, i, rowId));
      for (const row of this.rowsByIds(job.audienceId, job.rowIds)) {
        for (const columnId of job.columnIds) {
          const previous = row.cells[columnId];
          // Keep the previous value visible while it loads again, as a refreshing sheet would.
          row.cells[columnId] = previous?.value !== undefined ? { value: previous.value, state: "LOADING" } : { state: "LOADING" };
        }
        this.writeCells(job.audienceId, row.id, row.cells);
      }
    });
  }

  getJob(id: string): JobRecord | undefined {
    const r = this.sql("SELECT * FROM audience_job WHERE id = ?").get(id) as JobSql | undefined;
    return r ? toJob(r) : undefined;
  }

  activeJobs(): JobRecord[] {
    return (this.db.prepare("SELECT * FROM audience_job WHERE state IN ('SCHEDULED', 'RUNNING') ORDER BY created_at, id").all() as JobSql[]).map(toJob);
  }

  /** The job's next unprocessed row ids, in order. */
  pendingRowIds(job: JobRecord, limit: number): string[] {
    return this.db
      .prepare("SELECT row_id FROM audience_job_row WHERE job_id = ? AND seq >= ? ORDER BY seq LIMIT ?")
      .pluck()
      .all(job.id, job.doneRows, limit) as string[];
  }

  updateJob(id: string, change: Partial<Pick<JobRecord, "state" | "percent" | "doneRows" | "failedRows" | "startedAt" | "finishedAt">>): void {
    const columns: Record<string, string> = {
      state: "state",
      percent: "percent",
      doneRows: "done_rows",
      failedRows: "failed_rows",
      startedAt: "started_at",
      finishedAt: "finished_at",
    };
    const sets: string[] = [];
    const values: unknown[] = [];
    for (const [key, value] of Object.entries(change)) {
      const column = columns[key];
      if (column === undefined || value === undefined) continue;
      sets.push(`${column} = ?`);
      values.push(value);
    }
    if (sets.length === 0) return;
    this.sql(`UPDATE audience_job SET ${sets.join(", ")} WHERE id = ?`).run(...values, id);
  }
}
