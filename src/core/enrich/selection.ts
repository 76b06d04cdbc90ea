// "Enrich selection": a column of ids from the worksheet, enriched through the engine and
// written back as new columns to its right. This file holds the workbook-neutral parts: the
// interface a workbook adapter implements (Excel in src/office/enrichSelection.ts, the browser
// workbook in browser mode), reading a header, and building the rows to write.
import { shownValues } from "./answers.js";
import type { CellValue, InputAnswer } from "./engineTypes.js";
import { fieldNumberFormat } from "../sheet/columns.js";
import { fieldSpec, isRecordKind, parseRecordId, type KindName } from "./enrichKinds.js";
import { problemRowStatus, problems } from "./problems.js";

/** The selected column: its address (e.g. "Sheet1!B1:B200") and its values, top to bottom. */
export interface SelectedColumn {
  address: string;
  values: unknown[];
}

export type ReadSelectionResult = { ok: true; selection: SelectedColumn } | { ok: false; message: string };

export interface WriteColumnsRequest {
  /** Address of the selected id column, as readIds gave it. */
  address: string;
  /** Header texts, written into the selection's first row when it is a header row. */
  headers?: string[];
  /** One row per data row of the selection (below the header, if any), each with one value per new column. */
  rows: CellValue[][];
  /** Excel number format of each new column's number cells (as a search insert formats the field). */
  numberFormats?: string[];
  /** Write even if cells to the right are not empty (the user said so). */
  overwrite: boolean;
  /** Write exactly here instead (columns an earlier run wrote, as its result named them). */
  at?: string;
}

export type WriteColumnsResult =
  | { status: "written"; address: string }
  /** Cells to the right hold data; nothing was written. Ask the user, then write with overwrite. */
  | { status: "notEmpty"; address: string };

/** What the panel needs from a workbook. */
export interface SelectionSource {
  readIds(): Promise<ReadSelectionResult>;
  writeColumns(request: WriteColumnsRequest): Promise<WriteColumnsResult>;
  /** The column `offset` columns beside a read selection, same rows (country or city for matching); undefined when there is none. */
  readColumnBeside?(address: string, offset: number): Promise<unknown[] | undefined>;
}

export interface SplitColumn {
  /** The first cell is a header (text that is not an id, above at least one row). */
  header: string | undefined;
  /** Data cells, one per row below the header. */
  values: unknown[];
}

export function splitHeader(values: readonly unknown[]): SplitColumn {
  const first = values[0];
  if (values.length > 1 && typeof first === "string" && first.trim() !== "" && parseRecordId(first) === undefined) {
    return { header: first, values: values.slice(1) };
  }
  return { header: undefined, values: [...values] };
}

export const STATUS_HEADER = "Enrichment status";

export interface OutputColumns {
  headers: string[];
  rows: CellValue[][];
  /** One per header: how the column's numbers are formatted. */
  numberFormats: string[];
  /** Rows that got values / that show a problem / that were blank; when matching, rows matched and not. */
  counts: { enriched: number; problems: number; blank: number; matched: number; unmatched: number };
  /** Columns whose field could not be asked (not entitled): each of their cells says why. */
  columnProblems: { header: string; message: string }[];
}

/**
 * One output row per selected row (duplicates repeat the record's values). A status column is
 * added when any row could not be enriched, saying why, so no row is silently empty.
 */
export function buildOutputColumns(
  kind: KindName,
  fields: readonly string[],
  idValues: readonly unknown[],
  byRow: ReadonlyMap<number, InputAnswer>,
): OutputColumns {
  const headers = fields.map((field) => fieldSpec(kind, field)?.label ?? field);
  const numberFormats = fields.map((field) => (isRecordKind(kind) ? fieldNumberFormat(kind, field, fieldSpec(kind, field)?.type) : "General"));
  const rows: CellValue[][] = [];
  const statuses: string[] = [];
  const counts = { enriched: 0, problems: 0, blank: 0, matched: 0, unmatched: 0 };
  const columnProblems = new Map<string, string>();
  for (const [index, raw] of idValues.entries()) {
    const blank = raw === null || raw === undefined || (typeof raw === "string" && raw.trim() === "");
    if (blank) {
      counts.blank += 1;
      rows.push(fields.map(() => ""));
      statuses.push("");
      continue;
    }
    const id = parseRecordId(raw);
    const result = byRow.get(index)?.result;
    if (result?.ok) {
      counts.enriched += 1;
      rows.push(shownValues(result));
      statuses.push("");
      for (const [field, problem] of Object.entries(result.fieldProblems ?? {})) columnProblems.set(fieldSpec(kind, field)?.label ?? field, problem.message);
    } else {
      counts.problems += 1;
      rows.push(fields.map(() => ""));
      statuses.push(id === undefined ? problems.invalidId(kind).message : result ? problemRowStatus(result.problem) : "Not enriched");
    }
  }
  if (counts.problems > 0) {
    headers.push(STATUS_HEADER);
    numberFormats.push("General");
    rows.forEach((row, index) => row.push(statuses[index] ?? ""));
  }
  return { headers, rows, numberFormats, counts, columnProblems: [...columnProblems].map(([header, message]) => ({ header, message })) };
}
