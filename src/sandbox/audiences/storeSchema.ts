// The sandbox's audience tables in SQLite: the records as the rest of the sandbox sees them,
// the schema, and how a stored row reads as a record. store.ts keeps the statements.

export type AudienceKind = "COMPANY" | "CONTACT";
export type CellState = "RESULT" | "BLANK" | "LOADING" | "ERROR" | "NO_RESULT";
export type JobRunState = "SCHEDULED" | "RUNNING" | "SUCCEEDED" | "PARTIALLY_SUCCEEDED" | "FAILED";

export interface ErrorDetails {
  summary: string;
  description?: string;
  retryable?: boolean;
}

/** One enrichment column's value in a row; the input column's value is the row's record reference. */
export interface Cell {
  value?: unknown;
  state: CellState;
  errorDetails?: ErrorDetails;
}

export interface AudienceRecord {
  id: string;
  /** The account the audience, its rows and its jobs belong to. */
  account: string;
  name: string;
  description: string;
  type: AudienceKind;
  recordCount: number;
  /** The folder of a written audience (seeded audiences have none). */
  folderId?: string;
}

export interface ColumnRecord {
  id: string;
  audienceId: string;
  position: number;
  name: string;
  dataType: string;
  columnType: string;
  field: string;
  /** The match column's mapping: which column is matched as what. */
  matchCriteria?: { columnId: string; mappedTo: string }[];
}

export interface RowRecord {
  id: string;
  position: number;
  recordRef: string;
  cells: Record<string, Cell>;
}

export interface JobRecord {
  id: string;
  audienceId: string;
  account: string;
  state: JobRunState;
  percent: number;
  totalRows: number;
  doneRows: number;
  failedRows: number;
  columnIds: string[];
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS audience (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  type TEXT NOT NULL,
  account TEXT NOT NULL DEFAULT 'default'
);
CREATE TABLE IF NOT EXISTS audience_column (
  audience_id TEXT NOT NULL,
  id TEXT NOT NULL,
  position INTEGER NOT NULL,
  name TEXT NOT NULL,
  data_type TEXT NOT NULL,
  column_type TEXT NOT NULL,
  field TEXT NOT NULL,
  PRIMARY KEY (audience_id, id)
);
CREATE TABLE IF NOT EXISTS audience_row (
  audience_id TEXT NOT NULL,
  id TEXT NOT NULL,
  position INTEGER NOT NULL,
  record_ref TEXT NOT NULL,
  cells TEXT NOT NULL DEFAULT '{}',
  PRIMARY KEY (audience_id, id)
);
CREATE UNIQUE INDEX IF NOT EXISTS audience_row_position ON audience_row (audience_id, position);
CREATE TABLE IF NOT EXISTS audience_job (
  id TEXT PRIMARY KEY,
  audience_id TEXT NOT NULL,
  account TEXT NOT NULL,
  state TEXT NOT NULL,
  percent INTEGER NOT NULL DEFAULT 0,
  total_rows INTEGER NOT NULL,
  done_rows INTEGER NOT NULL DEFAULT 0,
  failed_rows INTEGER NOT NULL DEFAULT 0,
  columns TEXT NOT NULL,
  created_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT
);
CREATE INDEX IF NOT EXISTS audience_job_state ON audience_job (state);
-- Folders of audiences (written audiences live in one; seeded ones in none).
CREATE TABLE IF NOT EXISTS audience_folder (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  account TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL
);
-- The rows a job covers, in processing order; job.done_rows is the cursor into them.
CREATE TABLE IF NOT EXISTS audience_job_row (
  job_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  row_id TEXT NOT NULL,
  PRIMARY KEY (job_id, seq)
) WITHOUT ROWID;
`;

/** Columns added after the first data folders: [table, column, definition]. */
export const ADDED_COLUMNS: ReadonlyArray<readonly [string, string, string]> = [
  ["audience", "account", "TEXT NOT NULL DEFAULT 'default'"],
  ["audience", "folder_id", "TEXT"],
  ["audience", "notes", "TEXT NOT NULL DEFAULT ''"],
  ["audience_column", "match_criteria", "TEXT"],
];

export interface AudienceRowSql {
  id: string;
  account: string;
  name: string;
  description: string;
  type: string;
  record_count: number;
  folder_id: string | null;
}
export interface ColumnSql {
  audience_id: string;
  id: string;
  position: number;
  name: string;
  data_type: string;
  column_type: string;
  field: string;
  match_criteria?: string | null;
}
export interface RowSql {
  id: string;
  position: number;
  record_ref: string;
  cells: string;
}
export interface JobSql {
  id: string;
  audience_id: string;
  account: string;
  state: string;
  percent: number;
  total_rows: number;
  done_rows: number;
  failed_rows: number;
  columns: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export function toAudience(r: AudienceRowSql): AudienceRecord {
  const audience: AudienceRecord = {
    id: r.id,
    account: r.account,
    name: r.name,
    description: r.description,
    type: r.type as AudienceKind,
    recordCount: r.record_count,
  };
  if (r.folder_id) audience.folderId = r.folder_id;
  return audience;
}
export function toColumn(r: ColumnSql): ColumnRecord {
  return {
    id: r.id,
    audienceId: r.audience_id,
    position: r.position,
    name: r.name,
    dataType: r.data_type,
    columnType: r.column_type,
    field: r.field,
    ...(r.match_criteria ? { matchCriteria: JSON.parse(r.match_criteria) as { columnId: string; mappedTo: string }[] } : {}),
  };
}
export function toRow(r: RowSql): RowRecord {
  return { id: r.id, position: r.position, recordRef: r.record_ref, cells: JSON.parse(r.cells) as Record<string, Cell> };
}
export function toJob(r: JobSql): JobRecord {
  return {
    id: r.id,
    audienceId: r.audience_id,
    account: r.account,
    state: r.state as JobRunState,
    percent: r.percent,
    totalRows: r.total_rows,
    doneRows: r.done_rows,
    failedRows: r.failed_rows,
    columnIds: JSON.parse(r.columns) as string[],
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}
