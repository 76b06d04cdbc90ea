// Audiences, columns, rows and jobs as the service's JSON:API documents (docs/service.md, "Audiences and jobs").
import type { AudienceRecord, ColumnRecord, JobRecord, RowRecord } from "./store.js";

export function columnDocument(c: ColumnRecord) {
  return {
    id: c.id,
    type: "Column" as const,
    attributes: { name: c.name, dataType: c.dataType, columnType: c.columnType, ...(c.matchCriteria ? { matchCriteria: c.matchCriteria } : {}) },
  };
}

export function audienceDocument(a: AudienceRecord, columns: ColumnRecord[]) {
  return {
    id: a.id,
    type: "Audience" as const,
    attributes: {
      name: a.name,
      description: a.description,
      recordCount: a.recordCount,
      type: a.type,
      ...(a.folderId !== undefined ? { folderId: a.folderId } : {}),
      columns: columns.map(columnDocument),
    },
  };
}

/** A row with one value per column: the input column holds the record reference. */
export function rowDocument(row: RowRecord, columns: ColumnRecord[]) {
  return {
    id: row.id,
    type: "Row" as const,
    attributes: {
      values: columns.map((c) => {
        if (c.columnType === "INPUT") return { columnId: c.id, value: row.recordRef, state: "RESULT" };
        const cell = row.cells[c.id];
        if (cell === undefined) return { columnId: c.id, state: "BLANK" };
        return {
          columnId: c.id,
          ...(cell.value !== undefined ? { value: cell.value } : {}),
          state: cell.state,
          ...(cell.errorDetails !== undefined ? { errorDetails: cell.errorDetails } : {}),
        };
      }),
    },
  };
}

export function jobStatusDocument(job: JobRecord) {
  return { data: { id: job.id, type: "JobStatus", attributes: { status: job.state, percentProgress: job.percent } } };
}

export function folderDocument(f: { id: string; name: string; description: string; audienceIds: string[] }) {
  return { id: f.id, type: "Folder" as const, attributes: { name: f.name, description: f.description, audiences: f.audienceIds } };
}
