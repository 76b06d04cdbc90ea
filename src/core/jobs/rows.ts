// Reading an audience's rows after a job: how many failed, and the rows as a sheet table.
import { MAX_ROWS_PAGE_SIZE, type Audience, type AudienceRow } from "../contract/index.js";
import type { ServiceClient } from "../api/types.js";
import { jobRowFailure, rowStatus } from "../errors/failure.js";
import { cellValue, valuesNumberFormat, type CellValue, type ColumnSpec } from "../sheet/index.js";

/** Row states that mean the enrichment did not work for the row. */
const FAILED_VALUE_STATES: readonly string[] = ["ERROR", "NO_RESULT"];

function rowFailed(row: AudienceRow): boolean {
  return row.attributes.values.some((v) => FAILED_VALUE_STATES.includes(v.state));
}

interface ReadRowsOptions {
  signal?: AbortSignal;
  /** Only these rows (a job's rows): the service selects them, nothing else is read. */
  rowIds?: readonly string[];
  onProgress?: (read: number, total: number) => void;
}

/** Every row of the audience (or the rows named), page by page (500 a page, the most the service gives). */
export async function readAllRows(client: Pick<ServiceClient, "getAudienceRows">, audienceId: string, options: ReadRowsOptions = {}): Promise<AudienceRow[]> {
  const rows: AudienceRow[] = [];
  for (let page = 1; ; page++) {
    const result = await client.getAudienceRows(audienceId, {
      page,
      size: MAX_ROWS_PAGE_SIZE,
      ...(options.rowIds ? { search: { ids: [...options.rowIds] } } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    rows.push(...result.rows);
    options.onProgress?.(rows.length, result.totalResults);
    if (page >= result.totalPages || result.rows.length === 0) return rows;
  }
}

/** Failed rows among `rowIds` (all rows when undefined). */
export function countFailedRows(rows: readonly AudienceRow[], rowIds?: readonly string[]): number {
  const only = rowIds ? new Set(rowIds) : undefined;
  return rows.filter((r) => (!only || only.has(r.id)) && rowFailed(r)).length;
}

export interface AudienceTable {
  columns: ColumnSpec[];
  rows: CellValue[][];
}

const STATUS_WORDS: Record<string, string> = {
  RESULT: "Enriched",
  BLANK: "Not enriched",
  LOADING: "Enriching",
  ERROR: "Error",
  NO_RESULT: "No match",
};

/** A row's overall state in words: its first problem, else whether anything was enriched. */
function rowStatusText(row: AudienceRow, inputColumnIds: ReadonlySet<string>): string {
  const values = row.attributes.values.filter((v) => !inputColumnIds.has(v.columnId));
  const problem = values.find((v) => FAILED_VALUE_STATES.includes(v.state));
  if (problem) {
    // The service's words for the row, through the error factory: no credits is said as the job's estimate promised.
    const failure = problem.errorDetails ? jobRowFailure(problem.errorDetails) : undefined;
    return failure ? `${STATUS_WORDS[problem.state]}: ${rowStatus(failure)}` : (STATUS_WORDS[problem.state] ?? problem.state);
  }
  if (values.some((v) => v.state === "LOADING")) return STATUS_WORDS.LOADING ?? "LOADING";
  if (values.some((v) => v.state === "RESULT")) return STATUS_WORDS.RESULT ?? "RESULT";
  return STATUS_WORDS.BLANK ?? "BLANK";
}

/**
 * The rows as a table: Row ID, one column per audience column, and a Status column.
 * Numbers stay numbers; everything else is text (the workbook adapter writes text cells as
 * text, so a value such as "=cmd" never becomes a formula).
 */
export function audienceTable(audience: Audience, rows: readonly AudienceRow[]): AudienceTable {
  const cols = audience.attributes.columns;
  const inputIds = new Set(cols.filter((c) => c.attributes.columnType === "INPUT").map((c) => c.id));
  const columns: ColumnSpec[] = [
    { key: "rowId", header: "Row ID", type: "text", path: "id", byDefault: true },
    ...cols.map((c): ColumnSpec => ({
      key: c.id,
      header: c.attributes.name,
      type: c.attributes.dataType === "NUMBER" ? "number" : "text",
      path: c.id,
      byDefault: true,
    })),
    { key: "status", header: "Status", type: "text", path: "status", byDefault: true },
  ];
  const out = rows.map((row) => {
    const byColumn = new Map(row.attributes.values.map((v) => [v.columnId, v]));
    return [
      cellValue(row.id, "text"),
      ...cols.map((c) => {
        const v = byColumn.get(c.id);
        return v && v.state === "RESULT" ? cellValue(v.value, c.attributes.dataType === "NUMBER" ? "number" : "text") : "";
      }),
      cellValue(rowStatusText(row, inputIds), "text"),
    ];
  });
  // Numbers keep a number format, as a search insert's amounts do (whole numbers with separators).
  cols.forEach((c, k) => {
    const column = columns[k + 1];
    if (column && c.attributes.dataType === "NUMBER") column.numberFormat = valuesNumberFormat(out.map((row) => row[k + 1]));
  });
  return { columns, rows: out };
}
