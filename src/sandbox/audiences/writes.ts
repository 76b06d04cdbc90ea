// Writing audiences (docs/audiences.md), the one engine both profiles' routes call: CUSTOM
// audiences and columns, the match column and its criteria (with the service's enrichment
// columns), row upserts with a state per cell, row and audience deletes, folders. Each write is
// one SQLite transaction: a request refused is refused whole, before anything is written.
import { randomUUID } from "node:crypto";
import { cellValueProblem, ERROR_CODES, isBlankCell, type CellValue, type UpsertRow, type ValidationIssue } from "../../core/contract/index.js";
import { ApiError, ValidationFailure } from "../errors.js";
import { columnTemplates } from "./columns.js";
import { autoCriteria, criterionFits } from "./matching.js";
import type { AudienceKind, AudienceRecord, AudienceStore, Cell, ColumnRecord, RowRecord } from "./store.js";

export const CUSTOM = "CUSTOM";
/** The column the enrichment fills with the matched record's id (production: ZOOMINFO_MATCH). */
export const MATCH = "MATCH";
const MATCH_DATA_TYPE: Record<AudienceKind, string> = { COMPANY: "ZI_COMPANY_ID", CONTACT: "ZI_CONTACT_ID" };

export interface FolderRecord {
  id: string;
  name: string;
  description: string;
  createdAt: string;
  audienceIds: string[];
}

/**
 * Columns of its own an audience may have (the service's match and enrichment columns come on
 * top): a bulk upsert of 500 rows then writes at most 250,000 cells, so one request cannot hold
 * the service for seconds, and it is far more than a sheet's table of leads has.
 */
export const MAX_CUSTOM_COLUMNS = 500;

function refuseTooManyColumns(existing: number, added: number): void {
  if (existing + added <= MAX_CUSTOM_COLUMNS) return;
  const room = Math.max(0, MAX_CUSTOM_COLUMNS - existing);
  throw new ApiError(
    400,
    ERROR_CODES.validation,
    `An audience holds at most ${MAX_CUSTOM_COLUMNS} columns of your own, so that loading rows into it stays quick; ` +
      `this one has ${existing}, so ${room === 0 ? "no more can be added" : `at most ${room} more can be added`}.`,
    { pointer: "/data" },
  );
}

function issue(pointer: string, label: string, message: string, code: string = ERROR_CODES.validation): ValidationIssue {
  return { pointer, label, rule: "reference", code, message };
}

export class AudienceWrites {
  constructor(
    private readonly store: AudienceStore,
    private readonly now: () => string,
  ) {}

  // ---------- folders ----------

  createFolder(account: string, name: string, description = ""): FolderRecord {
    const seq = (this.store.sql("SELECT coalesce(max(seq), 0) + 1 AS s FROM audience_folder").get() as { s: number }).s;
    const id = randomUUID();
    const createdAt = this.now();
    this.store
      .sql("INSERT INTO audience_folder (id, seq, account, name, description, created_at) VALUES (?, ?, ?, ?, ?, ?)")
      .run(id, seq, account, name, description, createdAt);
    return { id, name, description, createdAt, audienceIds: [] };
  }

  folders(account: string): FolderRecord[] {
    const rows = this.store.sql("SELECT id, name, description, created_at FROM audience_folder WHERE account = ? ORDER BY seq").all(account) as {
      id: string;
      name: string;
      description: string;
      created_at: string;
    }[];
    const members = this.store.sql("SELECT id FROM audience WHERE folder_id = ? ORDER BY seq").pluck();
    return rows.map((r) => ({ id: r.id, name: r.name, description: r.description, createdAt: r.created_at, audienceIds: members.all(r.id) as string[] }));
  }

  folder(account: string, id: string): FolderRecord | undefined {
    return this.folders(account).find((f) => f.id === id);
  }

  patchFolder(account: string, folder: FolderRecord, change: { name?: string; description?: string }): FolderRecord {
    if (change.name !== undefined) this.store.sql("UPDATE audience_folder SET name = ? WHERE id = ?").run(change.name, folder.id);
    if (change.description !== undefined) this.store.sql("UPDATE audience_folder SET description = ? WHERE id = ?").run(change.description, folder.id);
    return this.folder(account, folder.id)!;
  }

  /** An empty folder is deleted; one that holds audiences is refused (nothing is lost by a delete). */
  deleteFolder(folder: FolderRecord): void {
    if (folder.audienceIds.length > 0) {
      const count = folder.audienceIds.length;
      throw new ApiError(
        400,
        ERROR_CODES.validation,
        `The folder holds ${count} audience${count === 1 ? "" : "s"}: move or delete ${count === 1 ? "it" : "them"} first.`,
        {
          parameter: "folderId",
        },
      );
    }
    this.store.sql("DELETE FROM audience_folder WHERE id = ?").run(folder.id);
  }

  private folderOf(account: string, folderId: string | undefined, pointer: string): string | undefined {
    if (folderId === undefined) return undefined;
    if (!this.folder(account, folderId)) throw new ValidationFailure([issue(pointer, "Folder", `No folder has the id ${folderId}.`)]);
    return folderId;
  }

  // ---------- audiences and columns ----------

  /** A CUSTOM audience with its columns, in `folderId` or in a new folder of its name. */
  createAudience(
    account: string,
    input: { name: string; type: AudienceKind; description?: string; notes?: string; folderId?: string; columns: { name: string; dataType: string }[] },
  ): AudienceRecord {
    refuseTooManyColumns(0, input.columns.length);
    return this.store.transaction(() => {
      const folderId = this.folderOf(account, input.folderId, "/data/attributes/folderId") ?? this.createFolder(account, input.name).id;
      const id = randomUUID();
      const columns = input.columns.map((c) => ({ id: randomUUID() as string, name: c.name, dataType: c.dataType, columnType: CUSTOM, field: "" }));
      this.store.createAudience({ id, account, name: input.name, description: input.description ?? "", type: input.type, columns, rows: [] });
      this.store.sql("UPDATE audience SET folder_id = ?, notes = ? WHERE id = ?").run(folderId, input.notes ?? "", id);
      return this.store.getAudience(id)!;
    });
  }

  /** Adds CUSTOM columns after the others; a name the audience already has is refused. */
  addColumns(audience: AudienceRecord, columns: { name: string; dataType: string }[]): ColumnRecord[] {
    return this.store.transaction(() => {
      const existing = this.store.columns(audience.id);
      const taken = new Set(existing.map((c) => c.name.trim().toLowerCase()));
      const clashes = columns.flatMap((c, i) =>
        taken.has(c.name.trim().toLowerCase())
          ? [issue(`/data/${i}/attributes/name`, "Column name", `This audience already has a column named "${c.name}".`)]
          : [],
      );
      if (clashes.length > 0) throw new ValidationFailure(clashes);
      refuseTooManyColumns(existing.filter((c) => c.columnType === CUSTOM).length, columns.length);
      const added = columns.map((c) => ({ id: randomUUID() as string, name: c.name, dataType: c.dataType, columnType: CUSTOM, field: "" }));
      this.insertColumns(audience.id, added);
      const ids = new Set(added.map((c) => c.id));
      return this.store.columns(audience.id).filter((c) => ids.has(c.id));
    });
  }

  private insertColumns(audienceId: string, columns: { id: string; name: string; dataType: string; columnType: string; field: string }[]): void {
    const insert = this.store.sql(
      "INSERT INTO audience_column (audience_id, id, position, name, data_type, column_type, field) VALUES (?, ?, (SELECT coalesce(max(position), -1) + 1 FROM audience_column WHERE audience_id = ?), ?, ?, ?, ?)",
    );
    for (const c of columns) insert.run(audienceId, c.id, audienceId, c.name, c.dataType, c.columnType, c.field);
  }

  /**
   * Replaces the match column's criteria (none given: mapped from the columns' names and types).
   * The first mapping creates the match column and the service's enrichment columns.
   */
  setMatchCriteria(audience: AudienceRecord, given: { columnId: string; mappedTo: string }[] | undefined): ColumnRecord {
    return this.store.transaction(() => {
      const columns = this.store.columns(audience.id);
      const criteria = given ?? autoCriteria(audience.type, columns);
      const issues: ValidationIssue[] = [];
      criteria.forEach((c, i) => {
        const column = columns.find((col) => col.id === c.columnId);
        const pointer = `/data/attributes/matchCriteria/${i}`;
        if (!column) issues.push(issue(`${pointer}/columnId`, "Match column", `Column ${c.columnId} is not in this audience.`));
        else if (column.columnType !== CUSTOM)
          issues.push(issue(`${pointer}/columnId`, "Match column", `Column "${column.name}" is filled by the service; map a column of your own.`));
        else if (!criterionFits(audience.type, c.mappedTo)) {
          issues.push(issue(`${pointer}/mappedTo`, "Match field", `${c.mappedTo} does not identify a ${audience.type === "COMPANY" ? "company" : "contact"}.`));
        }
      });
      if (issues.length > 0) throw new ValidationFailure(issues);
      let match = columns.find((c) => c.columnType === MATCH);
      if (!match) {
        const created = { id: randomUUID() as string, name: "Match", dataType: MATCH_DATA_TYPE[audience.type], columnType: MATCH, field: "id" };
        const service = columnTemplates(audience.type)
          .filter((t) => t.columnType === "ENRICHMENT")
          .filter((t) => !columns.some((c) => c.columnType === "ENRICHMENT" && c.field === t.field))
          // A name the user's own columns hold is not given twice: the service's column says it is enriched.
          .map((t) => ({ id: randomUUID() as string, name: freeName(t.name, columns), dataType: t.dataType, columnType: t.columnType, field: t.field }));
        this.insertColumns(audience.id, [created, ...service]);
        match = { ...created, audienceId: audience.id, position: columns.length };
      }
      this.store.sql("UPDATE audience_column SET match_criteria = ? WHERE audience_id = ? AND id = ?").run(JSON.stringify(criteria), audience.id, match.id);
      return this.store.columns(audience.id).find((c) => c.id === match.id)!;
    });
  }

  /** The column of the audience (404 when it has none of this id). */
  columnOf(audience: AudienceRecord, columnId: string): ColumnRecord {
    const column = this.store.columns(audience.id).find((c) => c.id === columnId);
    if (!column) throw notFound("This audience has no column with this id.", "columnId");
    return column;
  }

  /** Renames a column (another column's name is refused); its data type never changes. */
  renameColumn(audience: AudienceRecord, column: ColumnRecord, name: string | undefined): ColumnRecord {
    if (name !== undefined) {
      const clash = this.store.columns(audience.id).some((c) => c.id !== column.id && c.name.trim().toLowerCase() === name.trim().toLowerCase());
      if (clash) throw new ValidationFailure([issue("/data/attributes/name", "Column name", `This audience already has a column named "${name}".`)]);
      this.store.sql("UPDATE audience_column SET name = ? WHERE audience_id = ? AND id = ?").run(name, audience.id, column.id);
    }
    return this.columnOf(audience, column.id);
  }

  /** Deletes a column and its place in the match criteria; the match column itself is not deletable. */
  deleteColumn(audience: AudienceRecord, column: ColumnRecord): void {
    if (column.columnType === MATCH || column.columnType === "INPUT") {
      throw new ApiError(400, ERROR_CODES.validation, `Column "${column.name}" identifies the audience's records; it cannot be deleted.`, {
        parameter: "columnId",
      });
    }
    this.store.transaction(() => {
      this.store.sql("DELETE FROM audience_column WHERE audience_id = ? AND id = ?").run(audience.id, column.id);
      const match = this.store.columns(audience.id).find((c) => c.columnType === MATCH);
      if (match?.matchCriteria?.some((c) => c.columnId === column.id)) {
        const kept = match.matchCriteria.filter((c) => c.columnId !== column.id);
        this.store.sql("UPDATE audience_column SET match_criteria = ? WHERE audience_id = ? AND id = ?").run(JSON.stringify(kept), audience.id, match.id);
      }
    });
  }

  patchAudience(audience: AudienceRecord, change: { name?: string; description?: string; notes?: string; folderId?: string }): AudienceRecord {
    return this.store.transaction(() => {
      const folderId = this.folderOf(audience.account, change.folderId, "/data/attributes/folderId");
      const set = (column: string, value: string | undefined) => {
        if (value !== undefined) this.store.sql(`UPDATE audience SET ${column} = ? WHERE id = ?`).run(value, audience.id);
      };
      set("name", change.name);
      set("description", change.description);
      set("notes", change.notes);
      set("folder_id", folderId);
      return this.store.getAudience(audience.id)!;
    });
  }

  /** The audience, its columns, rows and jobs. */
  deleteAudience(audience: AudienceRecord): void {
    this.store.transaction(() => {
      this.store.sql("DELETE FROM audience_job_row WHERE job_id IN (SELECT id FROM audience_job WHERE audience_id = ?)").run(audience.id);
      for (const table of ["audience_job", "audience_row", "audience_column"]) this.store.sql(`DELETE FROM ${table} WHERE audience_id = ?`).run(audience.id);
      this.store.sql("DELETE FROM audience WHERE id = ?").run(audience.id);
    });
  }

  // ---------- rows ----------

  /**
   * Creates the rows without an id and updates those with one (only the cells given), in one
   * transaction; answers the rows in the order sent. A value the column's type refuses is that
   * cell's ERROR; a row or column the audience does not have refuses the whole request.
   */
  upsertRows(audience: AudienceRecord, rows: UpsertRow[]): RowRecord[] {
    const columns = new Map(this.store.columns(audience.id).map((c) => [c.id, c]));
    const existing = this.store.existingRowIds(
      audience.id,
      rows.flatMap((r) => (r.id === undefined ? [] : [r.id])),
    );
    const issues: ValidationIssue[] = [];
    rows.forEach((row, r) => {
      if (row.id !== undefined && !existing.has(row.id)) issues.push(issue(`/data/${r}/id`, "Row", `Row ${row.id} is not in this audience.`));
      row.attributes.values.forEach((v, c) => {
        const column = columns.get(v.columnId);
        const pointer = `/data/${r}/attributes/values/${c}/columnId`;
        if (!column) issues.push(issue(pointer, "Cell", `Column ${v.columnId} is not in this audience.`));
        else if (column.columnType !== CUSTOM)
          issues.push(issue(pointer, "Cell", `Column "${column.name}" is filled by the service; its cells cannot be written.`));
      });
    });
    if (issues.length > 0) throw new ValidationFailure(issues);
    return this.store.transaction(() => {
      let position = (this.store.sql("SELECT coalesce(max(position), -1) AS p FROM audience_row WHERE audience_id = ?").get(audience.id) as { p: number }).p;
      const insert = this.store.sql("INSERT INTO audience_row (audience_id, id, position, record_ref, cells) VALUES (?, ?, ?, '', ?)");
      return rows.map((row) => {
        const current: RowRecord =
          row.id !== undefined ? this.store.rowsByIds(audience.id, [row.id])[0]! : { id: randomUUID(), position: ++position, recordRef: "", cells: {} };
        for (const v of row.attributes.values) current.cells[v.columnId] = cellOf(columns.get(v.columnId)!, v.value);
        if (row.id === undefined) insert.run(audience.id, current.id, current.position, JSON.stringify(current.cells));
        else this.store.writeCells(audience.id, current.id, current.cells);
        return current;
      });
    });
  }

  /** Deletes the rows the audience has (an id it does not have, or no longer has, is skipped); the finished job's id. */
  deleteRows(audience: AudienceRecord, rowIds: string[]): string {
    return this.store.transaction(() => {
      const remove = this.store.sql("DELETE FROM audience_row WHERE audience_id = ? AND id = ?");
      let deleted = 0;
      for (const id of new Set(rowIds)) deleted += remove.run(audience.id, id).changes;
      const jobId = randomUUID();
      const at = this.now();
      this.store
        .sql(
          "INSERT INTO audience_job (id, audience_id, account, state, percent, total_rows, done_rows, columns, created_at, started_at, finished_at) VALUES (?, ?, ?, 'SUCCEEDED', 100, ?, ?, '[]', ?, ?, ?)",
        )
        .run(jobId, audience.id, audience.account, deleted, deleted, at, at, at);
      return jobId;
    });
  }
}

function freeName(name: string, columns: readonly ColumnRecord[]): string {
  const taken = (n: string) => columns.some((c) => c.name.trim().toLowerCase() === n.toLowerCase());
  return taken(name) ? `${name} (enriched)` : name;
}

/** A written cell: the value, blank, or the column type's refusal. */
function cellOf(column: ColumnRecord, value: CellValue): Cell {
  if (isBlankCell(value)) return { state: "BLANK" };
  const problem = cellValueProblem(column.dataType, value);
  if (problem !== undefined) return { state: "ERROR", errorDetails: { summary: "Invalid value", description: problem, retryable: false } };
  return { value, state: "RESULT" };
}

export function notFound(what: string, parameter: string): ApiError {
  return new ApiError(404, ERROR_CODES.notFound, what, { parameter });
}
