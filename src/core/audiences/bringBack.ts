// "Bring the results back": the audience's rows, read in pages of 500, and their enriched columns
// written beside the table's rows they came from, matched by each row's link (never by
// position). Only empty cells are written: a cell that holds anything is kept and counted. Each
// page is written as it comes, so an interruption leaves the pages before it done, and Resume
// goes on from the page that failed.
import { MAX_ROWS_PAGE_SIZE, type AudienceRow } from "../contract/index.js";
import { cellValue, type CellValue } from "../sheet/index.js";
import { isServiceError } from "../api/errors.js";
import { runBulk, type RunBatch } from "../run/index.js";
import { linkFor } from "./links.js";
import { KEY_COLUMN_NAME, type SheetTable } from "./mapping.js";
import { linkColumnIndex } from "./plan.js";
import type { AudienceColumnInfo, AudienceRowsPort } from "./port.js";
import { columnForHeader, type AudienceSheet, type ColumnWrite } from "./sheetPort.js";

const NUMBER_TYPES = ["INTEGER", "DECIMAL", "PERCENT", "CURRENCY", "NUMBER"];

export interface BringBackOptions {
  /** The page to start from (Resume); 1 by default. */
  fromPage?: number;
  signal?: AbortSignal;
  onProgress?: (progress: { pagesDone: number; totalPages: number; cellsWritten: number }) => void;
  /** Pages read at once after the first (default 6). */
  concurrency?: number;
}

export interface BringBackResult {
  /** The page to resume from, when the run stopped before the last one. */
  resumeFrom?: number;
  totalPages: number;
  pagesDone: number;
  cellsWritten: number;
  /** Cells that already held something (typed by the user, or an earlier value) and were kept. */
  cellsKept: number;
  /** Audience rows no table row links to (added elsewhere, or the link was removed). */
  rowsNotInTable: number;
  columns: string[];
  cancelled: boolean;
  error?: unknown;
}

/** The audience columns that come back: what enrichment fills (not the sent columns, not the key). */
export function columnsToBringBack(columns: readonly AudienceColumnInfo[]): AudienceColumnInfo[] {
  return columns.filter((c) => c.name !== KEY_COLUMN_NAME && (c.source === undefined ? true : c.source === "enrichment" || c.source === "match"));
}

/** The header a brought-back column gets: its name, unless one of the table's own columns (left of the link column) has it. */
export function headerFor(table: SheetTable, name: string): string {
  const link = linkColumnIndex(table);
  const own = table.headers.slice(0, link >= 0 ? link : table.headers.length).map((h) => h.trim().toLowerCase());
  return own.includes(name.trim().toLowerCase()) ? `${name} (audience)` : name;
}

interface Placement {
  columnId: string;
  header: string;
  column: number;
  numeric: boolean;
}

function placements(table: SheetTable, columns: readonly AudienceColumnInfo[]): Placement[] {
  const added: string[] = [];
  return columns.map((c) => {
    const header = headerFor(table, c.name);
    const column = columnForHeader(table.headers, header, added);
    if (column >= table.headers.length && !added.includes(header)) added.push(header);
    return { columnId: c.columnId, header, column, numeric: NUMBER_TYPES.includes(c.dataType) };
  });
}

/** Table row of each audience row, by row id and by key (for a link whose send was not confirmed). */
function rowIndex(table: SheetTable, audienceId: string): { byRowId: Map<string, number>; byKey: Map<string, number> } {
  const at = linkColumnIndex(table);
  const byRowId = new Map<string, number>();
  const byKey = new Map<string, number>();
  if (at < 0) return { byRowId, byKey };
  table.rows.forEach((row, index) => {
    const link = linkFor(row[at], audienceId);
    if (link && "rowId" in link) byRowId.set(link.rowId, index);
    else if (link) byKey.set(link.key, index);
  });
  return { byRowId, byKey };
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === "";

interface PageWrites {
  writes: ColumnWrite[];
  written: number;
  kept: number;
  notInTable: number;
}

function pageWrites(
  table: SheetTable,
  rows: readonly AudienceRow[],
  places: readonly Placement[],
  index: ReturnType<typeof rowIndex>,
  keyColumnId?: string,
): PageWrites {
  const writes = places.map((p): ColumnWrite => ({ column: p.column, header: p.header, cells: [] }));
  const out: PageWrites = { writes, written: 0, kept: 0, notInTable: 0 };
  for (const row of rows) {
    const values = new Map(row.attributes.values.map((v) => [v.columnId, v]));
    const key = keyColumnId !== undefined ? values.get(keyColumnId)?.value : undefined;
    const at = index.byRowId.get(row.id) ?? (typeof key === "string" ? index.byKey.get(key) : undefined);
    if (at === undefined) {
      out.notInTable++;
      continue;
    }
    places.forEach((p, k) => {
      const v = values.get(p.columnId);
      if (!v || v.state !== "RESULT" || isEmpty(v.value)) return;
      const value: CellValue = cellValue(v.value, p.numeric ? "number" : "text");
      const current = table.rows[at]?.[p.column];
      if (!isEmpty(current)) {
        if (current !== value) out.kept++;
        return;
      }
      writes[k]?.cells.push({ row: at, value });
      out.written++;
    });
  }
  return out;
}

/** Applies a page's writes to the in-memory table, so the next pages see them. */
function remember(table: SheetTable, writes: readonly ColumnWrite[]): void {
  for (const w of writes) {
    table.headers[w.column] = w.header;
    for (const c of w.cells) {
      const row = table.rows[c.row];
      if (row) row[w.column] = c.value;
    }
  }
}

interface Run {
  table: SheetTable;
  places: Placement[];
  index: ReturnType<typeof rowIndex>;
  keyColumnId: string | undefined;
  result: BringBackResult;
  done: Set<number>;
  /** Pages are written one after another (each sees what the ones before it wrote). */
  writing: Promise<void>;
}

type BringBackPort = AudienceRowsPort & { listAudienceColumns(audienceId: string, options?: { signal?: AbortSignal }): Promise<AudienceColumnInfo[]> };

type RowsAnswer = Awaited<ReturnType<AudienceRowsPort["getAudienceRows"]>>;

/** Writes one page's values (after the pages before it in the queue); the page is then done. */
function writePage(sheet: AudienceSheet, run: Run, page: number, answer: RowsAnswer): Promise<void> {
  const { table, result } = run;
  const write = run.writing.then(async () => {
    const p = pageWrites(table, answer.rows, run.places, run.index, run.keyColumnId);
    const writes = p.writes.filter((w) => w.cells.length > 0 || table.headers[w.column] !== w.header);
    if (writes.length > 0) await sheet.writeColumns(table.address, writes);
    remember(table, writes);
    result.cellsWritten += p.written;
    result.cellsKept += p.kept;
    result.rowsNotInTable += p.notInTable;
    run.done.add(page);
  });
  run.writing = write.catch(() => undefined);
  return write;
}

/**
 * Brings the audience's enriched columns back beside the table at `address`: the first page, then
 * the others `concurrency` at a time (default 6). A page that fails stops the run; Resume starts
 * from the first page not done (pages after it already written are only read again).
 */
export async function bringBack(
  port: BringBackPort,
  sheet: AudienceSheet,
  address: string,
  audienceId: string,
  options: BringBackOptions = {},
): Promise<BringBackResult> {
  const signal = options.signal;
  const read = await sheet.readTableAt(address);
  if (!read.ok) throw new Error(read.message);
  const read1 = (page: number) => port.getAudienceRows(audienceId, { page, size: MAX_ROWS_PAGE_SIZE, ...(signal ? { signal } : {}) });
  const first = Math.max(1, options.fromPage ?? 1);
  // The first page is asked beside the columns: neither waits for the other.
  const firstPage = read1(first);
  firstPage.catch(() => undefined);
  const all = await port.listAudienceColumns(audienceId, signal ? { signal } : {});
  const places = placements(read.table, columnsToBringBack(all));
  const result: BringBackResult = {
    totalPages: 0,
    pagesDone: 0,
    cellsWritten: 0,
    cellsKept: 0,
    rowsNotInTable: 0,
    columns: places.map((p) => p.header),
    cancelled: false,
  };
  const keyColumnId = all.find((c) => c.name === KEY_COLUMN_NAME)?.columnId;
  const run: Run = { table: read.table, places, index: rowIndex(read.table, audienceId), keyColumnId, result, done: new Set(), writing: Promise.resolve() };
  let failure: unknown;
  const progress = () => options.onProgress?.({ pagesDone: first - 1 + run.done.size, totalPages: result.totalPages, cellsWritten: result.cellsWritten });
  // One page a request on the core's bulk run; a failure anywhere stops it (nothing more is read).
  // Each read carries the signal, so a cancel fails the next read and the run says where to resume.
  const readPage = async ({ items: [page] }: RunBatch<number>) => {
    if (failure !== undefined) throw failure;
    await writePage(sheet, run, page as number, await read1(page as number));
    progress();
    return [page];
  };
  const stopsRun = (error: unknown) => {
    failure ??= error;
    return true;
  };
  try {
    const answer = await firstPage;
    result.totalPages = answer.totalPages;
    const last = answer.rows.length === 0 ? first : answer.totalPages;
    const pages = Array.from({ length: Math.max(0, last - first) }, (_, k) => first + 1 + k);
    // The other pages are asked while the first is written.
    const firstWritten = writePage(sheet, run, first, answer).then(progress, (error: unknown) => void (failure ??= error));
    await Promise.all([firstWritten, runBulk(pages, readPage, { cap: 1, window: Math.max(1, options.concurrency ?? 6), stopsRun })]);
  } catch (error) {
    failure ??= error;
  }
  result.pagesDone = first - 1 + run.done.size;
  if (failure === undefined) return result;
  let resumeFrom = first;
  while (run.done.has(resumeFrom)) resumeFrom++;
  const cancelled = signal?.aborted === true || (isServiceError(failure) && failure.kind === "cancelled");
  return { ...result, resumeFrom, cancelled, ...(cancelled ? {} : { error: failure }) };
}
